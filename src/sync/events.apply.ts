import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import { recordActivity } from '../history/index.js';
import { InvalidNameError, parseEthName, type EthName } from '../lib/ens.js';
import type { ChainEvent, ContractSet } from './events.decode.js';
import { ensKeyOf, fillsBeforeTransfers, hex32, recordFill } from './events.fills.js';
import { applyNameState, insertNames, ownerOrNull, unixToDate, type NameState } from './names.store.js';
import { applyAndLogTransfer, chainRef } from './events.activity.js';
import type { ChainLog, OrderEffects } from './order-effects.js';

/** What one range of events did. */
export interface EventCounts {
  registrations: number;
  renewals: number;
  transfers: number;
  sales: number;
  cancellations: number;
  /** labels in controller events that do not normalize */
  invalid: number;
  /** transfers and fills of names that are not stored (and not registered in the range) */
  unknown: number;
}

export const zeroEventCounts = (): EventCounts => ({ registrations: 0, renewals: 0, transfers: 0, sales: 0, cancellations: 0, invalid: 0, unknown: 0 });

export interface ApplyContext {
  contracts: ContractSet;
  effects: OrderEffects;
  blockTimes: ReadonlyMap<number, Date>;
  txSenders: ReadonlyMap<string, string>;
}

type NameRow = NameState & { labelhash: string; namehash: string };

const logOf = (e: { tx: string; block: number; logIndex: number }, at: Date): ChainLog => ({ txHash: e.tx, block: e.block, logIndex: e.logIndex, at });

/** Controller events carry the label: parsed, or undefined when it does not normalize to itself. */
export function labelOf(event: { label: string; labelhash: string }): EthName | undefined {
  try {
    const parsed = parseEthName(event.label);
    return parsed.labelhash === event.labelhash && parsed.label === event.label ? parsed : undefined;
  } catch (err) {
    if (err instanceof InvalidNameError) return undefined;
    throw err;
  }
}

/**
 * Applies one range of decoded events, in chain order, inside the caller's transaction. Every
 * write is idempotent: registrations and sales are unique on (tx hash, log index), and name state
 * only moves forward in chain position.
 */
