import type { Deps } from '../deps.js';
import {
  countListings, findActiveListingsOfName, findListingById, listingJsonById, listListings, orderHashExists, priceRangeCounted,
  type ListingFilters, type ListingSort, type NewListing,
} from './listings.repository.js';
import { resolveName } from '../db/repositories/ens-names.repository.js';
import { pagedTotal, totalOfPage } from './status-parts.js';
import { checkCounter, type CounterMemo } from './counter.js';
import { checkBrokerItem, checkFeeCap, type BrokerClaim } from './broker.js';
import { AppError } from '../errors.js';
import { isUniqueViolation } from '../lib/pg-errors.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { jsonArray, type RawJson } from '../lib/raw-json.js';
import type { Executor } from '../db/client.js';
import type { CreateListingBody, Listing, ListingsQuery, UpdateListingBody } from '../contracts/listings.js';
import type { AuthUser } from '../services/tokens.js';
import { cancelListing, placeListing, replaceListing } from './user-moves.js';
import {
  checkClaims, checkTokenKind, findNameByToken, listingTerms, parseSignedOrder, verifyOrderSignature,
  type ListingTerms, type NameForOrder, type ParsedOrder, type SignedOrderInput,
} from './validation.js';

/** A listing that passed every check of `ListingService.check`, ready to store. */
export interface CheckedListing {
  order: ParsedOrder;
  terms: ListingTerms;
  name: NameForOrder;
}

/** What a signed listing says, for comparing with what the client claims beside it. */
export interface ListingFacts {
  ensNameId: number;
  ensName: string;
  tokenId: string;
  sellerAddress: string;
  priceWei: string;
  currencyAddress: string;
  expiresAt: Date | null;
  orderHash: string;
}

/** A listing as the API shows it, from its JSON text (LISTING_JSON). */
export function parseListing(json: string): Listing {
  return JSON.parse(json) as Listing;
}

/** Listings: browse, read, create from a signed Seaport order, cancel. */
export class ListingService {
  constructor(private readonly deps: Pick<Deps, 'cache' | 'config' | 'db' | 'jobs' | 'logger' | 'rpc'>) {}

  async list(q: ListingsQuery): Promise<{ listings: RawJson; pagination: PageB }> {
    const filters: ListingFilters = {
      status: q.status,
      seller: q.seller?.toLowerCase(),
      minPrice: q.minPrice,
      maxPrice: q.maxPrice,
      graceDays: this.deps.config.gracePeriodDays,
    };
    const key = `listings:${filters.status}:${filters.seller ?? ''}:${filters.minPrice ?? ''}:${filters.maxPrice ?? ''}`;
    const offset = offsetOf(q.page, q.limit);
    const sort = q.sort as ListingSort;
    const counted = () => pagedTotal(this.deps.cache, key, (cap) => countListings(this.deps.db, filters, cap));
    // a price range under another sort is read by how many listings it holds: counted first
    const known = priceRangeCounted(filters, sort) ? await counted() : undefined;
    const rows = await listListings(this.deps.db, filters, sort, q.order, q.limit, offset, known);
    const total = known ?? totalOfPage(offset, q.limit, rows.length) ?? await counted();
    return { listings: jsonArray(rows), pagination: pageB(q.page, q.limit, total) };
  }

  async get(id: number): Promise<Listing> {
    const json = await listingJsonById(this.deps.db, id);
    if (json === undefined) throw new AppError('LISTING_NOT_FOUND', `Listing ${id} not found`);
    return parseListing(json);
  }

  /** The name's active listings (not past their end time), newest first; empty when none. */
  async activeOfName(input: string): Promise<RawJson> {
    const name = await resolveName(this.deps.db, input);
    return jsonArray(await findActiveListingsOfName(this.deps.db, name.id));
  }

  /**
   * Every check of a new listing (see validation.ts), without storing it: the offerer is the caller,
   * one name token for one currency, claims agree (`claims` compares what the client sent with the
   * facts of the signed order, under the client's own field names), the seller owns the name, the
   * signature is the seller's, the counter is the current one (with an RPC), the order is new.
   * A fee item takes at most BROKER_MAX_FEE_BPS of the price; with `broker` (a brokered listing)
   * the order must pay that broker that fee (broker.ts), and the listing records them.
   */
  async check(caller: string, orderData: SignedOrderInput, claims: (facts: ListingFacts) => void, memo?: CounterMemo, broker?: BrokerClaim): Promise<CheckedListing> {
    const { config, db } = this.deps;
    const order = parseSignedOrder(orderData);
    if (order.components.offerer !== caller) {
      throw new AppError('INVALID_ORDER', 'The order\'s offerer must be the signed-in seller', { reason: 'offerer_not_caller', field: 'body.orderData.parameters.offerer', expected: caller, got: order.components.offerer });
    }
    if (broker) checkBrokerItem(order, broker);
    const terms = listingTerms(order, config);
    if (broker) {
      const item = order.components.consideration.find((it) => it.recipient === broker.address)!;
      terms.broker = { address: broker.address, feeBps: broker.feeBps, feeWei: BigInt(item.startAmount) };
    }
    checkFeeCap(terms, config);
    const name = await findNameByToken(db, terms.token);
    if (!name) throw new AppError('ENS_NAME_NOT_FOUND', 'The order\'s token is not a name known here', { field: 'body.orderData.parameters.offer.0.identifierOrCriteria' });
    checkTokenKind(name, terms.token);
    claims({ ensNameId: name.id, ensName: name.name, tokenId: terms.token.tokenId.toString(), sellerAddress: terms.seller, priceWei: terms.priceWei.toString(), currencyAddress: terms.currency, expiresAt: terms.expiresAt, orderHash: order.hash });
    if (name.owner_address !== terms.seller) throw new AppError('NOT_OWNER', `${name.name} is not owned by ${terms.seller}`, { field: 'body.orderData.parameters.offerer' });
    if (name.expiry_date !== null && name.expiry_date.getTime() <= Date.now()) {
      throw new AppError('INVALID_ORDER', `${name.name} has expired and cannot be transferred`, { reason: 'name_expired' });
    }
    await verifyOrderSignature(this.deps, order);
    await checkCounter(this.deps, order, memo);
    if (await orderHashExists(db, order.hash)) throw new AppError('DUPLICATE_ORDER', 'This order is already stored', { orderHash: order.hash });
    return { order, terms, name };
  }

