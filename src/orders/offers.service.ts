import type { Deps } from '../deps.js';
import { countOffers, listOffers, offerJsonById, type OfferFilters } from './offers.repository.js';
import { orderHashExists } from './listings.repository.js';
import { resolveName } from '../db/repositories/ens-names.repository.js';
import { pagedTotal, totalOfPage } from './status-parts.js';
import { checkCounter, type CounterMemo } from './counter.js';
import { AppError } from '../errors.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { isUniqueViolation } from '../lib/pg-errors.js';
import { jsonArray, type RawJson } from '../lib/raw-json.js';
import type { CreateOfferBody, Offer, OffersPathQuery, OffersQuery, UpdateOfferBody } from '../contracts/offers.js';
import { placeOffer, updateOffer } from './user-moves.js';
import {
  checkClaims, checkTokenKind, findNameByToken, offerTerms, parseSignedOrder, verifyOrderSignature,
  type NameForOrder, type OfferTerms, type ParsedOrder, type SignedOrderInput,
} from './validation.js';
import type { Executor } from '../db/client.js';

/** An offer that passed every check of `OfferService.check`, ready to store. */
export interface CheckedOffer {
  order: ParsedOrder;
  terms: OfferTerms;
  name: NameForOrder;
}

/** What a signed offer says, for comparing with what the client claims beside it. */
export interface OfferFacts {
  ensNameId: number;
  ensName: string;
  tokenId: string;
  buyerAddress: string;
  offerAmountWei: string;
  currencyAddress: string;
  expiresAt: Date | null;
  orderHash: string;
}
import type { AuthUser } from '../services/tokens.js';

/** An offer as the API shows it, from its JSON text (OFFER_JSON). */
export function parseOffer(json: string): Offer {
  return JSON.parse(json) as Offer;
}

/** Offers: browse, read, create from a signed Seaport order, update amount or status. */
export class OfferService {
  constructor(private readonly deps: Pick<Deps, 'cache' | 'config' | 'db' | 'jobs' | 'logger' | 'rpc'>) {}

  async list(q: OffersQuery | (OffersPathQuery & { buyer?: string; owner?: string; name?: string })): Promise<{ offers: RawJson; pagination: PageB }> {
    const filters: OfferFilters = {
      buyer: q.buyer?.toLowerCase(),
      owner: q.owner?.toLowerCase(),
      status: q.status,
      ensNameId: q.name === undefined ? undefined : (await resolveName(this.deps.db, q.name)).id,
    };
    const key = `offers:${filters.buyer ?? ''}:${filters.owner ?? ''}:${filters.status ?? ''}:${filters.ensNameId ?? ''}`;
    const offset = offsetOf(q.page, q.limit);
    const rows = await listOffers(this.deps.db, filters, q.sort, q.order, q.limit, offset);
    const total = totalOfPage(offset, q.limit, rows.length) ?? await pagedTotal(this.deps.cache, key, (cap) => countOffers(this.deps.db, filters, cap));
    return { offers: jsonArray(rows), pagination: pageB(q.page, q.limit, total) };
  }

  async get(id: number): Promise<Offer> {
    const json = await offerJsonById(this.deps.db, id);
    if (json === undefined) throw new AppError('OFFER_NOT_FOUND', `Offer ${id} not found`);
    return parseOffer(json);
  }

  /** Checks a signed offer order (see order-validation.ts) and the name it asks for. */
  private async checkOrder(orderData: SignedOrderInput, buyer: string) {
    const order = parseSignedOrder(orderData);
    if (order.components.offerer !== buyer) {
      throw new AppError('INVALID_ORDER', 'The order\'s offerer must be the signed-in buyer', { reason: 'offerer_not_caller', field: 'body.orderData.parameters.offerer', expected: buyer, got: order.components.offerer });
    }
    const terms = offerTerms(order, this.deps.config);
    const name = await findNameByToken(this.deps.db, terms.token);
    if (!name) throw new AppError('ENS_NAME_NOT_FOUND', 'The order\'s token is not a name known here', { field: 'body.orderData.parameters.consideration' });
    checkTokenKind(name, terms.token);
    return { order, terms, name };
  }

  private async checkNewOrder(order: ParsedOrder, memo?: CounterMemo): Promise<void> {
    await verifyOrderSignature(this.deps, order);
    await checkCounter(this.deps, order, memo);
    if (await orderHashExists(this.deps.db, order.hash)) throw new AppError('DUPLICATE_ORDER', 'This order is already stored', { orderHash: order.hash });
  }

  /**
   * Every check of a new offer, without storing it: the offerer is the caller, it gives an accepted
   * ERC-20 amount for one name token, claims agree (`claims` compares under the client's own field
   * names), the buyer does not own the name, the signature is the buyer's, the counter is the
   * current one (with an RPC), the order is new.
   */
  async check(buyer: string, orderData: SignedOrderInput, claims: (facts: OfferFacts) => void, memo?: CounterMemo): Promise<CheckedOffer> {
    const { order, terms, name } = await this.checkOrder(orderData, buyer);
    claims({ ensNameId: name.id, ensName: name.name, tokenId: terms.token.tokenId.toString(), buyerAddress: terms.buyer, offerAmountWei: terms.amountWei.toString(), currencyAddress: terms.currency, expiresAt: terms.expiresAt, orderHash: order.hash });
    if (name.owner_address === buyer) throw new AppError('INVALID_ORDER', 'You cannot make an offer on a name you own', { reason: 'own_name', field: 'body.orderData.parameters.offerer' });
    await this.checkNewOrder(order, memo);
    return { order, terms, name };
  }