export async function applyEvents(trx: Executor, events: readonly ChainEvent[], ctx: ApplyContext): Promise<EventCounts> {
  const counts = zeroEventCounts();
  const { contracts, effects } = ctx;

  // Names first registered in this range exist before their transfers are applied.
  const labels = new Map<string, EthName>();
  for (const e of events) {
    if (e.kind !== 'registered' && e.kind !== 'renewed' && e.kind !== 'renewal-referred') continue;
    const parsed = labelOf(e);
    if (parsed) labels.set(parsed.labelhash, parsed);
    else counts.invalid++;
  }
  await insertNames(trx, [...labels.values()].map((parsed) => ({ parsed })));

  const labelhashes = new Set<string>(labels.keys());
  const namehashes = new Set<string>();
  for (const e of events) {
    if (e.kind === 'transfer') labelhashes.add(hex32(e.tokenId));
    if (e.kind === 'wrapped-transfer') for (const id of e.ids) namehashes.add(hex32(id));
    if (e.kind === 'fulfilled') {
      for (const item of [...e.offer, ...e.consideration]) {
        const key = ensKeyOf(item, contracts);
        if (key?.labelhash) labelhashes.add(key.labelhash);
        if (key?.namehash) namehashes.add(key.namehash);
      }
    }
  }
  const rows = await lockNames(trx, [...labelhashes], [...namehashes]);
  const byLabelhash = new Map(rows.map((r) => [r.labelhash, r]));
  const byNamehash = new Map(rows.map((r) => [r.namehash, r]));
  const timeOf = (block: number) => {
    const t = ctx.blockTimes.get(block);
    if (!t) throw new Error(`no time for block ${block}`);
    return t;
  };
  const now = new Date();

  for (const e of fillsBeforeTransfers(events)) {
    const position = { block: e.block, logIndex: e.logIndex };
    switch (e.kind) {
      case 'registered': {
        const row = labels.has(e.labelhash) ? byLabelhash.get(e.labelhash) : undefined;
        if (!row) break;
        const time = timeOf(e.block);
        const expiry = unixToDate(e.expires);
        await insertRegistration(trx, {
          ens_name_id: row.id, kind: 'registration', actor_address: e.owner, tx_hash: e.tx, log_index: e.logIndex,
          block_number: e.block, block_time: time, duration_seconds: secondsBetween(time, expiry),
          cost_wei: e.cost.toString(), premium_wei: e.premium.toString(), referrer: e.referrer, expiry_date: expiry,
        });
        counts.registrations++;
        await recordActivity(trx, {
          type: 'registration', ensNameId: row.id, actor: e.owner, priceWei: e.cost, ...chainRef(e, time),
          metadata: { expiry_date: expiry?.toISOString() ?? null, referrer: e.referrer },
        });
        await applyNameState(trx, row, { owner: ownerOrNull(e.owner), registrationDate: time, expiryDate: expiry }, position, effects, now, logOf(e, time));
        break;
      }
      case 'renewed': {
        const row = labels.has(e.labelhash) ? byLabelhash.get(e.labelhash) : undefined;
        if (!row) break;
        const expiry = unixToDate(e.expires);
        const previous = await previousExpiry(trx, row, position);
        await insertRegistration(trx, {
          ens_name_id: row.id, kind: 'renewal', actor_address: senderOf(ctx, e.tx), tx_hash: e.tx, log_index: e.logIndex,
          block_number: e.block, block_time: timeOf(e.block), duration_seconds: previous ? secondsBetween(previous, expiry) : 0,
          cost_wei: e.cost.toString(), referrer: e.referrer, expiry_date: expiry,
        });
        counts.renewals++;
        await recordActivity(trx, {
          type: 'renewal', ensNameId: row.id, actor: senderOf(ctx, e.tx), priceWei: e.cost, ...chainRef(e, timeOf(e.block)),
          metadata: { expiry_date: expiry?.toISOString() ?? null, referrer: e.referrer },
        });
        await applyNameState(trx, row, { expiryDate: expiry }, position, effects, now);
        break;
      }
      case 'renewal-referred': {
        const row = labels.has(e.labelhash) ? byLabelhash.get(e.labelhash) : undefined;
        if (!row) break;
        await referRenewal(trx, row.id, e, senderOf(ctx, e.tx), timeOf(e.block));
        break;
      }
      case 'transfer': {
        const row = byLabelhash.get(hex32(e.tokenId));
        if (!row) {
          counts.unknown++;
          break;
        }
        // Into the NameWrapper: the wrapper's own TransferSingle (next) names the holder.
        const change = e.to === contracts.nameWrapper ? { wrapped: true } : { owner: ownerOrNull(e.to), wrapped: false };
        await applyAndLogTransfer(trx, row, change, e, timeOf(e.block), effects, now);
        counts.transfers++;
        break;
      }
      case 'wrapped-transfer': {
        // A burn (unwrap) is followed by the registrar's Transfer to the new holder.
        if (ownerOrNull(e.to) === null) break;
        for (const id of e.ids) {
          const row = byNamehash.get(hex32(id));
          if (!row) continue;
          await applyAndLogTransfer(trx, row, { owner: ownerOrNull(e.to), wrapped: true }, e, timeOf(e.block), effects, now);
          counts.transfers++;
        }
        break;
      }
      case 'fulfilled': {
        const recorded = await recordFill(trx, e, ctx, byLabelhash, byNamehash, timeOf(e.block));
        if (recorded === 'unknown') counts.unknown++;
        else if (recorded) counts.sales++;
        break;
      }
      case 'cancelled':
        // no block time read: the hash was no order of ours when the range was read (one stored since ends now)
        await effects.orderCancelled(trx, e.orderHash, e.offerer, logOf(e, ctx.blockTimes.get(e.block) ?? now));
        counts.cancellations++;
        break;
      case 'counter':
        await effects.counterIncremented(trx, e.offerer, e.newCounter, logOf(e, timeOf(e.block)));
        counts.cancellations++;
        break;
      default: {
        const never: never = e;
        throw new Error(`unhandled event ${JSON.stringify(never)}`);
      }
    }
  }
  return counts;
}

