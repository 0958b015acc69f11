import { formatUnits } from 'viem';
import { MAINNET } from '../config.js';
import type { Executor } from '../db/client.js';
import type { ListingStatus, OfferStatus } from '../db/schema.js';
import { ZERO_ADDRESS } from '../lib/address.js';
import { notify, type NewNotification } from '../services/notifier.js';

/**
 * What an order move leaves behind besides the row itself: today the notifications. Every move of
 * the state machine (user request, expiry, funds, ownership, chain fill or cancel) ends in
 * `recordMoves`, inside its transaction, so a new kind of record of moves (an activity feed, a
 * webhook) is one more line there.
 */

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
}

export interface OfferMove extends MoveBase {
  order: 'offer';
  /** null for a new offer; equal to `to` for a change of amount alone */
  from: OfferStatus | null;
  to: OfferStatus;
  buyer: string;
  amountWei: string;
  /** The name's owner when the offer was placed (the recipient of offer_received). */
  owner?: string | null;
  /** A change of amount: the previous amount, who asked, and who should hear of it. */
  amountChange?: { previousAmountWei: string; by: string; counterpart: string | null };
}

export type OrderMove = ListingMove | OfferMove;

/** Writes the side effects of moves that just happened in `trx`. */
export async function recordMoves(trx: Executor, moves: readonly OrderMove[]): Promise<void> {
  if (moves.length === 0) return;
  await notify(trx, moves.flatMap(noticesOf));
}

function noticesOf(move: OrderMove): NewNotification[] {
  const name = move.name ?? 'a name';
  if (move.order === 'listing') {
    if (move.to === 'sold' && move.sale) {
      const { buyer, priceWei, currency, txHash } = move.sale;
      return [{
        recipient: move.seller,
        type: 'listing_sold',
        ensNameId: move.ensNameId,
        title: `${name} sold`,
        message: `Your listing of ${name} was bought by ${buyer.toLowerCase()} for ${amountText(priceWei, currency)}.`,
        metadata: { listingId: move.id, priceWei, currency, buyer: buyer.toLowerCase(), txHash },
      }];
    }
    if (move.to === 'expired' && move.cause === 'expiry') {
      return [{
        recipient: move.seller,
        type: 'listing_expired',
        ensNameId: move.ensNameId,
        title: `Listing of ${name} expired`,
        message: `Your listing of ${name} reached its end time and is no longer for sale.`,
        metadata: { listingId: move.id, priceWei: move.priceWei, currency: move.currency },
      }];
    }
    return [];
  }
  const notices: NewNotification[] = [];
  const amount = { offerId: move.id, amountWei: move.amountWei, currency: move.currency };
  if (move.from === null && move.owner) {
    notices.push({
      recipient: move.owner,
      type: 'offer_received',
      ensNameId: move.ensNameId,
      title: `New offer on ${name}`,
      message: `${move.buyer} offered ${amountText(move.amountWei, move.currency)} for ${name}.`,
      metadata: { ...amount, buyer: move.buyer },
    });
  }
  if (move.from !== move.to && move.to === 'accepted') {
    notices.push({
      recipient: move.buyer,
      type: 'offer_accepted',
      ensNameId: move.ensNameId,
      title: `Offer on ${name} accepted`,
      message: `Your offer of ${amountText(move.amountWei, move.currency)} on ${name} was accepted.`,
      metadata: amount,
    });
  }
  if (move.from !== move.to && move.to === 'rejected' && move.cause === 'user') {
    notices.push({
      recipient: move.buyer,
      type: 'offer_rejected',
      ensNameId: move.ensNameId,
      title: `Offer on ${name} rejected`,
      message: `Your offer of ${amountText(move.amountWei, move.currency)} on ${name} was withdrawn.`,
      metadata: amount,
    });
  }
  if (move.from !== move.to && move.to === 'expired' && move.cause === 'expiry') {
    notices.push({
      recipient: move.buyer,
      type: 'offer_expired',
      ensNameId: move.ensNameId,
      title: `Offer on ${name} expired`,
      message: `Your offer on ${name} reached its end time.`,
      metadata: amount,
    });
  }
  const change = move.amountChange;
  if (change && change.counterpart && change.counterpart !== change.by) {
    notices.push({
      recipient: change.counterpart,
      type: 'offer_updated',
      ensNameId: move.ensNameId,
      title: `Offer on ${name} changed`,
      message: `The offer on ${name} is now ${amountText(move.amountWei, move.currency)}.`,
      metadata: { offerId: move.id, amountWei: move.amountWei, previousAmountWei: change.previousAmountWei, currency: move.currency, by: change.by },
    });
  }
  return notices;
}

const KNOWN_CURRENCIES: Record<string, { symbol: string; decimals: number }> = {
  [ZERO_ADDRESS]: { symbol: 'ETH', decimals: 18 },
  [MAINNET.weth]: { symbol: 'WETH', decimals: 18 },
  [MAINNET.usdc]: { symbol: 'USDC', decimals: 6 },
};

/** An amount for people to read in a notification: `1.5 WETH`, or wei and the token address. */
export function amountText(wei: string | bigint, currency: string): string {
  const known = KNOWN_CURRENCIES[currency.toLowerCase()];
  return known ? `${formatUnits(BigInt(wei), known.decimals)} ${known.symbol}` : `${BigInt(wei).toString()} wei of ${currency.toLowerCase()}`;
}
