import { sql } from 'kysely';
import { transactionOf, type Executor } from '../db/client.js';
import { setLastSale } from '../db/repositories/ens-names.repository.js';
import { recordActivity } from '../history/index.js';
import type { ChainLog } from '../sync/order-effects.js';
import { bumpTrend } from '../trends/index.js';
import { recordMoves } from './effects.js';
import { lockListing, lockOffer } from './locks.js';
import { listingMoveAllowed, offerMoveAllowed } from './moves.js';
import { listingMove, offerMove } from './state.js';
import { recalculateHighestOffer, refreshListingSummary } from './summaries.js';

/**
 * Orders of our book filled on chain (Seaport OrderFulfilled, through the sync's OrderEffects): the
 * listing sold or the offer accepted, the sale row with its `sale` event, the name's last sale.
 * The move's events carry the fill's log, as chain cancels do (endings.ts).
 */

const chainOf = (log: ChainLog | undefined): { chain?: ChainLog } => (log ? { chain: log } : {});

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

/** The log of a fill, when the sale names its transaction, block and log index (the move's events carry it). */
function fillLog(sale: SaleRecord, soldAt: Date): ChainLog | undefined {
  if (!sale.txHash || sale.logIndex === undefined || sale.logIndex === null || sale.block === undefined || sale.block === null) return undefined;
  return { txHash: sale.txHash, block: sale.block, logIndex: sale.logIndex, at: soldAt };
}

export interface FillOptions {
  /**
   * false when this transaction already recorded the sale of the name (a listing and an offer
   * matched against each other fill two orders for one sale): the order moves, no second sale.
   */
  recordSale?: boolean;
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
 * replayed event adds nothing; its `sale` event is the listing's), the name's last sale, its
 * listing summary, and a `listing_sold` notification to the seller. Returns false (and records
 * nothing) when the listing is missing or already sold. The change of owner is the caller's to
 * apply (onOwnershipChanged) from the transfer it saw.
 */
export async function markListingSold(trx: Executor, listingId: number, sale: SaleRecord, options: FillOptions = {}): Promise<boolean> {
  const locked = await lockListing(trx, listingId);
  if (!locked || !listingMoveAllowed('automatic', locked.listing.status, 'sold')) return false;
  const { listing, name } = locked;
  await trx.updateTable('listings').set({ status: 'sold', updated_at: sql`now()` }).where('id', '=', listingId).execute();
  const priceWei = sale.priceWei ?? listing.price_wei;
  const currency = sale.currency ?? listing.currency_address;
  const soldAt = sale.soldAt ?? new Date();
  if (options.recordSale !== false) {
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
      soldAt,
    });
  }
  await refreshListingSummary(trx, name.id);
  await recordMoves(trx, [{
    ...listingMove(locked, 'sold', 'chain_fill'), ...chainOf(fillLog(sale, soldAt)),
    sale: { buyer: sale.buyer, priceWei, currency, txHash: sale.txHash ?? null },
  }]);
  return true;
}

/**
 * An offer was fulfilled: status accepted with an `offer_accepted` notification and event when it
 * was not accepted yet (the event carries the fill's log); a `sales` row and the name's last sale
 * (idempotent on tx hash and log index) unless `recordSale` is false. Recalculates the highest
 * offer. Returns false when the offer is missing.
 */
export async function markOfferAccepted(trx: Executor, offerId: number, sale: SaleRecord & { seller: string }, options: FillOptions = {}): Promise<boolean> {
  const locked = await lockOffer(trx, offerId);
  if (!locked) return false;
  const { offer, name } = locked;
  const moves = offerMoveAllowed('automatic', offer.status, 'accepted');
  if (moves) {
    await trx.updateTable('offers').set({ status: 'accepted', unfunded_at: null, unfunded_reason: null, updated_at: sql`now()` }).where('id', '=', offerId).execute();
  }
  const soldAt = sale.soldAt ?? new Date();
  if (options.recordSale !== false) {
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
      soldAt,
    });
  }
  await recalculateHighestOffer(trx, name.id);
  if (moves) await recordMoves(trx, [{ ...offerMove(locked, 'accepted', 'chain_fill'), owner: sale.seller.toLowerCase(), ...chainOf(fillLog(sale, soldAt)) }]);
  return true;
}
