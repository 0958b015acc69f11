import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/client.js';
import { type CounterMemo } from './counter.js';
import { AppError, isAppError } from '../errors.js';
import { parseEthName } from '../lib/ens.js';
import { isUniqueViolation } from '../lib/pg-errors.js';
import type { BulkOrdersBody, BulkOrdersResult, OrderView, SaveOrderBody } from '../contracts/orders.js';
import type { AuthUser } from '../services/tokens.js';
import { findListingById, findListingIdByHash, listingJsonById } from './listings.repository.js';
import { ListingService, parseListing, type CheckedListing } from './listings.service.js';
import { findOfferIdByHash, offerJsonById } from './offers.repository.js';
import { OfferService, parseOffer, type CheckedOffer } from './offers.service.js';
import { checkClaims } from './validation.js';

/**
 * The reference's `/orders` routes over the one order home: a listing goes through
 * ListingService.check/place and an offer through OfferService's, exactly as POST /listings and
 * POST /offers; this file only reads the original's body and names the fields as it sent them.
 */

type Checked = { kind: 'listing'; checked: CheckedListing } | { kind: 'offer'; checked: CheckedOffer };
type Ref = { kind: 'listing' | 'offer'; id: number };
type BulkItem = BulkOrdersResult['results'][number];

/** The token ids a name trades under: its registrar id and its NameWrapper id. */
function tokenIdsOf(name: string): string[] {
  try {
    const n = parseEthName(name);
    return [n.tokenId, n.wrappedTokenId];
  } catch {
    return [];
  }
}

/** The token id to compare the client's token_id claim with: either id of the order's name agrees. */
export function tokenClaim(claimed: string, facts: { tokenId: string; ensName: string }): string {
  return tokenIdsOf(facts.ensName).includes(BigInt(claimed).toString()) ? claimed : facts.tokenId;
}

/** An error of the shared checks with its field named as this body names it (`order_data`, under `prefix`). */
export function renamed(err: unknown, prefix: string): unknown {
  if (!isAppError(err) || typeof err.details?.field !== 'string') return err;
  const field = err.details.field.replace(/^body\.orderData/, 'body.order_data').replace(/^body(?=\.|$)/, prefix);
  return new AppError(err.code, err.message, { ...err.details, field });
}

export class OrderService {
  private readonly listings: ListingService;
  private readonly offers: OfferService;

  constructor(private readonly deps: Pick<Deps, 'cache' | 'config' | 'db' | 'jobs' | 'logger' | 'rpc'>) {
    this.listings = new ListingService(deps);
    this.offers = new OfferService(deps);
  }

  /** seller_address / buyer_address name someone else: 403, as the original answers. */
  private ownClaims(caller: string, item: SaveOrderBody, field: string): void {
    for (const key of ['seller_address', 'buyer_address'] as const) {
      const claimed = item[key];
      if (claimed !== undefined && claimed.toLowerCase() !== caller) throw new AppError('FORBIDDEN', `${key} must be the signed-in user's address`, { field: `${field}.${key}` });
    }
  }

  /** Every check POST /listings or POST /offers makes, plus the claims of the original's body. */
  private async check(caller: string, item: SaveOrderBody, prefix: string, memo: CounterMemo): Promise<Checked> {
    try {
      if (item.type === 'collection_offer') {
        throw new AppError('UNSUPPORTED_ORDER_TYPE', 'Collection offers are not supported: make an offer on one name (type offer)', { field: 'body.type', allowed: ['listing', 'offer'] });
      }
      if (item.type === 'listing') {
        const checked = await this.listings.check(caller, item.order_data, (f) => checkClaims(
          { token_id: item.token_id, price_wei: item.price_wei, currency_address: item.currency_address, order_hash: item.order_hash },
          { token_id: tokenClaim(item.token_id, f), price_wei: f.priceWei, currency_address: f.currencyAddress, order_hash: f.orderHash },
        ), memo);
        return { kind: 'listing', checked };
      }
      const checked = await this.offers.check(caller, item.order_data, (f) => checkClaims(
        { token_id: item.token_id, price_wei: item.price_wei, currency_address: item.currency_address, order_hash: item.order_hash },
        { token_id: tokenClaim(item.token_id, f), price_wei: f.offerAmountWei, currency_address: f.currencyAddress, order_hash: f.orderHash },
      ), memo);
      return { kind: 'offer', checked };
    } catch (err) {
      throw renamed(err, prefix);
    }
  }

  /** POST /orders: one signed listing or offer, checked and stored as POST /listings or /offers would. */
  async save(user: AuthUser, body: SaveOrderBody): Promise<OrderView> {
    const caller = user.address.toLowerCase();
    this.ownClaims(caller, body, 'body');
    const c = await this.check(caller, body, 'body', new Map());
    const id = c.kind === 'listing' ? await this.listings.store(c.checked, body.source) : await this.offers.store(c.checked, body.source);
    return this.view({ kind: c.kind, id });
  }

