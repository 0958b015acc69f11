import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/client.js';
import type { ListingStatus, OfferStatus } from '../db/schema.js';
import type { ChainLog } from '../sync/order-effects.js';
import { recordMoves, type ListingMove, type MoveCause, type OfferMove } from './effects.js';
import { lockNames, type LockedName } from './locks.js';
import { LISTING_AUTOMATIC_MOVES, movesInto, OFFER_AUTOMATIC_MOVES } from './moves.js';
import { recalculateHighestOffer, refreshListingSummary } from './summaries.js';

/**
 * Orders that end without a trade, set-based: cancelled on chain (by hash or by counter) and past
 * their end time (the expiry sweep). Same lock order as every move: name rows first, in id order.
 * Moves (and their events) are recorded in order id order.
 */

export interface CancelResult {
  listings: number;
  offers: number;
}

const LISTING_ROW = ['id', 'ens_name_id', 'seller_address', 'price_wei', 'currency_address', 'status'] as const;
const OFFER_ROW = ['id', 'ens_name_id', 'buyer_address', 'offer_amount_wei', 'currency_address', 'status'] as const;

interface ListingRef { id: number; ens_name_id: number; seller_address: string; price_wei: string; currency_address: string; status: ListingStatus }
interface OfferRef { id: number; ens_name_id: number; buyer_address: string; offer_amount_wei: string; currency_address: string; status: OfferStatus }

/**
 * Moves the given listings to `listingTo` and offers to `offerTo` where the automatic table allows
 * it from their current status (and `guard` holds), under the names' locks; refreshes the names'
 * summaries and records the moves.
 */
async function endOrders(
  trx: Executor,
  found: { listings: ListingRef[]; offers: OfferRef[] },
  to: { listing: ListingStatus; offer: OfferStatus; cause: MoveCause; guard?: RawBuilder<boolean>; chain?: ChainLog },
): Promise<CancelResult> {
  const { listings: dueListings, offers: dueOffers } = found;
  if (dueListings.length === 0 && dueOffers.length === 0) return { listings: 0, offers: 0 };
  const names = await lockNames(trx, [...dueListings, ...dueOffers].map((r) => r.ens_name_id));
  const listingFrom = movesInto(LISTING_AUTOMATIC_MOVES, to.listing);
  const offerFrom = movesInto(OFFER_AUTOMATIC_MOVES, to.offer);
  const listings = dueListings.length === 0 ? [] : await trx
    .updateTable('listings')
    .set({ status: to.listing, updated_at: sql`now()` })
    .where('id', 'in', dueListings.map((l) => l.id))
    .where('status', 'in', listingFrom)
    .$if(to.guard !== undefined, (qb) => qb.where(to.guard!))
    .returning('id')
    .execute();
  const offers = dueOffers.length === 0 ? [] : await trx
    .updateTable('offers')
    .set({ status: to.offer, updated_at: sql`now()` })
    .where('id', 'in', dueOffers.map((o) => o.id))
    .where('status', 'in', offerFrom)
    .$if(to.guard !== undefined, (qb) => qb.where(to.guard!))
    .returning('id')
    .execute();
  const movedListings = new Set(listings.map((l) => l.id));
  const movedOffers = new Set(offers.map((o) => o.id));
  const ended = {
    listings: dueListings.filter((l) => movedListings.has(l.id)),
    offers: dueOffers.filter((o) => movedOffers.has(o.id)),
  };
  for (const id of new Set(ended.listings.map((l) => l.ens_name_id))) await refreshListingSummary(trx, id);
  for (const id of new Set(ended.offers.map((o) => o.ens_name_id))) await recalculateHighestOffer(trx, id);
  const chain = to.chain === undefined ? {} : { chain: to.chain };
  await recordMoves(trx, [
    ...ended.listings.map((l) => ({ ...listingMove(l, to.listing, to.cause, names), ...chain })),
    ...ended.offers.map((o) => ({ ...offerMove(o, to.offer, to.cause, names), ...chain })),
  ]);
  return { listings: ended.listings.length, offers: ended.offers.length };
}

function listingMove(l: ListingRef, to: ListingStatus, cause: MoveCause, names: Map<number, LockedName>): ListingMove {
  return {
    order: 'listing', id: l.id, ensNameId: l.ens_name_id, name: names.get(l.ens_name_id)?.name, from: l.status, to, cause,
    seller: l.seller_address, priceWei: l.price_wei, currency: l.currency_address,
  };
}

