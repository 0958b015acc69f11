import type { Logger } from 'pino';
import type { Db, Executor } from '../db/client.js';
import { InvalidNameError, parseEthName, type EthName } from '../lib/ens.js';
import { CHANGE_STREAMS, type EnsSubgraph, type Page, type SubgraphDomain } from '../providers/subgraph-sync/ens-subgraph.js';
import { applyNameState, END_OF_BLOCK, insertNames, lockNamesByLabelhash, ownerOrNull, unixToDate, type NewName } from './names.store.js';
import type { OrderEffects } from './order-effects.js';
import type { SyncProgress } from './progress.js';
import { claimState, readState, writeState } from './state.js';

/**
 * Name sync from the ENS subgraph.
 *
 * The first pass pages through every .eth second-level domain (`domains(where: {parent:
 * namehash("eth"), id_gt: $last}, first: 1000, orderBy: id)`). Later passes fetch only what
 * changed: the event entities `nameRegistereds`, `nameReneweds`, `nameTransferreds` and
 * `wrappedTransfers` with `blockNumber_gt` the high-water mark (the subgraph block at the start of
 * the previous pass), each with the domain it touched, in the same cursor pagination.
 * Every page is applied in one transaction together with the cursor that follows it, so a crash
 * resumes exactly after the last applied page; pages are idempotent (upserts by labelhash, and
 * state writes only when newer than the row's chain position), so a page applied twice is harmless.
 */
export const NAMES_STATE_KEY = 'names';
export const NAMES_PAGE_SIZE = 1000;

type Phase = 'domains' | (typeof CHANGE_STREAMS)[number];

interface PassState {
  /** 'domains' for a full pass, else the change stream being read */
  phase: Phase;
  /** id cursor within the phase */
  last: string;
  /** change passes: events after this block */
  since: number | null;
  /** subgraph block of the first page of this pass: the next pass's high-water mark */
  startBlock: number | null;
  counts: NameCounts;
}

export interface NameCounts {
  /** domains read from the subgraph */
  seen: number;
  inserted: number;
  updated: number;
  /** labels that do not normalize, unknown labels, or registered in a non-normalized form */
  invalid: number;
  /** .eth domains without a registration (never registered through the registrar) */
  unregistered: number;
}

export interface NamesState {
  pass: PassState | null;
  /** subgraph block up to which every change is applied; null before the first full pass */
  highWater: number | null;
  lastPass: (NameCounts & { mode: 'full' | 'changes'; finishedAt: string }) | null;
}

export interface NameSyncOptions {
  pageSize?: number;
  /** stop after the page that crosses this time (the job continues later); the pass resumes from its cursor */
  deadline?: number;
  progress?: SyncProgress;
}

export interface NameSyncResult {
  /** true when a pass finished (false: stopped at the deadline, to be continued) */
  done: boolean;
  mode: 'full' | 'changes';
  pages: number;
  counts: NameCounts;
}

const zeroCounts = (): NameCounts => ({ seen: 0, inserted: 0, updated: 0, invalid: 0, unregistered: 0 });
const PHASES_OF_CHANGES: Phase[] = [...CHANGE_STREAMS];

export async function syncNames(
  deps: { db: Db; logger: Logger },
  subgraph: EnsSubgraph,
  effects: OrderEffects,
  options: NameSyncOptions = {},
): Promise<NameSyncResult> {
  const pageSize = options.pageSize ?? NAMES_PAGE_SIZE;
  // `stored` is the row as read (null before the first page ever), what each batch claims.
  let stored = await readState<NamesState>(deps.db, NAMES_STATE_KEY);
  let state: NamesState = stored ?? { pass: null, highWater: null, lastPass: null };
  let pass: PassState = state.pass ?? newPass(state.highWater);
  const mode = pass.phase === 'domains' ? 'full' : 'changes';
  let pages = 0;
  options.progress?.start(`names (${mode === 'full' ? 'full pass' : `changes since block ${pass.since}`})`, 1);

  for (;;) {
    const page: Page = pass.phase === 'domains'
      ? await subgraph.domainsPage(pass.last, pageSize)
      : await subgraph.changesPage(pass.phase, pass.since ?? 0, pass.last, pageSize);
    pages++;

    // Where the cursor goes after this page: on within the phase, to the next change stream, or done.
    const next: PassState = { ...pass, counts: { ...pass.counts }, startBlock: pass.startBlock ?? page.block };
    let finished = false;
    if (page.count < pageSize) {
      const after = nextPhase(pass.phase);
      if (after) Object.assign(next, { phase: after, last: '' });
      else finished = true;
    } else {
      next.last = page.lastId ?? pass.last;
    }

    const expected = state;
    const claimed = stored;
    state = await deps.db.transaction().execute(async (trx) => {
      await claimState(trx, NAMES_STATE_KEY, claimed);
      const result = await applyDomains(trx, page.domains, page.block, effects);
      for (const k of Object.keys(result) as (keyof NameCounts)[]) next.counts[k] += result[k];
      const nextState: NamesState = finished
        ? { pass: null, highWater: next.startBlock, lastPass: { ...next.counts, mode, finishedAt: new Date().toISOString() } }
        : { ...expected, pass: next };
      await writeState(trx, NAMES_STATE_KEY, nextState);
      return nextState;
    });
    stored = state;
    pass = next;
    const c = pass.counts;
    options.progress?.update(progressOf(pass, finished), `${c.seen} names read, ${c.inserted} new, ${c.updated} updated, ${c.invalid} invalid, ${c.unregistered} unregistered`);

    if (finished) {
      options.progress?.done();
      deps.logger.info({ mode, pages, ...next.counts, highWater: next.startBlock }, 'name sync pass finished');
      return { done: true, mode, pages, counts: next.counts };
    }
    if (options.deadline !== undefined && Date.now() >= options.deadline) {
      options.progress?.done();
      return { done: false, mode, pages, counts: next.counts };
    }
  }
}

