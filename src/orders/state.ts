import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import type { ChainLog } from '../sync/order-effects.js';
import { recordMoves, type ListingMove, type OfferMove } from './effects.js';
import { lockListing, lockName, lockOffer } from './locks.js';
import { listingMoveAllowed, offerMoveAllowed } from './moves.js';
import { notExpired, recalculateHighestOffer, refreshListingSummary } from './summaries.js';

/**
 * The automatic moves of single orders: funds and approval lost and back, ownership changes (fills
 * from the chain are in fills.ts). The API's moves are in user-moves.ts, the set-based endings (chain
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

export type LockedListing = NonNullable<Awaited<ReturnType<typeof lockListing>>>;
export type LockedOffer = NonNullable<Awaited<ReturnType<typeof lockOffer>>>;

function isPast(expiresAt: Date | null, now = new Date()): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}

export function listingMove({ listing, name }: LockedListing, to: ListingMove['to'], cause: ListingMove['cause']): ListingMove {
  return {
    order: 'listing', id: listing.id, ensNameId: name.id, name: name.name, from: listing.status, to, cause,
    seller: listing.seller_address, priceWei: listing.price_wei, currency: listing.currency_address,
  };
}

export function offerMove({ offer, name }: LockedOffer, to: OfferMove['to'], cause: OfferMove['cause']): OfferMove {
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
 * active again. Idempotent: calling it again with the same owner changes nothing. `log`, the chain
 * event that moved the name, goes on the moves' activity events.
 */
export async function onOwnershipChanged(trx: Executor, ensNameId: number, newOwner: string | null, log?: ChainLog): Promise<void> {
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
    seller: l.seller_address, priceWei: l.price_wei, currency: l.currency_address, ...(log ? { chain: log } : {}),
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
        seller: back.seller_address, priceWei: back.price_wei, currency: back.currency_address, ...(log ? { chain: log } : {}),
      });
    }
  }
  await refreshListingSummary(trx, ensNameId);
  await recordMoves(trx, moves);
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
