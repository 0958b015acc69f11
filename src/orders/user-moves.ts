import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import type { ListingStatus, OfferStatus } from '../db/schema.js';
import { AppError } from '../errors.js';
import { recordMoves, type ListingMove, type OfferMove } from './effects.js';
import { insertListing, type NewListing } from './listings.repository.js';
import { lockListing, lockName, lockOffer } from './locks.js';
import { LISTING_MOVES, movesInto, OFFER_MOVES } from './moves.js';
import { insertOffer, type NewOffer } from './offers.repository.js';
import { UnfundedReason } from './state.js';
import { recalculateHighestOffer, refreshListingSummary } from './summaries.js';

/**
 * The moves users ask for through the API, after the services have checked the signed order.
 * Same locks, tables and effects as the automatic moves (state.ts); rules about who may ask are
 * checked here too, under the lock, against the rows as they are now.
 */

function isPast(date: Date | null): boolean {
  return date !== null && date.getTime() <= Date.now();
}

/**
 * Stores a new listing: the seller's earlier open listings of the name are cancelled (replaced);
 * active listings of anyone else become unfunded (ownership_lost). 400 NOT_OWNER when the seller
 * no longer owns the name.
 */
export async function placeListing(trx: Executor, listing: NewListing): Promise<number> {
  const name = await lockName(trx, listing.ensNameId);
  if (!name || name.owner_address !== listing.seller) throw new AppError('NOT_OWNER', `${name?.name ?? 'The name'} is not owned by ${listing.seller}`);
  const replaced = await trx
    .selectFrom('listings')
    .select(['id', 'status', 'seller_address', 'price_wei', 'currency_address'])
    .where('ens_name_id', '=', name.id)
    .where('seller_address', '=', listing.seller)
    .where('status', 'in', movesInto(LISTING_MOVES, 'cancelled'))
    .forUpdate()
    .execute();
  if (replaced.length > 0) {
    await trx.updateTable('listings').set({ status: 'cancelled', updated_at: sql`now()` }).where('id', 'in', replaced.map((l) => l.id)).execute();
  }
  const displaced = await trx
    .updateTable('listings')
    .set({ status: 'unfunded', unfunded_at: sql`now()`, unfunded_reason: UnfundedReason.OWNERSHIP_LOST, updated_at: sql`now()` })
    .where('ens_name_id', '=', name.id)
    .where('seller_address', '!=', listing.seller)
    .where('status', '=', 'active')
    .returning(['id', 'seller_address', 'price_wei', 'currency_address'])
    .execute();
  const id = await insertListing(trx, listing);
  await refreshListingSummary(trx, name.id);
  const move = (l: { id: number; seller_address: string; price_wei: string; currency_address: string }, from: ListingStatus | null, to: ListingStatus, cause: ListingMove['cause']): ListingMove => ({
    order: 'listing', id: l.id, ensNameId: name.id, name: name.name, from, to, cause, seller: l.seller_address, priceWei: l.price_wei, currency: l.currency_address,
  });
  await recordMoves(trx, [
    ...replaced.map((l) => move(l, l.status, 'cancelled', 'replaced')),
    ...displaced.map((l) => move(l, 'active', 'unfunded', 'ownership')),
    { ...move({ id, seller_address: listing.seller, price_wei: listing.priceWei, currency_address: listing.currency }, null, 'active', 'placed'), replaces: replacedOf(replaced) },
  ]);
  return id;
}

/** The listing a new one updates: the newest of those it replaced (an active one before an unfunded one). */
function replacedOf(replaced: readonly { id: number; status: ListingStatus; price_wei: string; currency_address: string }[]): ListingMove['replaces'] {
  const newest = [...replaced].sort((a, b) => Number(b.status === 'active') - Number(a.status === 'active') || b.id - a.id)[0];
  return newest && { id: newest.id, priceWei: newest.price_wei, currency: newest.currency_address };
}

/**
 * The seller takes a listing off the marketplace: active or unfunded → cancelled (cancelling a
 * cancelled listing again changes nothing). Sold and expired listings are final (409).
 */
export async function cancelListing(trx: Executor, caller: string, listingId: number): Promise<void> {
  const locked = await lockListing(trx, listingId);
  if (!locked) throw new AppError('LISTING_NOT_FOUND', `Listing ${listingId} not found`);
  const { listing, name } = locked;
  if (listing.seller_address !== caller) throw new AppError('FORBIDDEN', 'Only the seller can cancel this listing');
  if (listing.status === 'cancelled') return;
  const current: ListingStatus = isPast(listing.expires_at) ? 'expired' : listing.status;
  if (!LISTING_MOVES[current].includes('cancelled')) {
    throw new AppError('INVALID_STATE', `A ${current} listing cannot be cancelled`, { status: current });
  }
  await trx.updateTable('listings').set({ status: 'cancelled', updated_at: sql`now()` }).where('id', '=', listingId).execute();
  await refreshListingSummary(trx, name.id);
  await recordMoves(trx, [{
    order: 'listing', id: listing.id, ensNameId: name.id, name: name.name, from: listing.status, to: 'cancelled', cause: 'user',
    seller: listing.seller_address, priceWei: listing.price_wei, currency: listing.currency_address,
  }]);
}

/**
 * PUT /listings/:id: under the name's lock the listing must still be the caller's and live (active
 * or unfunded, not past its end time); `place` then stores the re-signed order, and placeListing
 * cancels this listing as the one it replaces, in the caller's transaction.
 */
