import type { Executor } from '../db/client.js';
import { recordActivity, type ActivityInput } from '../history/index.js';
import { ZERO_ADDRESS } from '../lib/address.js';
import { applyNameState, type NameState } from './names.store.js';
import type { OrderEffects } from './order-effects.js';

/** The chain coordinates of an event, as activity fields (ENS contract events: platform `ens`, paid in ETH). */
export function chainRef(e: { tx: string; block: number; logIndex: number }, at: Date): Pick<ActivityInput, 'txHash' | 'block' | 'logIndex' | 'at' | 'platform' | 'currency'> {
  return { txHash: e.tx, block: e.block, logIndex: e.logIndex, at, platform: 'ens', currency: ZERO_ADDRESS };
}

/**
 * Applies an ownership event and logs a `transfer` when it moved the name from one holder to
 * another (mints are logged as registrations; an event older than the stored state moves nothing).
 * The listings the change moves log the same transaction, block, log index and time.
 */
export async function applyAndLogTransfer(
  trx: Executor,
  row: NameState,
  change: { owner?: string | null; wrapped?: boolean },
  e: { tx: string; block: number; logIndex: number },
  at: Date,
  effects: OrderEffects,
  now: Date,
): Promise<void> {
  const before = row.owner_address;
  await applyNameState(trx, row, change, { block: e.block, logIndex: e.logIndex }, effects, now, { txHash: e.tx, block: e.block, logIndex: e.logIndex, at });
  if (before === null || row.owner_address === null || before === row.owner_address) return;
  await recordActivity(trx, {
    type: 'transfer', ensNameId: row.id, actor: before, counterparty: row.owner_address, txHash: e.tx, block: e.block, logIndex: e.logIndex, at, platform: 'ens',
    metadata: { wrapped: row.wrapped },
  });
}