  /** Stores a checked listing inside `trx` (see placeListing) and queues its chain re-check. */
  async place(trx: Executor, { order, terms, name }: CheckedListing, source: string | undefined): Promise<number> {
    const listingId = await placeListing(trx, this.newListing({ order, terms, name }, source));
    if (this.deps.rpc) await this.deps.jobs.send('orders.validate', { listingIds: [listingId] }, { trx });
    return listingId;
  }

  private newListing({ order, terms, name }: CheckedListing, source: string | undefined): NewListing {
    return {
      ensNameId: name.id,
      seller: terms.seller,
      priceWei: terms.priceWei.toString(),
      currency: terms.currency,
      orderHash: order.hash,
      orderData: order.orderData,
      source: (source ?? 'grails').toLowerCase(),
      expiresAt: terms.expiresAt,
      brokerAddress: terms.broker?.address ?? null,
      brokerFeeBps: terms.broker?.feeBps ?? null,
    };
  }

  /** Stores a checked listing in a transaction of its own; returns its id. */
  store(checked: CheckedListing, source: string | undefined): Promise<number> {
    return this.inTransaction(checked.order.hash, (trx) => this.place(trx, checked, source));
  }

  /** Runs `write` in one transaction; a concurrent copy of the same order is 409 DUPLICATE_ORDER. */
  private async inTransaction<T>(orderHash: string, write: (trx: Executor) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction().execute(write);
    } catch (err) {
      if (isUniqueViolation(err, 'listings_order_hash_key')) throw new AppError('DUPLICATE_ORDER', 'This order is already stored', { orderHash });
      throw err;
    }
  }

  /**
   * Stores a listing from a signed order after `check`. The seller's earlier open listings of the
   * name are cancelled (replaced); active listings of anyone else become unfunded (ownership_lost).
   */
  async create(user: AuthUser, body: CreateListingBody): Promise<Listing> {
    const checked = await this.check(user.address.toLowerCase(), body.orderData, (f) => checkClaims(
      { ensNameId: body.ensNameId, sellerAddress: body.sellerAddress, priceWei: body.priceWei, currencyAddress: body.currencyAddress, expiresAt: body.expiresAt, orderHash: body.orderHash },
      { ensNameId: f.ensNameId, sellerAddress: f.sellerAddress, priceWei: f.priceWei, currencyAddress: f.currencyAddress, expiresAt: f.expiresAt, orderHash: f.orderHash },
    ));
    return this.get(await this.store(checked, body.source));
  }

  /**
   * PUT /listings/:id: a new price (or end time, or currency) by the seller's re-signed order for
   * the same name. Checked as a new listing; in one transaction, under the name's lock, the listing
   * must still be the seller's and live, and it is cancelled (replaced) as the new one is stored.
   */
  async update(user: AuthUser, id: number, body: UpdateListingBody): Promise<Listing> {
    if (body.orderData === undefined) {
      if (body.priceWei === undefined && body.expiresAt === undefined) throw new AppError('NO_UPDATES', 'Send the re-signed order as orderData (with priceWei and/or expiresAt if you like)');
      throw new AppError('VALIDATION_ERROR', 'A new price or end time needs the seller\'s re-signed order: send it as body.orderData', { field: 'body.orderData' });
    }
    const caller = user.address.toLowerCase();
    const current = await findListingById(this.deps.db, id);
    if (!current) throw new AppError('LISTING_NOT_FOUND', `Listing ${id} not found`);
    if (current.seller_address !== caller) throw new AppError('FORBIDDEN', 'Only the seller can update this listing');
    if (current.status !== 'active' && current.status !== 'unfunded') throw new AppError('INVALID_STATE', `A ${current.status} listing cannot be updated`, { status: current.status });
    const checked = await this.check(caller, body.orderData, (f) => {
      if (f.ensNameId !== current.ens_name_id) {
        throw new AppError('INVALID_ORDER', `The new order must list ${current.ens_name}, the name of listing ${id}`, { reason: 'other_name', field: 'body.orderData.parameters.offer.0', expected: current.token_id, got: f.tokenId });
      }
      checkClaims({ priceWei: body.priceWei, expiresAt: body.expiresAt }, { priceWei: f.priceWei, expiresAt: f.expiresAt });
    });
    const newId = await this.inTransaction(checked.order.hash, (trx) => replaceListing(trx, caller, id, () => this.place(trx, checked, body.source ?? current.source)));
    return this.get(newId);
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