  /** Stores a checked offer inside `trx` (see placeOffer) and queues its funds re-check. */
  async place(trx: Executor, { order, terms, name }: CheckedOffer, source: string | undefined): Promise<number> {
    const offerId = await placeOffer(trx, {
      ensNameId: name.id,
      buyer: terms.buyer,
      amountWei: terms.amountWei.toString(),
      currency: terms.currency,
      orderHash: order.hash,
      orderData: order.orderData,
      source: (source ?? 'grails').toLowerCase(),
      expiresAt: terms.expiresAt,
    });
    if (this.deps.rpc) await this.deps.jobs.send('orders.validate', { offerIds: [offerId] }, { trx });
    return offerId;
  }

  /**
   * Stores an offer from a signed order after `check`. The name's highest offer is recalculated
   * and its owner notified (offer_received).
   */
  async create(user: AuthUser, body: CreateOfferBody): Promise<Offer> {
    const checked = await this.check(user.address.toLowerCase(), body.orderData, (f) => checkClaims(
      { ensNameId: body.ensNameId, buyerAddress: body.buyerAddress, offerAmountWei: body.offerAmountWei, currencyAddress: body.currencyAddress, expiresAt: body.expiresAt, orderHash: body.orderHash },
      { ensNameId: f.ensNameId, buyerAddress: f.buyerAddress, offerAmountWei: f.offerAmountWei, currencyAddress: f.currencyAddress, expiresAt: f.expiresAt, orderHash: f.orderHash },
    ));
    return this.get(await this.store(checked, body.source));
  }

  /** Stores a checked offer in a transaction of its own; returns its id (409 DUPLICATE_ORDER for a concurrent copy). */
  async store(checked: CheckedOffer, source: string | undefined): Promise<number> {
    try {
      return await this.deps.db.transaction().execute((trx) => this.place(trx, checked, source));
    } catch (err) {
      if (isUniqueViolation(err, 'offers_order_hash_key')) throw new AppError('DUPLICATE_ORDER', 'This order is already stored', { orderHash: checked.order.hash });
      throw err;
    }
  }

  /**
   * PUT /offers/:id. Roles: `rejected` only by the buyer, `accepted` only by the name's owner,
   * anything else by either. Moves: OFFER_MOVES (409 INVALID_STATE otherwise). The amount changes
   * only on a pending or unfunded offer; with `orderData` the buyer's re-signed order for that
   * amount replaces the stored one. Everything happens under the name's row lock, and the highest
   * offer is recalculated in the same transaction.
   */
  async update(user: AuthUser, id: number, body: UpdateOfferBody): Promise<Offer> {
    if (body.offerAmountWei === undefined && body.status === undefined && body.orderData === undefined) {
      throw new AppError('NO_UPDATES', 'Send offerAmountWei and/or status');
    }
    if (body.offerAmountWei !== undefined && BigInt(body.offerAmountWei) === 0n) {
      throw new AppError('VALIDATION_ERROR', 'body.offerAmountWei must be more than zero', { field: 'body.offerAmountWei' });
    }
    const caller = user.address.toLowerCase();
    const ref = await this.deps.db.selectFrom('offers').select(['ens_name_id', 'buyer_address', 'currency_address']).where('id', '=', id).executeTakeFirst();
    if (!ref) throw new AppError('OFFER_NOT_FOUND', `Offer ${id} not found`);

    let resigned: { order: ParsedOrder; amountWei: string; expiresAt: Date | null } | undefined;
    if (body.orderData !== undefined) {
      if (caller !== ref.buyer_address) throw new AppError('FORBIDDEN', 'Only the buyer can replace the signed order');
      const { order, terms, name } = await this.checkOrder(body.orderData, ref.buyer_address);
      if (name.id !== ref.ens_name_id || terms.currency !== ref.currency_address) {
        throw new AppError('INVALID_ORDER', 'The new order must be for the same name and currency', {
          reason: 'different_terms', field: 'body.orderData',
          expected: { ensNameId: ref.ens_name_id, currencyAddress: ref.currency_address }, got: { ensNameId: name.id, currencyAddress: terms.currency },
        });
      }
      if (body.offerAmountWei !== undefined && BigInt(body.offerAmountWei) !== terms.amountWei) {
        throw new AppError('INVALID_ORDER', `offerAmountWei does not match the signed order (the order says ${terms.amountWei})`, {
          reason: 'claim_mismatch', field: 'body.offerAmountWei', expected: terms.amountWei.toString(), got: body.offerAmountWei,
        });
      }
      await this.checkNewOrder(order);
      resigned = { order, amountWei: terms.amountWei.toString(), expiresAt: terms.expiresAt };
    }

    try {
      await this.deps.db.transaction().execute((trx) => updateOffer(trx, caller, id, {
        status: body.status,
        offerAmountWei: body.offerAmountWei,
        resigned: resigned && { orderHash: resigned.order.hash, orderData: resigned.order.orderData, amountWei: resigned.amountWei, expiresAt: resigned.expiresAt },
      }));
    } catch (err) {
      if (isUniqueViolation(err, 'offers_order_hash_key')) throw new AppError('DUPLICATE_ORDER', 'This order is already stored');
      throw err;
    }
    return this.get(id);
  }
}
