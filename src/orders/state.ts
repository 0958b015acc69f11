import { sql } from 'kysely';
import { transactionOf, type Executor } from '../db/client.js';
import { setLastSale } from '../db/repositories/ens-names.repository.js';
import { recordActivity } from '../history/index.js';
import { bumpTrend } from '../trends/index.js';
import { recordMoves, type ListingMove, type OfferMove } from './effects.js';
import { lockListing, lockName, lockOffer } from './locks.js';
import { listingMoveAllowed, offerMoveAllowed } from './moves.js';
import { notExpired, recalculateHighestOffer, refreshListingSummary } from './summaries.js';

/**
 * The automatic moves of single orders: funds and approval lost and back, ownership changes, and
 * fills from the chain. The API's moves are in user-moves.ts, the set-based endings (chain
 * cancels, the expiry sweep) in endings.ts; all check their move in moves.ts, take the locks of
 * locks.ts, refresh the name's summaries and end in recordMoves (effects.ts). Each runs inside the
 * caller's transaction (`trx`).
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

type LockedListing = NonNullable<Awaited<ReturnType<typeof lockListing>>>;
type LockedOffer = NonNullable<Awaited<ReturnType<typeof lockOffer>>>;

function isPast(expiresAt: Date | null, now = new Date()): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}

function listingMove({ listing, name }: LockedListing, to: ListingMove['to'], cause: ListingMove['cause']): ListingMove {
  return {
    order: 'listing', id: listing.id, ensNameId: name.id, name: name.name, from: listing.status, to, cause,
    seller: listing.seller_address, priceWei: listing.price_wei, currency: listing.currency_address,
  };
}

function offerMove({ offer, name }: LockedOffer, to: OfferMove['to'], cause: OfferMove['cause']): OfferMove {
  return {
    order: 'offer', id: offer.id, ensNameId: name.id, name: name.name, from: offer.status, to, cause,
    buyer: offer.buyer_address, amountWei: offer.offer_amount_wei, currency: offer.currency_address, owner: name.owner_address,
  };
}

/**
 * active → unfunded with `reason` (and `unfunded_at` now). Returns false (and changes nothing)
 * when the listing is missing or not active.
 */
export async function markListingUnfunded(trx: Executor, listingId: number, reason: UnfundedReason | string): Promise<boolean> {
  const locked = await lockListing(trx, listingId);
  if (!locked || !listingMoveAllowed('automatic', locked.listing.status, 'unfunded')) return false;
  await trx
    .updateTable('listings')
    .set({ status: 'unfunded', unfunded_at: sql`now()`, unfunded_reason: reason, last_validated_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', listingId)
    .execute();
  await refreshListingSummary(trx, locked.name.id);
  await recordMoves(trx, [listingMove(locked, 'unfunded', 'funds')]);
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
    await recordMoves(trx, [listingMove(locked, 'expired', 'funds')]);
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
  await recordMoves(trx, [listingMove(locked, 'active', 'funds')]);
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
  const lost = await trx
    .updateTable('listings')
    .set({ status: 'unfunded', unfunded_at: sql`now()`, unfunded_reason: UnfundedReason.OWNERSHIP_LOST, updated_at: sql`now()` })
    .where('ens_name_id', '=', ensNameId)
    .where('status', '=', 'active')
    .$if(owner !== null, (qb) => qb.where('seller_address', '!=', owner!))
    .returning(['id', 'seller_address', 'price_wei', 'currency_address'])
    .execute();
  const moves: ListingMove[] = lost.map((l) => ({
    order: 'listing', id: l.id, ensNameId, name: name.name, from: 'active', to: 'unfunded', cause: 'ownership',
    seller: l.seller_address, priceWei: l.price_wei, currency: l.currency_address,
  }));
  if (owner !== null) {
    const back = await trx
      .selectFrom('listings')
      .select(['id', 'seller_address', 'price_wei', 'currency_address'])
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
      moves.push({
        order: 'listing', id: back.id, ensNameId, name: name.name, from: 'unfunded', to: 'active', cause: 'ownership',
        seller: back.seller_address, priceWei: back.price_wei, currency: back.currency_address,
      });
    }
  }
  await refreshListingSummary(trx, ensNameId);
  await recordMoves(trx, moves);
}

export interface SaleRecord {
  /** Who received the name. */
  buyer: string;
  /** Who gave it (for offers: the owner who accepted); defaults to the listing's seller. */
  seller?: string;
  txHash?: string | null;
  logIndex?: number | null;
  block?: number | null;
  soldAt?: Date;
  /** Defaults to the order's price/amount and currency. */
  priceWei?: string;
  currency?: string;
}

async function recordSale(trx: Executor, ensNameId: number, row: { seller: string; buyer: string; priceWei: string; currency: string; orderHash: string; listingId: number | null; offerId: number | null; txHash: string | null; logIndex: number | null; block?: number | null; soldAt: Date }): Promise<void> {
  const inserted = await trx
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
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    await recordActivity(trx, {
      type: 'sale', ensNameId, actor: row.seller, counterparty: row.buyer, priceWei: row.priceWei, currency: row.currency, platform: 'grails',
      txHash: row.txHash, logIndex: row.logIndex, block: row.block ?? null, at: row.soldAt,
      metadata: { order_hash: row.orderHash, ...(row.listingId !== null ? { listing_id: row.listingId } : { offer_id: row.offerId }) },
    });
    await bumpTrend(transactionOf(trx), 'sales', ensNameId, row.soldAt, 1);
  }
  await setLastSale(trx, ensNameId, { soldAt: row.soldAt, priceWei: row.priceWei, currency: row.currency.toLowerCase() });
}

