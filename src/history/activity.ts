import { sql } from 'kysely';
import type { Executor } from '../db/client.js';

import { ACTIVITY_EVENT_TYPES, type ActivityEventType } from '../contracts/activity.js';

export { ACTIVITY_EVENT_TYPES, type ActivityEventType };

/** Where an event came from: our own order book, another Seaport order, the ENS contracts, this service. */
export type ActivityPlatform = 'grails' | 'seaport' | 'ens' | 'system' | (string & {});

export interface ActivityInput {
  type: ActivityEventType;
  ensNameId: number;
  actor?: string | null;
  counterparty?: string | null;
  /** wei (or the currency's smallest unit), decimal */
  priceWei?: string | bigint | null;
  currency?: string | null;
  platform?: ActivityPlatform;
  txHash?: string | null;
  block?: number | null;
  logIndex?: number | null;
  metadata?: Record<string, unknown>;
  /** when it happened (block time for chain events); now by default */
  at?: Date;
}

/** The columns of activity_events_chain_idx (0022): one event per log, name, type and order. */
const CHAIN_KEY = sql`transaction_hash, log_index, ens_name_id, event_type, (coalesce(metadata->>'listing_id', metadata->>'offer_id', ''))`;

/**
 * Appends events to the log inside the caller's transaction, so an event exists exactly when the
 * change that caused it committed. Chain events (with a transaction hash and log index) are
 * unique per name, type and order (metadata `listing_id` / `offer_id`), so a replayed block range
 * appends nothing. Returns how many rows were appended.
 */
export async function recordActivity(trx: Executor, events: ActivityInput | readonly ActivityInput[]): Promise<number> {
  const list = Array.isArray(events) ? (events as readonly ActivityInput[]) : [events as ActivityInput];
  if (list.length === 0) return 0;
  const result = await trx
    .insertInto('activity_events')
    .values(list.map((e) => ({
      event_type: e.type,
      ens_name_id: e.ensNameId,
      actor_address: e.actor?.toLowerCase() ?? null,
      counterparty_address: e.counterparty?.toLowerCase() ?? null,
      price_wei: e.priceWei === undefined || e.priceWei === null ? null : e.priceWei.toString(),
      currency_address: e.currency?.toLowerCase() ?? null,
      platform: e.platform ?? 'grails',
      transaction_hash: e.txHash ?? null,
      block_number: e.block ?? null,
      log_index: e.logIndex ?? null,
      metadata: JSON.stringify(e.metadata ?? {}),
      created_at: e.at,
    })))
    .onConflict((oc) => oc
      .expression(CHAIN_KEY)
      .where(sql<boolean>`transaction_hash IS NOT NULL AND log_index IS NOT NULL`)
      .doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}
