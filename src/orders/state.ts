import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import { notify, type NewNotification } from '../services/notifier.js';
import { amountText, lockName, notExpired, recalculateHighestOffer, refreshListingSummary, type LockedName } from './summaries.js';
import './listings.repository.js';

export * from './summaries.js';
export * from './endings.js';

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
    message: `Your listing of ${name.name} was bought by ${sale.buyer.toLowerCase()} for ${amountText(priceWei, currency)}.`,
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
    message: `Your offer of ${amountText(offer.offer_amount_wei, offer.currency_address)} on ${name.name} was accepted.`,
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
    message: `Your offer of ${amountText(offer.offer_amount_wei, offer.currency_address)} on ${name.name} was withdrawn.`,
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