/**
 * A listing was fulfilled: status sold, a `sales` row (unique on tx hash and log index, so a
 * replayed event adds nothing), the name's last sale, its listing summary, and a `listing_sold`
 * notification to the seller. Returns false when the listing is missing or already sold. The
 * change of owner is the caller's to apply (onOwnershipChanged) from the transfer it saw.
 */
export async function markListingSold(trx: Executor, listingId: number, sale: SaleRecord): Promise<boolean> {
  const locked = await lockListing(trx, listingId);
  if (!locked || !listingMoveAllowed('automatic', locked.listing.status, 'sold')) return false;
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
    block: sale.block ?? null,
    soldAt: sale.soldAt ?? new Date(),
  });
  await refreshListingSummary(trx, name.id);
  await recordMoves(trx, [{ ...listingMove(locked, 'sold', 'chain_fill'), sale: { buyer: sale.buyer, priceWei, currency, txHash: sale.txHash ?? null } }]);
  return true;
}

/**
 * An offer was fulfilled: status accepted with an `offer_accepted` notification to the buyer when
 * it was not accepted yet; with `sale`, a `sales` row and the name's last sale (idempotent on tx
 * hash and log index). Recalculates the highest offer. Returns false when the offer is missing.
 */
export async function markOfferAccepted(trx: Executor, offerId: number, sale?: SaleRecord & { seller: string }): Promise<boolean> {
  const locked = await lockOffer(trx, offerId);
  if (!locked) return false;
  const { offer, name } = locked;
  const moves = offerMoveAllowed('automatic', offer.status, 'accepted');
  if (moves) {
    await trx.updateTable('offers').set({ status: 'accepted', unfunded_at: null, unfunded_reason: null, updated_at: sql`now()` }).where('id', '=', offerId).execute();
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
      block: sale.block ?? null,
      soldAt: sale.soldAt ?? new Date(),
    });
  }
  await recalculateHighestOffer(trx, name.id);
  if (moves) await recordMoves(trx, [{ ...offerMove(locked, 'accepted', 'chain_fill'), owner: sale?.seller.toLowerCase() ?? name.owner_address }]);
  return true;
}

/**
 * pending → unfunded with `reason`; returns false when the offer is missing or not pending.
 * Recalculates the highest offer.
 */
export async function markOfferUnfunded(trx: Executor, offerId: number, reason: UnfundedReason | string): Promise<boolean> {
  const locked = await lockOffer(trx, offerId);
  if (!locked || !offerMoveAllowed('automatic', locked.offer.status, 'unfunded')) return false;
  await trx
    .updateTable('offers')
    .set({ status: 'unfunded', unfunded_at: sql`now()`, unfunded_reason: reason, last_validated_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', offerId)
    .execute();
  await recalculateHighestOffer(trx, locked.name.id);
  await recordMoves(trx, [offerMove(locked, 'unfunded', 'funds')]);
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
  await recordMoves(trx, [offerMove(locked, expired ? 'expired' : 'pending', 'funds')]);
  return !expired;
}
