import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import type { ListingStatus, OfferStatus } from '../db/schema.js';
import { notify, type NewNotification } from './notifier.js';
import '../db/repositories/listings.repository.js';

/**
 * Every status move of listings and offers that is not a user's own request happens here, so the
 * API, the jobs and the chain sync apply the same rules. Each function runs inside the caller's
 * transaction (`trx`) and keeps the name's summaries (`highest_offer_*`, `listing_*` on
 * ens_names) and notifications consistent with the move.
 *
 * Lock order (deadlock avoidance): the ens_names row first (FOR NO KEY UPDATE), then the rows of
 * its listings and offers. Every function here follows it; a caller that locks rows itself must too.
 *
 * Statuses and what moves them:
 *   listing: active → sold (fulfilled) | cancelled (seller, replaced, on-chain cancel) | expired
 *            (end time passed) | unfunded (ownership lost, not approved); unfunded → active (seller
 *            owns and approved again, not expired) | expired | cancelled | sold. sold, cancelled
 *            and expired are final.
 *   offer:   see OfferService for the moves users make; automatic ones: pending/unfunded → expired,
 *            pending ⇄ unfunded (funds), pending/unfunded → rejected (on-chain cancel),
 *            → accepted (fulfilled).
 */

/** Reasons written to `unfunded_reason`. Only the automatic ones are ever undone automatically. */
export const UnfundedReason = {
  OWNERSHIP_LOST: 'ownership_lost',
  NOT_APPROVED: 'not_approved',
  INSUFFICIENT_BALANCE: 'insufficient_balance',
  INSUFFICIENT_ALLOWANCE: 'insufficient_allowance',
  /** Set by a buyer or owner through PUT /offers/:id; only a user moves it back. */
  MARKED_BY_USER: 'marked_by_user',
} as const;
export type UnfundedReason = (typeof UnfundedReason)[keyof typeof UnfundedReason];

/** Reasons the re-check job (or the chain sync) may clear when the cause is gone. */
export const AUTOMATIC_UNFUNDED_REASONS: readonly string[] = [
  UnfundedReason.OWNERSHIP_LOST,
  UnfundedReason.NOT_APPROVED,
  UnfundedReason.INSUFFICIENT_BALANCE,
  UnfundedReason.INSUFFICIENT_ALLOWANCE,
];

const notExpired = sql<boolean>`(expires_at IS NULL OR expires_at > now())`;

export interface LockedName {
  id: number;
  name: string;
  owner_address: string | null;
}

/** Locks one name row (FOR NO KEY UPDATE) and returns it; undefined when it does not exist. */
export async function lockName(trx: Executor, ensNameId: number): Promise<LockedName | undefined> {
  return trx.selectFrom('ens_names').select(['id', 'name', 'owner_address']).where('id', '=', ensNameId).forNoKeyUpdate().executeTakeFirst();
}

