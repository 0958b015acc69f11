import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import type { ListingStatus, OfferStatus } from '../db/schema.js';
import { notify, type NewNotification } from '../services/notifier.js';
import { lockNames, recalculateHighestOffer, refreshListingSummary } from './summaries.js';

/**
 * Orders that end without a trade: cancelled on chain (by hash or by counter) and past their end
 * time (the expiry sweep). Part of the order state module (re-exported by order-state.ts); same
 * lock order: name rows first, in id order.
 */

export interface CancelResult {
  listings: number;
  offers: number;
}

async function cancelWhere(trx: Executor, listingIds: number[], offerIds: number[], nameIds: number[]): Promise<CancelResult> {
  await lockNames(trx, nameIds);
  const listings = listingIds.length === 0 ? [] : await trx
    .updateTable('listings')
    .set({ status: 'cancelled', updated_at: sql`now()` })
    .where('id', 'in', listingIds)
    .where('status', 'in', ['active', 'unfunded'] satisfies ListingStatus[])
    .returning('ens_name_id')
    .execute();
  const offers = offerIds.length === 0 ? [] : await trx
    .updateTable('offers')
    .set({ status: 'rejected', updated_at: sql`now()` })
    .where('id', 'in', offerIds)
    .where('status', 'in', ['pending', 'unfunded'] satisfies OfferStatus[])
    .returning('ens_name_id')
    .execute();
  for (const id of new Set(listings.map((l) => l.ens_name_id))) await refreshListingSummary(trx, id);
  for (const id of new Set(offers.map((o) => o.ens_name_id))) await recalculateHighestOffer(trx, id);
  return { listings: listings.length, offers: offers.length };
}

/**
 * Orders cancelled on chain (Seaport `OrderCancelled`): listings active/unfunded → cancelled,
 * offers pending/unfunded → rejected (the offer status for a withdrawn offer). Orders in a final
 * status stay as they are. Hashes are matched lower-case.
 */
export async function cancelOrdersByHash(trx: Executor, orderHashes: readonly string[]): Promise<CancelResult> {
  const hashes = [...new Set(orderHashes.map((h) => h.toLowerCase()))];
  if (hashes.length === 0) return { listings: 0, offers: 0 };
  const [listings, offers] = await Promise.all([
    trx.selectFrom('listings').select(['id', 'ens_name_id']).where('order_hash', 'in', hashes).execute(),
    trx.selectFrom('offers').select(['id', 'ens_name_id']).where('order_hash', 'in', hashes).execute(),
  ]);
  return cancelWhere(trx, listings.map((l) => l.id), offers.map((o) => o.id), [...listings, ...offers].map((r) => r.ens_name_id));
}

/**
 * Seaport `CounterIncremented(newCounter, offerer)`: every open order of the offerer signed with a
 * lower counter can no longer be filled; listings → cancelled, offers → rejected.
 */
export async function cancelOrdersByCounter(trx: Executor, offerer: string, newCounter: bigint): Promise<CancelResult> {
  const who = offerer.toLowerCase();
  const stale = sql<boolean>`coalesce((order_data->'parameters'->>'counter')::numeric, 0) < ${newCounter.toString()}::numeric`;
  const [listings, offers] = await Promise.all([
    trx.selectFrom('listings').select(['id', 'ens_name_id']).where('seller_address', '=', who).where('status', 'in', ['active', 'unfunded']).where(stale).execute(),
    trx.selectFrom('offers').select(['id', 'ens_name_id']).where('buyer_address', '=', who).where('status', 'in', ['pending', 'unfunded']).where(stale).execute(),
  ]);
  return cancelWhere(trx, listings.map((l) => l.id), offers.map((o) => o.id), [...listings, ...offers].map((r) => r.ens_name_id));
}

export interface ExpirySweepResult {
  listings: number;
  offers: number;
}

/**
 * One batch of the expiry sweep: up to `batchSize` listings and offers per live status past their
 * end time become expired; the names' summaries are recalculated and
 * sellers get `listing_expired`, buyers `offer_expired`. Call until it returns zeros.
 */
export async function expireDueOrders(trx: Executor, batchSize = 500): Promise<ExpirySweepResult> {
  // one status at a time: each is an ordered range of the (status, expires_at) index
  const listingsDue = (status: ListingStatus) =>
    trx.selectFrom('listings').select(['id', 'ens_name_id']).where('status', '=', status).where('expires_at', '<=', sql<Date>`now()`).orderBy('expires_at').limit(batchSize).execute();
  const offersDue = (status: OfferStatus) =>
    trx.selectFrom('offers').select(['id', 'ens_name_id']).where('status', '=', status).where('expires_at', '<=', sql<Date>`now()`).orderBy('expires_at').limit(batchSize).execute();
  const dueListings = [...(await listingsDue('active')), ...(await listingsDue('unfunded'))];
  const dueOffers = [...(await offersDue('pending')), ...(await offersDue('unfunded'))];
  if (dueListings.length === 0 && dueOffers.length === 0) return { listings: 0, offers: 0 };
  const names = await lockNames(trx, [...dueListings, ...dueOffers].map((r) => r.ens_name_id));
  const listings = dueListings.length === 0 ? [] : await trx
    .updateTable('listings')
    .set({ status: 'expired', updated_at: sql`now()` })
    .where('id', 'in', dueListings.map((l) => l.id))
    .where('status', 'in', ['active', 'unfunded'])
    .where('expires_at', '<=', sql<Date>`now()`)
    .returning(['id', 'ens_name_id', 'seller_address', 'price_wei', 'currency_address'])
    .execute();
  const offers = dueOffers.length === 0 ? [] : await trx
    .updateTable('offers')
    .set({ status: 'expired', updated_at: sql`now()` })
    .where('id', 'in', dueOffers.map((o) => o.id))
    .where('status', 'in', ['pending', 'unfunded'])
    .where('expires_at', '<=', sql<Date>`now()`)
    .returning(['id', 'ens_name_id', 'buyer_address', 'offer_amount_wei', 'currency_address'])
    .execute();
  for (const id of new Set(listings.map((l) => l.ens_name_id))) await refreshListingSummary(trx, id);
  for (const id of new Set(offers.map((o) => o.ens_name_id))) await recalculateHighestOffer(trx, id);
  const label = (id: number) => names.get(id)?.name ?? 'a name';
  await notify(trx, [
    ...listings.map((l): NewNotification => ({
      recipient: l.seller_address,
      type: 'listing_expired',
      ensNameId: l.ens_name_id,
      title: `Listing of ${label(l.ens_name_id)} expired`,
      message: `Your listing of ${label(l.ens_name_id)} reached its end time and is no longer for sale.`,
      metadata: { listingId: l.id, priceWei: l.price_wei, currency: l.currency_address },
    })),
    ...offers.map((o): NewNotification => ({
      recipient: o.buyer_address,
      type: 'offer_expired',
      ensNameId: o.ens_name_id,
      title: `Offer on ${label(o.ens_name_id)} expired`,
      message: `Your offer on ${label(o.ens_name_id)} reached its end time.`,
      metadata: { offerId: o.id, amountWei: o.offer_amount_wei, currency: o.currency_address },
    })),
  ]);
  return { listings: listings.length, offers: offers.length };
}
