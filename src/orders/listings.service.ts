import type { Deps } from '../deps.js';
import {
  countListings, findActiveListingsOfName, findListingById, listListings, orderHashExists,
  type ListingFilters, type ListingRow, type ListingSort,
} from './listings.repository.js';
import { resolveName } from '../db/repositories/ens-names.repository.js';
import { pagedTotal } from './status-parts.js';
import { AppError } from '../errors.js';
import { isUniqueViolation } from '../lib/pg-errors.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { iso } from '../lib/time.js';
import type { CreateListingBody, Listing, ListingsQuery } from '../contracts/listings.js';
import type { AuthUser } from '../services/tokens.js';
import { cancelListing, placeListing } from './user-moves.js';
import { checkClaims, checkTokenKind, findNameByToken, listingTerms, parseSignedOrder, verifyOrderSignature } from './validation.js';

export function toListing(row: ListingRow): Listing {
  return {
    id: row.id,
    ens_name_id: row.ens_name_id,
    seller_address: row.seller_address,
    price_wei: BigInt(row.price_wei).toString(),
    currency_address: row.currency_address,
    order_hash: row.order_hash,
    order_data: row.order_data,
    status: row.status,
    source: row.source,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    expires_at: iso(row.expires_at),
    last_validated_at: iso(row.last_validated_at),
    unfunded_at: iso(row.unfunded_at),
    unfunded_reason: row.unfunded_reason,
    broker_address: row.broker_address,
    broker_fee_bps: row.broker_fee_bps,
    ens_name: row.ens_name,
    token_id: BigInt(row.token_id).toString(),
    current_owner: row.current_owner,
    name_expiry_date: iso(row.name_expiry_date),
    registration_date: iso(row.registration_date),
    last_sale_date: iso(row.last_sale_date),
  };
}

/** Listings: browse, read, create from a signed Seaport order, cancel. */
export class ListingService {
  constructor(private readonly deps: Deps) {}

  async list(q: ListingsQuery): Promise<{ listings: Listing[]; pagination: PageB }> {
    const filters: ListingFilters = {
      status: q.status,
      seller: q.seller?.toLowerCase(),
      minPrice: q.minPrice,
      maxPrice: q.maxPrice,
      graceDays: this.deps.config.gracePeriodDays,
    };
    const key = `listings:${filters.status}:${filters.seller ?? ''}:${filters.minPrice ?? ''}:${filters.maxPrice ?? ''}`;
    const [rows, total] = await Promise.all([
      listListings(this.deps.db, filters, q.sort as ListingSort, q.order, q.limit, offsetOf(q.page, q.limit)),
      pagedTotal(this.deps.cache, key, (cap) => countListings(this.deps.db, filters, cap)),
    ]);
    return { listings: rows.map(toListing), pagination: pageB(q.page, q.limit, total) };
  }

  async get(id: number): Promise<Listing> {
    const row = await findListingById(this.deps.db, id);
    if (!row) throw new AppError('LISTING_NOT_FOUND', `Listing ${id} not found`);
    return toListing(row);
  }

  /** The name's active listings (not past their end time), newest first; empty when none. */
  async activeOfName(input: string): Promise<Listing[]> {
    const name = await resolveName(this.deps.db, input);
    return (await findActiveListingsOfName(this.deps.db, name.id)).map(toListing);
  }

  /**
   * Stores a listing from a signed order after checking it (see order-validation.ts): offerer is
   * the caller, one name token for one currency, the seller owns the name, claims agree, the
   * signature is the seller's, the order is new. The seller's earlier open listings of the name
   * are cancelled (replaced); active listings of anyone else become unfunded (ownership_lost).
   */
  async create(user: AuthUser, body: CreateListingBody): Promise<Listing> {
    const { config, db } = this.deps;
    const order = parseSignedOrder(body.orderData);
    const caller = user.address.toLowerCase();
    if (order.components.offerer !== caller) {
      throw new AppError('INVALID_ORDER', 'The order\'s offerer must be the signed-in seller', { reason: 'offerer_not_caller', field: 'body.orderData.parameters.offerer', expected: caller, got: order.components.offerer });
    }
    const terms = listingTerms(order, config);
    const name = await findNameByToken(db, terms.token);
    if (!name) throw new AppError('ENS_NAME_NOT_FOUND', 'The order\'s token is not a name known here');
    checkTokenKind(name, terms.token);
    checkClaims(
      { ensNameId: body.ensNameId, sellerAddress: body.sellerAddress, priceWei: body.priceWei, currencyAddress: body.currencyAddress, expiresAt: body.expiresAt, orderHash: body.orderHash },
      { ensNameId: name.id, sellerAddress: terms.seller, priceWei: terms.priceWei.toString(), currencyAddress: terms.currency, expiresAt: terms.expiresAt, orderHash: order.hash },
    );
    if (name.owner_address !== terms.seller) throw new AppError('NOT_OWNER', `${name.name} is not owned by ${terms.seller}`);
    if (name.expiry_date !== null && name.expiry_date.getTime() <= Date.now()) {
      throw new AppError('INVALID_ORDER', `${name.name} has expired and cannot be transferred`, { reason: 'name_expired' });
    }
    await verifyOrderSignature(this.deps, order);
    if (await orderHashExists(db, order.hash)) throw new AppError('DUPLICATE_ORDER', 'This order is already stored', { orderHash: order.hash });

    let id: number;
    try {
      id = await db.transaction().execute(async (trx) => {
        const listingId = await placeListing(trx, {
          ensNameId: name.id,
          seller: terms.seller,
          priceWei: terms.priceWei.toString(),
          currency: terms.currency,
          orderHash: order.hash,
          orderData: order.orderData,
          source: (body.source ?? 'grails').toLowerCase(),
          expiresAt: terms.expiresAt,
          brokerAddress: terms.broker?.address ?? null,
          brokerFeeBps: terms.broker?.feeBps ?? null,
        });
        if (this.deps.rpc) await this.deps.jobs.send('orders.validate', { listingIds: [listingId] }, { trx });
        return listingId;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'listings_order_hash_key')) throw new AppError('DUPLICATE_ORDER', 'This order is already stored', { orderHash: order.hash });
      throw err;
    }
    return this.get(id);
  }

  /**
   * The seller takes a listing off the marketplace: active or unfunded → cancelled (cancelling a
   * cancelled listing again changes nothing). Sold and expired listings are final (409).
   */
  async cancel(user: AuthUser, id: number): Promise<Listing> {
    await this.deps.db.transaction().execute((trx) => cancelListing(trx, user.address.toLowerCase(), id));
    return this.get(id);
  }
}
