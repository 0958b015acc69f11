import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { ChainReader, RawLog } from '../providers/rpc/chain-reader.js';
import { applyEvents, zeroEventCounts, type EventCounts } from './events.apply.js';
import { isEnsFill } from './events.fills.js';
import { ALL_TOPICS, decodeLog, type ChainEvent, type ContractSet } from './events.decode.js';
import type { OrderEffects } from './order-effects.js';
import type { SyncProgress } from './progress.js';
import { claimState, readState, writeState } from './state.js';

/**
 * Event sync from an Ethereum JSON-RPC endpoint. Reads the logs of the registrar controllers,
 * the base registrar, the NameWrapper and Seaport in block ranges (`eth_getLogs`) up to
 * head − CONFIRMATIONS and applies each range in one transaction together with the checkpoint
 * (the last applied block), so nothing newer than head − confirmations is ever applied and a
 * crash resumes after the last applied range. A range the endpoint refuses (too many results,
 * timeout) is halved until it passes.
 */
export const EVENTS_STATE_KEY = 'events';

export interface EventsState {
  /** last block whose events are applied */
  block: number;
  /** totals since the sync started */
  counts: EventCounts;
}

export interface EventSyncOptions {
  /** stop after the range that crosses this time (the job continues later) */
  deadline?: number;
  progress?: SyncProgress;
}

export interface EventSyncResult {
  /** true when caught up with head − confirmations */
  done: boolean;
  fromBlock: number;
  /** last applied block (null when nothing was ever applied) */
  toBlock: number | null;
  safeHead: number;
  ranges: number;
  logs: number;
  counts: EventCounts;
}

export function contractsOf(config: Config): ContractSet {
  return {
    controllers: config.ethRegistrarControllerAddresses.map((a) => a.toLowerCase()),
    baseRegistrar: config.baseRegistrarAddress.toLowerCase(),
    nameWrapper: config.nameWrapperAddress.toLowerCase(),
    seaport: config.seaportAddress.toLowerCase(),
  };
}

function addressesOf(contracts: ContractSet): string[] {
  return [...new Set([...contracts.controllers, contracts.baseRegistrar, contracts.nameWrapper, contracts.seaport])];
}

export async function syncEvents(
  deps: { db: Db; logger: Logger; config: Config },
  reader: ChainReader,
  effects: OrderEffects,
  options: EventSyncOptions = {},
): Promise<EventSyncResult> {
  const { config } = deps;
  const contracts = contractsOf(config);
  let state = await readState<EventsState>(deps.db, EVENTS_STATE_KEY);
  const safeHead = (await reader.head()) - config.confirmations;
  const fromBlock = state ? state.block + 1 : config.syncStartBlock;
  const run = { ranges: 0, logs: 0, counts: zeroEventCounts() };
  const result = (done: boolean): EventSyncResult => ({ done, fromBlock, toBlock: state?.block ?? null, safeHead, ...run });
  if (fromBlock > safeHead) return result(true);

  options.progress?.start('events', safeHead - fromBlock + 1);
  let from = fromBlock;
  let span = config.syncBlockRange;
  while (from <= safeHead) {
    const to = Math.min(from + span - 1, safeHead);
    let logs: RawLog[];
    try {
      logs = await reader.logs(from, to, addressesOf(contracts), ALL_TOPICS);
    } catch (err) {
      if (to === from) throw err;
      span = Math.max(1, Math.floor((to - from + 1) / 2));
      deps.logger.warn({ err, from, to, span }, 'eth_getLogs failed; halving the block range');
      continue;
    }

    const events = logs.map((l) => decodeLog(l, contracts)).filter((e): e is ChainEvent => e !== undefined && (e.kind !== 'fulfilled' || isEnsFill(e, contracts)));
    // Transfers too: the activity log dates each ownership change by its block; and the cancels
    // that end an order of ours (Seaport's cancels of every collection are read).
    const ours = await effects.storedOrderHashes(deps.db, events.flatMap((e) => (e.kind === 'cancelled' ? [e.orderHash] : [])));
    const needTime = events.filter((e) => e.kind !== 'cancelled' || ours.has(e.orderHash.toLowerCase()));
    const needSender = events.filter((e) => e.kind === 'renewed' || e.kind === 'renewal-referred');
    const [blockTimes, txSenders] = await Promise.all([
      reader.blockTimes(needTime.map((e) => e.block)),
      reader.txSenders(needSender.map((e) => e.tx)),
    ]);

    const expected = state;
    state = await deps.db.transaction().execute(async (trx) => {
      await claimState(trx, EVENTS_STATE_KEY, expected);
      const counts = await applyEvents(trx, events, { contracts, effects, blockTimes, txSenders });
      const total = { ...(expected?.counts ?? zeroEventCounts()) };
      for (const k of Object.keys(counts) as (keyof EventCounts)[]) {
        total[k] += counts[k];
        run.counts[k] += counts[k];
      }
      const next: EventsState = { block: to, counts: total };
      await writeState(trx, EVENTS_STATE_KEY, next);
      return next;
    });
    run.ranges++;
    run.logs += logs.length;
    from = to + 1;
    span = Math.min(config.syncBlockRange, span * 2);
    const c = run.counts;
    options.progress?.update(
      (to - fromBlock + 1) / (safeHead - fromBlock + 1),
      `block ${to}/${safeHead}, ${run.logs} logs, ${c.registrations} registrations, ${c.renewals} renewals, ${c.transfers} transfers, ${c.sales} sales, ${c.cancellations} cancellations`,
    );
    if (options.deadline !== undefined && Date.now() >= options.deadline && from <= safeHead) {
      options.progress?.done();
      return result(false);
    }
  }
  options.progress?.done();
  deps.logger.info({ fromBlock, toBlock: state?.block, ...run }, 'event sync caught up');
  return result(true);
}
