import { formatUnits } from 'viem';
import { transactionOf, type Executor } from '../db/client.js';
import type { OfferStatus } from '../db/schema.js';
import { knownCurrency } from '../lib/currencies.js';
import { recordActivity } from '../history/index.js';
import { bumpTrends } from '../trends/index.js';
import { activityOfMoves } from './activity.js';
import type { OfferMove, OrderMove } from './move-types.js';
import { notify, notifyWatchers, type NewNotification, type NotificationType, type WatcherNotice } from '../services/notifier.js';

/**
 * What an order move leaves behind besides the row itself: today the notifications, the activity
 * log (activity.ts) and the offers and listings trend counters. Every move of the state machine (user request,
 * expiry, funds, ownership, chain fill or cancel) ends in `recordMoves`, inside its transaction,
 * so a new kind of record of moves (a webhook) is one more line there.
 */

export type { ListingMove, MoveCause, OfferMove, OrderMove } from './move-types.js';

/**
 * Writes the side effects of moves that just happened in `trx`: notices (to the parties, and to the
 * watchers of the name whose flags ask for them), activity events, and the offers and listings
 * trend counters for each new offer and listing.
 */
export async function recordMoves(trx: Executor, moves: readonly OrderMove[]): Promise<void> {
  if (moves.length === 0) return;
  await notify(trx, moves.flatMap(noticesOf));
  await notifyWatchers(trx, moves.flatMap(watcherNoticesOf));
  await recordActivity(trx, activityOfMoves(moves));
  const now = new Date();
  const placed = moves.filter((m) => m.from === null);
  await bumpTrends(transactionOf(trx), placed.map((m) => ({ metric: m.order === 'offer' ? 'offers' : 'listings', nameId: m.ensNameId, at: now, delta: 1 })));
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
  const rule = OFFER_NOTICES[move.to];
  if (rule && move.from !== move.to && rule.applies(move)) {
    const recipient = rule.recipient(move);
    if (recipient) {
      notices.push({
        recipient,
        type: rule.type,
        ensNameId: move.ensNameId,
        title: rule.title(name),
        message: rule.message(move, name),
        metadata: { offerId: move.id, amountWei: move.amountWei, currency: move.currency, ...rule.metadata?.(move) },
      });
    }
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

/**
 * What a sale by a Seaport order outside our book leaves behind besides the sync's sale row and
 * activity event: the watchers' `sale` notice, as for a sale of our book.
 */
export async function recordForeignSale(
  trx: Executor, sale: { ensNameId: number; seller: string; buyer: string; priceWei: string; currency: string; txHash: string },
): Promise<void> {
  const row = await trx.selectFrom('ens_names').select('name').where('id', '=', sale.ensNameId).executeTakeFirst();
  const name = row?.name ?? 'A name you watch';
  await notifyWatchers(trx, [{
    ensNameId: sale.ensNameId, type: 'sale', flag: 'sale', exclude: [sale.seller, sale.buyer],
    title: `${name} sold`, message: `${name} sold for ${amountText(sale.priceWei, sale.currency)}.`,
    metadata: { priceWei: sale.priceWei, currency: sale.currency, sellerAddress: sale.seller.toLowerCase(), buyerAddress: sale.buyer.toLowerCase(), txHash: sale.txHash },
  }]);
}

/**
 * What the watchers of the name hear of a move: a new listing (a re-signed listing at a lower
 * price is a price drop instead; at the same or a higher price, nothing), a new offer, a sale (a
 * listing bought or an offer accepted). The parties themselves are left out.
 */
function watcherNoticesOf(move: OrderMove): WatcherNotice[] {
  const name = move.name ?? 'A name you watch';
  const base = { ensNameId: move.ensNameId };
  if (move.order === 'listing') {
    if (move.from === null && move.to === 'active') {
      const metadata = { listingId: move.id, priceWei: move.priceWei, currency: move.currency, sellerAddress: move.seller };
      if (move.replaces) {
        if (BigInt(move.priceWei) >= BigInt(move.replaces.priceWei) || move.replaces.currency !== move.currency) return [];
        return [{
          ...base, type: 'price_change', flag: 'price_change', exclude: [move.seller],
          title: `${name} price dropped`,
          message: `${name} is now listed for ${amountText(move.priceWei, move.currency)} (was ${amountText(move.replaces.priceWei, move.replaces.currency)}).`,
          metadata: { ...metadata, previousPriceWei: move.replaces.priceWei },
        }];
      }
      return [{
        ...base, type: 'new_listing', flag: 'listing', exclude: [move.seller],
        title: `${name} listed`, message: `${name} is listed for ${amountText(move.priceWei, move.currency)}.`, metadata,
      }];
    }
    if (move.to === 'sold' && move.from !== 'sold' && move.sale) {
      const { buyer, priceWei, currency, txHash } = move.sale;
      return [{
        ...base, type: 'sale', flag: 'sale', exclude: [move.seller, buyer],
        title: `${name} sold`, message: `${name} sold for ${amountText(priceWei, currency)}.`,
        metadata: { listingId: move.id, priceWei, currency, sellerAddress: move.seller, buyerAddress: buyer.toLowerCase(), txHash },
      }];
    }
    return [];
  }
  if (move.from === null && move.to === 'pending') {
    return [{
      ...base, type: 'new_offer', flag: 'offer', exclude: [move.buyer, ...(move.owner ? [move.owner] : [])],
      title: `New offer on ${name}`, message: `Someone offered ${amountText(move.amountWei, move.currency)} for ${name}.`,
      metadata: { offerId: move.id, offerAmountWei: move.amountWei, currency: move.currency, buyerAddress: move.buyer },
      offer: { amountWei: move.amountWei, currency: move.currency },
    }];
  }
  if (move.to === 'accepted' && move.from !== 'accepted') {
    return [{
      ...base, type: 'sale', flag: 'sale', exclude: [move.buyer, ...(move.owner ? [move.owner] : [])],
      title: `${name} sold`, message: `${name} sold for ${amountText(move.amountWei, move.currency)} (an offer was accepted).`,
      metadata: { offerId: move.id, priceWei: move.amountWei, currency: move.currency, buyerAddress: move.buyer, ...(move.owner ? { sellerAddress: move.owner } : {}) },
    }];
  }
  return [];
}

interface OfferNoticeRule {
  type: NotificationType;
  /** Beyond the status having changed to this one. */
  applies: (move: OfferMove) => boolean;
  recipient: (move: OfferMove) => string | null | undefined;
  title: (name: string) => string;
  message: (move: OfferMove, name: string) => string;
  metadata?: (move: OfferMove) => Record<string, unknown>;
}

/** The notice an offer's move into a status sends, keyed by that status. */
const OFFER_NOTICES: Partial<Record<OfferStatus, OfferNoticeRule>> = {
  pending: {
    type: 'offer_received',
    applies: (m) => m.from === null,
    recipient: (m) => m.owner,
    title: (name) => `New offer on ${name}`,
    message: (m, name) => `${m.buyer} offered ${amountText(m.amountWei, m.currency)} for ${name}.`,
    metadata: (m) => ({ buyer: m.buyer }),
  },
  accepted: {
    type: 'offer_accepted',
    applies: () => true,
    recipient: (m) => m.buyer,
    title: (name) => `Offer on ${name} accepted`,
    message: (m, name) => `Your offer of ${amountText(m.amountWei, m.currency)} on ${name} was accepted.`,
  },
  rejected: {
    type: 'offer_rejected',
    applies: (m) => m.cause === 'user',
    recipient: (m) => m.buyer,
    title: (name) => `Offer on ${name} rejected`,
    message: (m, name) => `Your offer of ${amountText(m.amountWei, m.currency)} on ${name} was withdrawn.`,
  },
  expired: {
    type: 'offer_expired',
    applies: (m) => m.cause === 'expiry',
    recipient: (m) => m.buyer,
    title: (name) => `Offer on ${name} expired`,
    message: (_m, name) => `Your offer on ${name} reached its end time.`,
  },
};

/** An amount for people to read in a notification: `1.5 WETH`, or wei and the token address. */
export function amountText(wei: string | bigint, currency: string): string {
  const known = knownCurrency(currency);
  return known ? `${formatUnits(BigInt(wei), known.decimals)} ${known.symbol}` : `${BigInt(wei).toString()} wei of ${currency.toLowerCase()}`;
}