function offerMove(o: OfferRef, to: OfferStatus, cause: MoveCause, names: Map<number, LockedName>): OfferMove {
  return {
    order: 'offer', id: o.id, ensNameId: o.ens_name_id, name: names.get(o.ens_name_id)?.name, from: o.status, to, cause,
    buyer: o.buyer_address, amountWei: o.offer_amount_wei, currency: o.currency_address, owner: names.get(o.ens_name_id)?.owner_address,
  };
}

const CANCELLED = { listing: 'cancelled', offer: 'rejected', cause: 'chain_cancel' } as const;

/**
 * Orders cancelled on chain (Seaport `OrderCancelled`): listings active/unfunded → cancelled,
 * offers pending/unfunded → rejected (the offer status for a withdrawn offer). Orders in a final
 * status stay as they are. Hashes are matched lower-case. `log`, the cancel's log, goes on the
 * activity events.
 */
export async function cancelOrdersByHash(trx: Executor, orderHashes: readonly string[], log?: ChainLog): Promise<CancelResult> {
  const hashes = [...new Set(orderHashes.map((h) => h.toLowerCase()))];
  if (hashes.length === 0) return { listings: 0, offers: 0 };
  const [listings, offers] = await Promise.all([
    trx.selectFrom('listings').select(LISTING_ROW).where('order_hash', 'in', hashes).orderBy('id').execute(),
    trx.selectFrom('offers').select(OFFER_ROW).where('order_hash', 'in', hashes).orderBy('id').execute(),
  ]);
  return endOrders(trx, { listings, offers }, { ...CANCELLED, chain: log });
}

/** Which of `orderHashes` are listings or offers of our book (lower-case; by the unique order_hash indexes). */
export async function storedOrderHashes(db: Executor, orderHashes: readonly string[]): Promise<Set<string>> {
  const hashes = [...new Set(orderHashes.map((h) => h.toLowerCase()))];
  if (hashes.length === 0) return new Set();
  const rows = await db.selectFrom('listings').select('order_hash').where('order_hash', 'in', hashes)
    .unionAll(db.selectFrom('offers').select('order_hash').where('order_hash', 'in', hashes))
    .execute();
  return new Set(rows.map((r) => r.order_hash));
}

/**
 * Seaport `CounterIncremented(newCounter, offerer)`: every open order of the offerer signed with a
 * lower counter can no longer be filled; listings → cancelled, offers → rejected.
 */
export async function cancelOrdersByCounter(trx: Executor, offerer: string, newCounter: bigint, log?: ChainLog): Promise<CancelResult> {
  const who = offerer.toLowerCase();
  const stale = sql<boolean>`coalesce((order_data->'parameters'->>'counter')::numeric, 0) < ${newCounter.toString()}::numeric`;
  const [listings, offers] = await Promise.all([
    trx.selectFrom('listings').select(LISTING_ROW).where('seller_address', '=', who).where('status', 'in', movesInto(LISTING_AUTOMATIC_MOVES, 'cancelled')).where(stale).orderBy('id').execute(),
    trx.selectFrom('offers').select(OFFER_ROW).where('buyer_address', '=', who).where('status', 'in', movesInto(OFFER_AUTOMATIC_MOVES, 'rejected')).where(stale).orderBy('id').execute(),
  ]);
  return endOrders(trx, { listings, offers }, { ...CANCELLED, chain: log });
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
    trx.selectFrom('listings').select(LISTING_ROW).where('status', '=', status).where('expires_at', '<=', sql<Date>`now()`).orderBy('expires_at').limit(batchSize).execute();
  const offersDue = (status: OfferStatus) =>
    trx.selectFrom('offers').select(OFFER_ROW).where('status', '=', status).where('expires_at', '<=', sql<Date>`now()`).orderBy('expires_at').limit(batchSize).execute();
  const listings = [...(await listingsDue('active')), ...(await listingsDue('unfunded'))];
  const offers = [...(await offersDue('pending')), ...(await offersDue('unfunded'))];
  return endOrders(trx, { listings, offers }, { listing: 'expired', offer: 'expired', cause: 'expiry', guard: sql<boolean>`expires_at <= now()` });
}