export async function replaceListing(trx: Executor, caller: string, listingId: number, place: () => Promise<number>): Promise<number> {
  const locked = await lockListing(trx, listingId);
  if (!locked) throw new AppError('LISTING_NOT_FOUND', `Listing ${listingId} not found`);
  const { listing } = locked;
  if (listing.seller_address !== caller) throw new AppError('FORBIDDEN', 'Only the seller can update this listing');
  const current: ListingStatus = isPast(listing.expires_at) ? 'expired' : listing.status;
  if (!LISTING_MOVES[current].includes('cancelled')) throw new AppError('INVALID_STATE', `A ${current} listing cannot be updated`, { status: current });
  return place();
}

/** Stores a new offer, recalculates the name's highest offer and tells its owner (offer_received). */
export async function placeOffer(trx: Executor, offer: NewOffer): Promise<number> {
  const name = await lockName(trx, offer.ensNameId);
  const id = await insertOffer(trx, offer);
  await recalculateHighestOffer(trx, offer.ensNameId);
  await recordMoves(trx, [{
    order: 'offer', id, ensNameId: offer.ensNameId, name: name?.name, from: null, to: 'pending', cause: 'placed',
    buyer: offer.buyer, amountWei: offer.amountWei, currency: offer.currency, owner: name?.owner_address ?? null,
  }]);
  return id;
}

export interface OfferChange {
  status?: OfferStatus;
  offerAmountWei?: string;
  /** The buyer's re-signed order, already checked: replaces the stored one. */
  resigned?: { orderHash: string; orderData: Record<string, unknown>; amountWei: string; expiresAt: Date | null };
}

/**
 * PUT /offers/:id under the name's lock. Roles: `rejected` only by the buyer, `accepted` only by
 * the name's owner, anything else by either. Moves: OFFER_MOVES (409 INVALID_STATE otherwise).
 * The amount changes only on a pending or unfunded offer. The highest offer is recalculated.
 */
export async function updateOffer(trx: Executor, caller: string, offerId: number, change: OfferChange): Promise<void> {
  const locked = await lockOffer(trx, offerId);
  if (!locked) throw new AppError('OFFER_NOT_FOUND', `Offer ${offerId} not found`);
  const { offer, name } = locked;
  const isBuyer = caller === offer.buyer_address;
  const isOwner = name.owner_address !== null && caller === name.owner_address;
  if (change.status === 'rejected' && !isBuyer) throw new AppError('FORBIDDEN', 'Only the buyer can reject (withdraw) an offer');
  if (change.status === 'accepted' && !isOwner) throw new AppError('FORBIDDEN', 'Only the owner of the name can accept an offer');
  if (!isBuyer && !isOwner) throw new AppError('FORBIDDEN', 'Only the buyer or the owner of the name can update this offer');

  const stored = offer.status;
  const current: OfferStatus = (stored === 'pending' || stored === 'unfunded') && isPast(offer.expires_at) ? 'expired' : stored;
  const target: OfferStatus = change.status ?? current;
  if (target !== current && !OFFER_MOVES[current].includes(target)) {
    throw new AppError('INVALID_STATE', `An offer that is ${current} cannot become ${target}`, { status: current, requested: target });
  }
  const { resigned } = change;
  const expiresAt = resigned ? resigned.expiresAt : offer.expires_at;
  if (target === 'pending' && isPast(expiresAt)) {
    throw new AppError('INVALID_STATE', 'The offer has passed its end time and cannot be pending again', { status: current, requested: target });
  }
  const newAmount = resigned?.amountWei ?? change.offerAmountWei;
  const amountChanges = newAmount !== undefined && BigInt(newAmount) !== BigInt(offer.offer_amount_wei);
  if ((amountChanges || resigned) && !(['pending', 'unfunded'] as OfferStatus[]).includes(target)) {
    throw new AppError('INVALID_STATE', `The amount of a${target === 'accepted' || target === 'expired' ? 'n' : ''} ${target} offer cannot change`, { status: target });
  }

  const statusChanges = target !== stored;
  if (statusChanges || amountChanges || resigned) {
    await trx
      .updateTable('offers')
      .set({
        ...(statusChanges ? { status: target } : {}),
        ...(statusChanges && target === 'unfunded' ? { unfunded_at: sql`now()`, unfunded_reason: UnfundedReason.MARKED_BY_USER } : {}),
        ...(statusChanges && stored === 'unfunded' ? { unfunded_at: null, unfunded_reason: null } : {}),
        ...(amountChanges ? { offer_amount_wei: newAmount } : {}),
        ...(resigned ? { order_hash: resigned.orderHash, order_data: JSON.stringify(resigned.orderData), expires_at: resigned.expiresAt, last_validated_at: null } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', offerId)
      .execute();
    await recalculateHighestOffer(trx, name.id);
  }

  const move: OfferMove = {
    order: 'offer', id: offerId, ensNameId: name.id, name: name.name, from: current, to: target, cause: 'user',
    buyer: offer.buyer_address, amountWei: newAmount ?? offer.offer_amount_wei, currency: offer.currency_address, owner: name.owner_address,
    ...(amountChanges ? { amountChange: { previousAmountWei: offer.offer_amount_wei, by: caller, counterpart: isBuyer ? name.owner_address : offer.buyer_address } } : {}),
  };
  if (move.from !== move.to || move.amountChange) await recordMoves(trx, [move]);
}
