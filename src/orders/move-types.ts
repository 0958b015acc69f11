import type { ListingStatus, OfferStatus } from '../db/schema.js';
import type { ChainLog } from '../sync/order-effects.js';

/** What an order move is: the input of recordMoves (effects.ts) and what it derives (notices, activity). */

/** Why an order moved. */
export type MoveCause =
  | 'placed' // a user stored a new order
  | 'user' // the seller, buyer or owner asked (PUT /offers/:id, DELETE /listings/:id)
  | 'replaced' // the seller listed the name again
  | 'expiry' // the end time passed (the sweep)
  | 'funds' // the funds or approval re-check, either way
  | 'ownership' // the name changed owner
  | 'chain_fill' // Seaport OrderFulfilled
  | 'chain_cancel'; // Seaport OrderCancelled or CounterIncremented

interface MoveBase {
  id: number;
  ensNameId: number;
  /** The name (for texts); undefined when not at hand. */
  name: string | undefined;
  cause: MoveCause;
  currency: string;
  /** The log that caused the move (chain cancels and fills, transfers): its activity event carries it. */
  chain?: ChainLog;
}

export interface ListingMove extends MoveBase {
  order: 'listing';
  /** null for a new listing */
  from: ListingStatus | null;
  to: ListingStatus;
  seller: string;
  priceWei: string;
  /** chain fills */
  sale?: { buyer: string; priceWei: string; currency: string; txHash: string | null };
  /** A new listing that replaces the seller's earlier one of the name (an update of the listing). */
  replaces?: { id: number; priceWei: string; currency: string };
}

export interface OfferMove extends MoveBase {
  order: 'offer';
  /** null for a new offer; equal to `to` for a change of amount alone */
  from: OfferStatus | null;
  to: OfferStatus;
  buyer: string;
  amountWei: string;
  /** The name's owner at the move (the recipient of offer_received; who accepted); the seller for a chain fill. */
  owner?: string | null;
  /** A change of amount: the previous amount, who asked, and who should hear of it. */
  amountChange?: { previousAmountWei: string; by: string; counterpart: string | null };
}

export type OrderMove = ListingMove | OfferMove;