async function lockNames(trx: Executor, labelhashes: string[], namehashes: string[]): Promise<NameRow[]> {
  if (labelhashes.length === 0 && namehashes.length === 0) return [];
  return trx
    .selectFrom('ens_names')
    .select(['id', 'label', 'labelhash', 'namehash', 'owner_address', 'wrapped', 'registration_date', 'expiry_date', 'synced_block', 'synced_log_index'])
    .where(sql<boolean>`labelhash = ANY(${labelhashes}::text[]) OR namehash = ANY(${namehashes}::text[])`)
    .orderBy('id')
    .forUpdate()
    .execute();
}

interface RegistrationRow {
  ens_name_id: number;
  kind: 'registration' | 'renewal';
  actor_address: string;
  tx_hash: string;
  log_index: number;
  block_number: number;
  block_time: Date;
  duration_seconds: number;
  cost_wei: string;
  /** the premium part of cost_wei (registrations through controllers that report it) */
  premium_wei?: string;
  referrer: string | null;
  expiry_date: Date | null;
}

async function insertRegistration(trx: Executor, row: RegistrationRow): Promise<void> {
  await trx.insertInto('registrations').values(row).onConflict((oc) => oc.columns(['tx_hash', 'log_index']).doNothing()).execute();
}

function senderOf(ctx: ApplyContext, tx: string): string {
  const from = ctx.txSenders.get(tx);
  if (!from) throw new Error(`no sender for transaction ${tx}`);
  return from;
}

function secondsBetween(from: Date | null, to: Date | null): number {
  if (!from || !to) return 0;
  return Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
}

/**
 * The expiry a renewal extended: that of the name's latest earlier registration or renewal, or
 * the name's stored expiry when that state is older than the renewal. Unknown (null) when the
 * history before the sync's start is missing and the stored state is already newer.
 */
async function previousExpiry(trx: Executor, row: NameRow, position: { block: number; logIndex: number }): Promise<Date | null> {
  const last = await trx
    .selectFrom('registrations')
    .select('expiry_date')
    .where('ens_name_id', '=', row.id)
    .where('expiry_date', 'is not', null)
    .where((eb) => eb.or([eb('block_number', '<', position.block), eb.and([eb('block_number', '=', position.block), eb('log_index', '<', position.logIndex)])]))
    .orderBy('block_number', 'desc')
    .orderBy('log_index', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last?.expiry_date) return last.expiry_date;
  const stateIsOlder = row.synced_block === null || row.synced_block < position.block || (row.synced_block === position.block && (row.synced_log_index ?? -1) < position.logIndex);
  return stateIsOlder ? row.expiry_date : null;
}

/**
 * RenewalReferred follows the controller's NameRenewed in the same transaction: it gives that
 * renewal its referrer and its exact cost and duration. Without such a renewal (the controller is
 * not synced), it is recorded as a renewal itself.
 */
async function referRenewal(
  trx: Executor,
  ensNameId: number,
  e: { tx: string; logIndex: number; block: number; cost: bigint; duration: bigint; referrer: string },
  sender: string,
  time: Date,
): Promise<void> {
  const renewal = await trx
    .selectFrom('registrations')
    .select('id')
    .where('tx_hash', '=', e.tx)
    .where('ens_name_id', '=', ensNameId)
    .where('kind', '=', 'renewal')
    .where('log_index', '<', e.logIndex)
    .orderBy('log_index', 'desc')
    .limit(1)
    .executeTakeFirst();
  const duration = Number(e.duration > 2n ** 52n ? 2n ** 52n : e.duration);
  if (renewal) {
    await trx
      .updateTable('registrations')
      .set({ referrer: e.referrer, cost_wei: e.cost.toString(), duration_seconds: duration, actor_address: sender })
      .where('id', '=', renewal.id)
      .execute();
    return;
  }
  await insertRegistration(trx, {
    ens_name_id: ensNameId, kind: 'renewal', actor_address: sender, tx_hash: e.tx, log_index: e.logIndex,
    block_number: e.block, block_time: time, duration_seconds: duration, cost_wei: e.cost.toString(), referrer: e.referrer, expiry_date: null,
  });
  await recordActivity(trx, {
    type: 'renewal', ensNameId, actor: sender, priceWei: e.cost, ...chainRef(e, time), metadata: { duration_seconds: duration, referrer: e.referrer },
  });
}
