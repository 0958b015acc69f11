import type { ListingStatus, OfferStatus } from '../db/schema.js';

/**
 * Every status move of an order, in one table per order kind: what a user may ask for (PUT/DELETE)
 * and what the service does by itself (expiry sweep, funds and ownership re-checks, chain fills
 * and cancels). The functions of state.ts, fills.ts, endings.ts and user-moves.ts are the only writers of a
 * status, and each checks its move here.
 */
export type Actor = 'user' | 'automatic';

type Moves<S extends string> = Readonly<Record<S, readonly S[]>>;

/**
 * The status moves PUT /offers/:id allows (current → requested). Sending the current status again
 * is allowed and changes nothing. accepted and rejected are final; an offer past its end time is
 * expired whatever its stored status says, and can only be withdrawn (rejected) by its buyer.
 */
export const OFFER_MOVES: Moves<OfferStatus> = {
  pending: ['accepted', 'rejected', 'expired', 'unfunded'],
  unfunded: ['pending', 'rejected', 'expired'],
  expired: ['pending', 'rejected'],
  accepted: [],
  rejected: [],
};

/**
 * What happens to an offer without a user asking: funds gone and back (pending ⇄ unfunded), the
 * end time passed (→ expired), cancelled on chain (→ rejected), filled on chain (→ accepted, from
 * any status: the chain is the record).
 */
export const OFFER_AUTOMATIC_MOVES: Moves<OfferStatus> = {
  pending: ['unfunded', 'expired', 'rejected', 'accepted'],
  unfunded: ['pending', 'expired', 'rejected', 'accepted'],
  expired: ['accepted'],
  rejected: ['accepted'],
  accepted: [],
};

/** A seller cancels a live listing (DELETE /listings/:id, or by listing the name again). */
export const LISTING_MOVES: Moves<ListingStatus> = {
  active: ['cancelled'],
  unfunded: ['cancelled'],
  cancelled: [],
  sold: [],
  expired: [],
};

/**
 * Ownership or approval lost and back (active ⇄ unfunded), someone else listed the name (→ unfunded),
 * the end time passed (→ expired), cancelled on chain (→ cancelled), filled on chain (→ sold,
 * from any status but sold: the chain is the record).
 */
export const LISTING_AUTOMATIC_MOVES: Moves<ListingStatus> = {
  active: ['unfunded', 'expired', 'cancelled', 'sold'],
  unfunded: ['active', 'expired', 'cancelled', 'sold'],
  cancelled: ['sold'],
  expired: ['sold'],
  sold: [],
};

export function listingMoveAllowed(actor: Actor, from: ListingStatus, to: ListingStatus): boolean {
  return (actor === 'user' ? LISTING_MOVES : LISTING_AUTOMATIC_MOVES)[from].includes(to);
}

export function offerMoveAllowed(actor: Actor, from: OfferStatus, to: OfferStatus): boolean {
  return (actor === 'user' ? OFFER_MOVES : OFFER_AUTOMATIC_MOVES)[from].includes(to);
}

/** The statuses from which `to` is reachable in a table (the `status IN (…)` guard of a set-based move). */
export function movesInto<S extends string>(table: Moves<S>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => table[from].includes(to));
}