function newPass(highWater: number | null): PassState {
  return highWater === null
    ? { phase: 'domains', last: '', since: null, startBlock: null, counts: zeroCounts() }
    : { phase: PHASES_OF_CHANGES[0], last: '', since: highWater, startBlock: null, counts: zeroCounts() };
}

function nextPhase(phase: Phase): Phase | undefined {
  if (phase === 'domains') return undefined;
  return PHASES_OF_CHANGES[PHASES_OF_CHANGES.indexOf(phase) + 1];
}

/**
 * Share of the pass done. Domain ids are namehashes and event ids begin with a transaction hash,
 * both spread evenly over their range, so the cursor's leading hex digits measure the progress.
 */
function progressOf(pass: PassState, finished: boolean): number {
  if (finished) return 1;
  const within = pass.last.startsWith('0x') ? parseInt(pass.last.slice(2, 10).padEnd(8, '0'), 16) / 0x1_0000_0000 : 0;
  if (pass.phase === 'domains') return within;
  const i = PHASES_OF_CHANGES.indexOf(pass.phase);
  return (i + (Number.isFinite(within) ? within : 0)) / PHASES_OF_CHANGES.length;
}

interface Parsed {
  parsed: EthName;
  owner: string | null;
  wrapped: boolean;
  registrationDate: Date | null;
  expiryDate: Date | null;
}

/** Upserts one page of subgraph domains as of `block`. */
async function applyDomains(trx: Executor, domains: readonly SubgraphDomain[], block: number, effects: OrderEffects): Promise<NameCounts> {
  const counts = { ...zeroCounts(), seen: domains.length };
  const byLabelhash = new Map<string, Parsed>();
  for (const d of domains) {
    const parsed = parseDomain(d);
    if (parsed === 'invalid') counts.invalid++;
    else if (parsed === 'unregistered') counts.unregistered++;
    else byLabelhash.set(parsed.parsed.labelhash, parsed);
  }
  const position = { block, logIndex: END_OF_BLOCK };
  const existing = await lockNamesByLabelhash(trx, [...byLabelhash.keys()]);
  const fresh: NewName[] = [];
  const now = new Date();
  for (const [labelhash, p] of byLabelhash) {
    const row = existing.get(labelhash);
    if (!row) {
      fresh.push({ ...p, position });
      continue;
    }
    const change = { owner: p.owner, wrapped: p.wrapped, registrationDate: p.registrationDate, expiryDate: p.expiryDate };
    if (await applyNameState(trx, row, change, position, effects, now)) counts.updated++;
  }
  counts.inserted += (await insertNames(trx, fresh)).length;
  return counts;
}

function parseDomain(d: SubgraphDomain): Parsed | 'invalid' | 'unregistered' {
  if (!d.labelName) return 'invalid';
  let parsed: EthName;
  try {
    parsed = parseEthName(d.labelName);
  } catch (err) {
    if (err instanceof InvalidNameError) return 'invalid';
    throw err;
  }
  // A label registered in a form that is not its normalized one ("ABC") is a different token.
  if (parsed.namehash !== d.id || (d.labelhash !== null && parsed.labelhash !== d.labelhash)) return 'invalid';
  if (!d.registration) return 'unregistered';
  const wrapped = d.wrappedOwner !== null && ownerOrNull(d.wrappedOwner) !== null;
  return {
    parsed,
    owner: wrapped ? ownerOrNull(d.wrappedOwner) : ownerOrNull(d.registrant ?? d.owner),
    wrapped,
    registrationDate: unixToDate(d.registration.registrationDate),
    expiryDate: unixToDate(d.registration.expiryDate),
  };
}