  /** A number is a listing id; a hash is a listing's or an offer's order hash. */
  private async find(ref: string): Promise<Ref | undefined> {
    const { db } = this.deps;
    if (/^[0-9]+$/.test(ref)) return (await findListingById(db, Number(ref))) ? { kind: 'listing', id: Number(ref) } : undefined;
    const hash = ref.toLowerCase();
    const listingId = await findListingIdByHash(db, hash);
    if (listingId !== undefined) return { kind: 'listing', id: listingId };
    const offerId = await findOfferIdByHash(db, hash);
    return offerId === undefined ? undefined : { kind: 'offer', id: offerId };
  }

  private async view(ref: Ref): Promise<OrderView> {
    if (ref.kind === 'listing') {
      const json = await listingJsonById(this.deps.db, ref.id);
      if (json !== undefined) return { order_type: 'listing', ...parseListing(json) };
    } else {
      const json = await offerJsonById(this.deps.db, ref.id);
      if (json !== undefined) return { order_type: 'offer', ...parseOffer(json) };
    }
    throw new AppError('ORDER_NOT_FOUND', 'Order not found');
  }

  async get(ref: string): Promise<OrderView> {
    const found = await this.find(ref);
    if (!found) throw new AppError('ORDER_NOT_FOUND', `No listing or offer ${ref}`);
    return this.view(found);
  }

  /**
   * DELETE /orders/:id by its maker only: a listing is cancelled (as DELETE /listings/:id), an
   * offer withdrawn (rejected, as PUT /offers/:id by its buyer); both through the state machine.
   */
  async cancel(user: AuthUser, ref: string): Promise<{ message: string; order: OrderView }> {
    const found = await this.find(ref);
    if (!found) throw new AppError('ORDER_NOT_FOUND', `No listing or offer ${ref}`);
    if (found.kind === 'listing') await this.listings.cancel(user, found.id);
    else await this.offers.update(user, found.id, { status: 'rejected' });
    return { message: 'Order cancelled successfully', order: await this.view(found) };
  }

  /**
   * POST /orders/bulk: each item is checked as POST /orders checks one; the good ones are stored
   * in one transaction (in name-id order, the lock order), each under a savepoint so that one the
   * database refuses (a copy stored meanwhile, the name sold meanwhile) fails alone.
   */
  async bulk(user: AuthUser, body: BulkOrdersBody): Promise<BulkOrdersResult> {
    const caller = user.address.toLowerCase();
    body.listings.forEach((item, i) => this.ownClaims(caller, item, `body.listings.${i}`));
    const memo: CounterMemo = new Map();
    const results: BulkItem[] = body.listings.map((item, index) => ({
      index, type: item.type, token_id: item.token_id, order_hash: null, status: 'failed', listing_id: null, offer_id: null, error: null,
    }));
    const fail = (r: BulkItem, err: unknown) => {
      if (!isAppError(err)) throw err;
      r.status = 'failed';
      r.error = { code: err.code, message: err.message, field: typeof err.details?.field === 'string' ? err.details.field : null };
    };
    const skip = async (r: BulkItem, hash: string) => {
      r.status = 'skipped';
      r.listing_id = (await findListingIdByHash(this.deps.db, hash)) ?? null;
      r.offer_id = r.listing_id === null ? ((await findOfferIdByHash(this.deps.db, hash)) ?? null) : null;
    };

    const good: { r: BulkItem; c: Checked; source: string | undefined }[] = [];
    const seen = new Set<string>();
    for (const [i, item] of body.listings.entries()) {
      const r = results[i];
      try {
        const c = await this.check(caller, item, `body.listings.${i}`, memo);
        r.order_hash = c.checked.order.hash;
        if (seen.has(r.order_hash)) r.status = 'skipped';
        else good.push({ r, c, source: item.source });
        seen.add(r.order_hash);
      } catch (err) {
        if (isAppError(err) && err.code === 'DUPLICATE_ORDER' && typeof err.details?.orderHash === 'string') {
          r.order_hash = err.details.orderHash;
          await skip(r, r.order_hash);
        } else fail(r, err);
      }
    }

    good.sort((a, b) => a.c.checked.name.id - b.c.checked.name.id || a.r.index - b.r.index);
    if (good.length > 0) {
      await this.deps.db.transaction().execute(async (trx) => {
        for (const { r, c, source } of good) await this.placeOne(trx, r, c, source, fail);
      });
    }
    for (const r of results) if (r.status === 'skipped' && r.listing_id === null && r.offer_id === null && r.order_hash) await skip(r, r.order_hash);
    const count = (s: BulkItem['status']) => results.filter((r) => r.status === s).length;
    return { summary: { total: results.length, succeeded: count('created'), failed: count('failed'), skipped: count('skipped') }, results };
  }

  private async placeOne(trx: Executor, r: BulkItem, c: Checked, source: string | undefined, fail: (r: BulkItem, err: unknown) => void): Promise<void> {
    await sql`SAVEPOINT bulk_item`.execute(trx);
    try {
      if (c.kind === 'listing') r.listing_id = await this.listings.place(trx, c.checked, source);
      else r.offer_id = await this.offers.place(trx, c.checked, source);
      r.status = 'created';
      await sql`RELEASE SAVEPOINT bulk_item`.execute(trx);
    } catch (err) {
      await sql`ROLLBACK TO SAVEPOINT bulk_item`.execute(trx);
      if (isUniqueViolation(err)) {
        r.status = 'skipped';
        return;
      }
      fail(r, renamed(err, `body.listings.${r.index}`));
    }
  }
}