/** Locks several name rows in id order (the order every multi-name writer uses). */
export async function lockNames(trx: Executor, ensNameIds: Iterable<number>): Promise<Map<number, LockedName>> {
  const ids = [...new Set(ensNameIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('ens_names').select(['id', 'name', 'owner_address']).where('id', 'in', ids).orderBy('id').forNoKeyUpdate().execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Sets the name's highest offer (amount, currency, offer id) from its pending offers that have not
 * passed their end time; clears it when there is none. Locks the name row first, so concurrent
 * recalculations of one name serialise and the last one sees every committed change. Amounts are
 * compared as numbers (numeric), ties go to the earliest offer.
 */
export async function recalculateHighestOffer(trx: Executor, ensNameId: number): Promise<void> {
  if (!(await lockName(trx, ensNameId))) return;
  const best = await trx
    .selectFrom('offers')
    .select(['id', 'offer_amount_wei', 'currency_address'])
    .where('ens_name_id', '=', ensNameId)
    .where('status', '=', 'pending')
    .where(notExpired)
    .orderBy('offer_amount_wei', 'desc')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  await trx
    .updateTable('ens_names')
    .set({ highest_offer_wei: best?.offer_amount_wei ?? null, highest_offer_currency: best?.currency_address ?? null, highest_offer_id: best?.id ?? null, updated_at: sql`now()` })
    .where('id', '=', ensNameId)
    .where(sql<boolean>`(highest_offer_id, highest_offer_wei, highest_offer_currency) IS DISTINCT FROM (${best?.id ?? null}::bigint, ${best?.offer_amount_wei ?? null}::numeric, ${best?.currency_address ?? null}::text)`)
    .execute();
}

/**
 * Sets `listing_price_wei`, `listing_currency` and `listing_created_at` of the name from its newest
 * active listing that has not passed its end time; clears them when there is none.
 */
export async function refreshListingSummary(trx: Executor, ensNameId: number): Promise<void> {
  if (!(await lockName(trx, ensNameId))) return;
  const current = await trx
    .selectFrom('listings')
    .select(['price_wei', 'currency_address', 'created_at'])
    .where('ens_name_id', '=', ensNameId)
    .where('status', '=', 'active')
    .where(notExpired)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  await trx
    .updateTable('ens_names')
    .set({ listing_price_wei: current?.price_wei ?? null, listing_currency: current?.currency_address ?? null, listing_created_at: current?.created_at ?? null, updated_at: sql`now()` })
    .where('id', '=', ensNameId)
    .where(sql<boolean>`(listing_price_wei, listing_currency, listing_created_at) IS DISTINCT FROM (${current?.price_wei ?? null}::numeric, ${current?.currency_address ?? null}::text, ${current?.created_at ?? null}::timestamptz)`)
    .execute();
}

const LISTING_COLUMNS = ['id', 'ens_name_id', 'seller_address', 'price_wei', 'currency_address', 'order_hash', 'status', 'expires_at'] as const;
const OFFER_COLUMNS = ['id', 'ens_name_id', 'buyer_address', 'offer_amount_wei', 'currency_address', 'order_hash', 'status', 'expires_at'] as const;

async function lockListing(trx: Executor, listingId: number) {
  const ref = await trx.selectFrom('listings').select('ens_name_id').where('id', '=', listingId).executeTakeFirst();
  if (!ref) return undefined;
  const name = await lockName(trx, ref.ens_name_id);
  const listing = await trx.selectFrom('listings').select(LISTING_COLUMNS).where('id', '=', listingId).forUpdate().executeTakeFirst();
  return name && listing ? { name, listing } : undefined;
}

async function lockOffer(trx: Executor, offerId: number) {
  const ref = await trx.selectFrom('offers').select('ens_name_id').where('id', '=', offerId).executeTakeFirst();
  if (!ref) return undefined;
  const name = await lockName(trx, ref.ens_name_id);
  const offer = await trx.selectFrom('offers').select(OFFER_COLUMNS).where('id', '=', offerId).forUpdate().executeTakeFirst();
  return name && offer ? { name, offer } : undefined;
}

function isPast(expiresAt: Date | null, now = new Date()): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}

/**
 * active → unfunded with `reason` (and `unfunded_at` now). Returns false (and changes nothing)
 * when the listing is missing or not active.
 */
export async function markListingUnfunded(trx: Executor, listingId: number, reason: UnfundedReason | string): Promise<boolean> {
  const locked = await lockListing(trx, listingId);
  if (!locked || locked.listing.status !== 'active') return false;
  await trx
    .updateTable('listings')
    .set({ status: 'unfunded', unfunded_at: sql`now()`, unfunded_reason: reason, last_validated_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', listingId)
    .execute();
  await refreshListingSummary(trx, locked.name.id);
  return true;
}

/**
 * unfunded → active, clearing `unfunded_at`/`unfunded_reason`, when the listing has not passed its
 * end time, its seller is the name's recorded owner and the seller has no other active listing of
 * the name. A listing past its end time becomes expired instead. Returns true when it is active again.
 */
export async function restoreListing(trx: Executor, listingId: number): Promise<boolean> {
  const locked = await lockListing(trx, listingId);
  if (!locked || locked.listing.status !== 'unfunded') return false;
  const { listing, name } = locked;
  if (isPast(listing.expires_at)) {
    await trx.updateTable('listings').set({ status: 'expired', updated_at: sql`now()` }).where('id', '=', listingId).execute();
    return false;
  }
  if (name.owner_address !== null && name.owner_address !== listing.seller_address) return false;
  const other = await trx
    .selectFrom('listings')
    .select('id')
    .where('ens_name_id', '=', listing.ens_name_id)
    .where('seller_address', '=', listing.seller_address)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (other) return false;
  await trx
    .updateTable('listings')
    .set({ status: 'active', unfunded_at: null, unfunded_reason: null, last_validated_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', listingId)
    .execute();
  await refreshListingSummary(trx, name.id);
  return true;
}

/**
 * Records the name's new owner (`ens_names.owner_address`, lower-cased; null for none) and moves
 * its listings: active listings of anyone else become unfunded (`ownership_lost`); the new owner's
 * newest listing that was unfunded for `ownership_lost` and has not passed its end time becomes
 * active again. Idempotent: calling it again with the same owner changes nothing.
 */
export async function onOwnershipChanged(trx: Executor, ensNameId: number, newOwner: string | null): Promise<void> {
  const owner = newOwner?.toLowerCase() ?? null;
  const name = await lockName(trx, ensNameId);
  if (!name) return;
  if (name.owner_address !== owner) {
    await trx.updateTable('ens_names').set({ owner_address: owner, updated_at: sql`now()` }).where('id', '=', ensNameId).execute();
  }
  await trx
    .updateTable('listings')
    .set({ status: 'unfunded', unfunded_at: sql`now()`, unfunded_reason: UnfundedReason.OWNERSHIP_LOST, updated_at: sql`now()` })
    .where('ens_name_id', '=', ensNameId)
    .where('status', '=', 'active')
    .$if(owner !== null, (qb) => qb.where('seller_address', '!=', owner!))
    .execute();
  if (owner !== null) {
    const back = await trx
      .selectFrom('listings')
      .select('id')
      .where('ens_name_id', '=', ensNameId)
      .where('seller_address', '=', owner)
      .where('status', '=', 'unfunded')
      .where('unfunded_reason', '=', UnfundedReason.OWNERSHIP_LOST)
      .where(notExpired)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const active = await trx.selectFrom('listings').select('id').where('ens_name_id', '=', ensNameId).where('seller_address', '=', owner).where('status', '=', 'active').executeTakeFirst();
    if (back && !active) {
      await trx
        .updateTable('listings')
        .set({ status: 'active', unfunded_at: null, unfunded_reason: null, updated_at: sql`now()` })
        .where('id', '=', back.id)
        .execute();
    }
  }
  await refreshListingSummary(trx, ensNameId);
}

export interface SaleRecord {
  /** Who received the name. */
  buyer: string;
  /** Who gave it (for offers: the owner who accepted); defaults to the listing's seller. */
  seller?: string;
  txHash?: string | null;
  logIndex?: number | null;
  soldAt?: Date;
  /** Defaults to the order's price/amount and currency. */
  priceWei?: string;
  currency?: string;
}

async function recordSale(trx: Executor, ensNameId: number, row: { seller: string; buyer: string; priceWei: string; currency: string; orderHash: string; listingId: number | null; offerId: number | null; txHash: string | null; logIndex: number | null; soldAt: Date; source?: string }): Promise<void> {
  await trx
    .insertInto('sales')
    .values({
      ens_name_id: ensNameId,
      seller_address: row.seller.toLowerCase(),
      buyer_address: row.buyer.toLowerCase(),
      price_wei: row.priceWei,
      currency_address: row.currency.toLowerCase(),
      order_hash: row.orderHash,
      listing_id: row.listingId,
      offer_id: row.offerId,
      tx_hash: row.txHash,
      log_index: row.logIndex,
      sold_at: row.soldAt,
    })
    .onConflict((oc) => oc.columns(['tx_hash', 'log_index']).doNothing())
    .execute();
  await trx
    .updateTable('ens_names')
    .set({ last_sale_date: row.soldAt, last_sale_price_wei: row.priceWei, last_sale_currency: row.currency.toLowerCase(), updated_at: sql`now()` })
    .where('id', '=', ensNameId)
    .where((eb) => eb.or([eb('last_sale_date', 'is', null), eb('last_sale_date', '<=', row.soldAt)]))
    .execute();
}

/**
 * A listing was fulfilled: status sold, a `sales` row (unique on tx hash and log index, so a
 * replayed event adds nothing), the name's last sale, its listing summary, and a `listing_sold`
 * notification to the seller. Returns false when the listing is missing or already sold. The
 * change of owner is the caller's to apply (onOwnershipChanged) from the transfer it saw.
 */
export async function markListingSold(trx: Executor, listingId: number, sale: SaleRecord): Promise<boolean> {
  const locked = await lockListing(trx, listingId);
  if (!locked || locked.listing.status === 'sold') return false;
  const { listing, name } = locked;
  await trx.updateTable('listings').set({ status: 'sold', updated_at: sql`now()` }).where('id', '=', listingId).execute();
  const priceWei = sale.priceWei ?? listing.price_wei;
  const currency = sale.currency ?? listing.currency_address;
  await recordSale(trx, name.id, {
    seller: sale.seller ?? listing.seller_address,
    buyer: sale.buyer,
    priceWei,
    currency,
    orderHash: listing.order_hash,
    listingId,
    offerId: null,
    txHash: sale.txHash ?? null,
    logIndex: sale.logIndex ?? null,
    soldAt: sale.soldAt ?? new Date(),
  });
  await refreshListingSummary(trx, name.id);
  await notify(trx, {
    recipient: listing.seller_address,
    type: 'listing_sold',
    ensNameId: name.id,
    title: `${name.name} sold`,
    message: `Your listing of ${name.name} was bought by ${sale.buyer.toLowerCase()}.`,
    metadata: { listingId, priceWei, currency, buyer: sale.buyer.toLowerCase(), txHash: sale.txHash ?? null },
  });
  return true;
}

/** The `offer_accepted` notification to the buyer (also used by PUT /offers/:id). */
export function offerAcceptedNotice(offer: { id: number; buyer_address: string; offer_amount_wei: string; currency_address: string }, name: LockedName): NewNotification {
  return {
    recipient: offer.buyer_address,
    type: 'offer_accepted',
    ensNameId: name.id,
    title: `Offer on ${name.name} accepted`,
    message: `Your offer on ${name.name} was accepted.`,
    metadata: { offerId: offer.id, amountWei: offer.offer_amount_wei, currency: offer.currency_address },
  };
}

/** The `offer_rejected` notification to the buyer (also used by PUT /offers/:id). */
export function offerRejectedNotice(offer: { id: number; buyer_address: string; offer_amount_wei: string; currency_address: string }, name: LockedName): NewNotification {
  return {
    recipient: offer.buyer_address,
    type: 'offer_rejected',
    ensNameId: name.id,
    title: `Offer on ${name.name} rejected`,
    message: `Your offer on ${name.name} was rejected or cancelled.`,
    metadata: { offerId: offer.id, amountWei: offer.offer_amount_wei, currency: offer.currency_address },
  };
}

/**
 * An offer was fulfilled (or accepted): status accepted with an `offer_accepted` notification to
 * the buyer when it was not accepted yet; with `sale`, a `sales` row and the name's last sale
 * (idempotent on tx hash and log index). Recalculates the highest offer. Returns false when the
 * offer is missing.
 */
export async function markOfferAccepted(trx: Executor, offerId: number, sale?: SaleRecord & { seller: string }): Promise<boolean> {
  const locked = await lockOffer(trx, offerId);
  if (!locked) return false;
  const { offer, name } = locked;
  if (offer.status !== 'accepted') {
    await trx.updateTable('offers').set({ status: 'accepted', unfunded_at: null, unfunded_reason: null, updated_at: sql`now()` }).where('id', '=', offerId).execute();
    await notify(trx, offerAcceptedNotice(offer, name));
  }
  if (sale) {
    await recordSale(trx, name.id, {
      seller: sale.seller,
      buyer: sale.buyer ?? offer.buyer_address,
      priceWei: sale.priceWei ?? offer.offer_amount_wei,
      currency: sale.currency ?? offer.currency_address,
      orderHash: offer.order_hash,
      listingId: null,
      offerId,
      txHash: sale.txHash ?? null,
      logIndex: sale.logIndex ?? null,
      soldAt: sale.soldAt ?? new Date(),
    });
  }
  await recalculateHighestOffer(trx, name.id);
  return true;
}

/**
 * pending → unfunded with `reason`; returns false when the offer is missing or not pending.
 * Recalculates the highest offer.
 */
export async function markOfferUnfunded(trx: Executor, offerId: number, reason: UnfundedReason | string): Promise<boolean> {
  const locked = await lockOffer(trx, offerId);
  if (!locked || locked.offer.status !== 'pending') return false;
  await trx
    .updateTable('offers')
    .set({ status: 'unfunded', unfunded_at: sql`now()`, unfunded_reason: reason, last_validated_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', offerId)
    .execute();
  await recalculateHighestOffer(trx, locked.name.id);
  return true;
}

/**
 * unfunded → pending (clearing the reason) when the offer has not passed its end time; past it,
 * the offer becomes expired. Returns true when pending again. Recalculates the highest offer.
 */
export async function restoreOffer(trx: Executor, offerId: number): Promise<boolean> {
  const locked = await lockOffer(trx, offerId);
  if (!locked || locked.offer.status !== 'unfunded') return false;
  const expired = isPast(locked.offer.expires_at);
  await trx
    .updateTable('offers')
    .set(expired
      ? { status: 'expired', updated_at: sql`now()` }
      : { status: 'pending', unfunded_at: null, unfunded_reason: null, last_validated_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', offerId)
    .execute();
  await recalculateHighestOffer(trx, locked.name.id);
  return !expired;
}

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

/**
 * Set-based rebuild of every name's `highest_offer_*` and `listing_*` columns (seed and bulk
 * loaders, after writing orders directly). Same rules as recalculateHighestOffer and
 * refreshListingSummary.
 */
export async function refreshAllMarketSummaries(db: Executor): Promise<void> {
  await sql`
    WITH best AS (
      SELECT DISTINCT ON (ens_name_id) ens_name_id, id, offer_amount_wei, currency_address
      FROM offers WHERE status = 'pending' AND (expires_at IS NULL OR expires_at > now())
      ORDER BY ens_name_id, offer_amount_wei DESC, created_at ASC, id ASC
    )
    UPDATE ens_names n SET highest_offer_wei = b.offer_amount_wei, highest_offer_currency = b.currency_address, highest_offer_id = b.id
    FROM best b
    WHERE n.id = b.ens_name_id
      AND (n.highest_offer_id, n.highest_offer_wei, n.highest_offer_currency) IS DISTINCT FROM (b.id, b.offer_amount_wei::numeric, b.currency_address::text)
  `.execute(db);
  await sql`
    UPDATE ens_names n SET highest_offer_wei = NULL, highest_offer_currency = NULL, highest_offer_id = NULL
    WHERE n.highest_offer_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM offers o WHERE o.ens_name_id = n.id AND o.status = 'pending' AND (o.expires_at IS NULL OR o.expires_at > now()))
  `.execute(db);
  await sql`
    WITH cur AS (
      SELECT DISTINCT ON (ens_name_id) ens_name_id, price_wei, currency_address, created_at
      FROM listings WHERE status = 'active' AND (expires_at IS NULL OR expires_at > now())
      ORDER BY ens_name_id, created_at DESC, id DESC
    )
    UPDATE ens_names n SET listing_price_wei = c.price_wei, listing_currency = c.currency_address, listing_created_at = c.created_at
    FROM cur c
    WHERE n.id = c.ens_name_id
      AND (n.listing_price_wei, n.listing_currency, n.listing_created_at) IS DISTINCT FROM (c.price_wei::numeric, c.currency_address::text, c.created_at)
  `.execute(db);
  await sql`
    UPDATE ens_names n SET listing_price_wei = NULL, listing_currency = NULL, listing_created_at = NULL
    WHERE n.listing_created_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM listings l WHERE l.ens_name_id = n.id AND l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now()))
  `.execute(db);
}
