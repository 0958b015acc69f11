import { randomBytes } from 'node:crypto';
import { Value } from 'typebox/value';
import type { Deps } from '../deps.js';
import { chainCounter, checkCounter } from './counter.js';
import { AppError, isAppError } from '../errors.js';
import { ZERO_ADDRESS } from '../lib/address.js';
import { parseEthName } from '../lib/ens.js';
import { buildListingOrder, orderHash, seaportDomain } from '../lib/seaport.js';
import { SignedOrder } from '../contracts/order.js';
import type { CreateOrderBody, OrderProblem, OrderValidation, UnsignedOrder } from '../contracts/orders.js';
import { orderHashExists } from './listings.repository.js';
import { listingChainProblem, offerChainProblem } from './recheck.js';
import {
  checkTokenKind, findNameByToken, listingTerms, nameTokenOf, offerTerms, parseSignedOrder,
  verifyOrderSignature, type ListingTerms, type OfferTerms, type ParsedOrder, type SignedOrderInput,
} from './validation.js';

const DAY_SECONDS = 86_400;
const MAX_SHAPE_ERRORS = 20;

function problemOf(err: AppError): OrderProblem {
  const d = err.details ?? {};
  return {
    field: typeof d.field === 'string' ? d.field : 'body.orderData',
    code: err.code,
    reason: typeof d.reason === 'string' ? d.reason : null,
    message: err.message,
    ...(d.expected === undefined ? {} : { expected: d.expected }),
    ...(d.got === undefined ? {} : { got: d.got }),
  };
}

/** The order tools that store nothing: an unsigned listing to sign (POST /orders/create) and a dry run of every check (POST /orders/validate). */
export class OrderToolsService {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'rpc'>) {}

  /**
   * Seaport 1.6 components of a listing of a known name by its owner, for our contracts (the
   * NameWrapper token when the name is wrapped), starting now, with a random salt and the
   * offerer's counter from Seaport when an RPC is configured (else 0, and `counterSource` says so).
   */
  async draft(body: CreateOrderBody): Promise<UnsignedOrder> {
    const { config, db } = this.deps;
    const offerer = body.offerer.toLowerCase();
    const currency = (body.currency ?? ZERO_ADDRESS).toLowerCase();
    if (currency !== ZERO_ADDRESS && !config.acceptedCurrencies.includes(currency as `0x${string}`)) {
      throw new AppError('UNSUPPORTED_CURRENCY', `Currency ${currency} is not accepted here`, { field: 'body.currency', accepted: [ZERO_ADDRESS, ...config.acceptedCurrencies] });
    }
    const price = BigInt(body.price);
    if (price === 0n) throw new AppError('VALIDATION_ERROR', 'body.price must be more than zero', { field: 'body.price' });
    const tokenId = BigInt(body.tokenId);
    const name = (await findNameByToken(db, { wrapped: false, tokenId })) ?? (await findNameByToken(db, { wrapped: true, tokenId }));
    if (!name) throw new AppError('ENS_NAME_NOT_FOUND', 'No name known here has this token id', { field: 'body.tokenId' });
    if (name.owner_address !== offerer) throw new AppError('NOT_OWNER', `${name.name} is not owned by ${offerer}`, { field: 'body.offerer' });
    const ids = parseEthName(name.name);
    const counter = await chainCounter(this.deps, offerer);
    const now = Math.floor(Date.now() / 1000);
    const components = buildListingOrder({
      seller: offerer,
      token: { wrapped: name.wrapped, tokenId: name.wrapped ? ids.wrappedTokenId : ids.tokenId },
      priceWei: price,
      currency,
      contracts: config,
      startTime: now,
      endTime: now + (body.duration ?? 7) * DAY_SECONDS,
      salt: BigInt(`0x${randomBytes(32).toString('hex')}`).toString(),
      counter: (counter ?? 0n).toString(),
    });
    const domain = seaportDomain(config);
    return {
      ...components,
      totalOriginalConsiderationItems: components.consideration.length,
      orderHash: orderHash(components),
      counterSource: counter === undefined ? 'default' : 'rpc',
      domain: { ...domain, verifyingContract: domain.verifyingContract.toLowerCase() },
    };
  }

  /**
   * Every check POST /orders makes, without storing and without a caller: shape, terms, the name,
   * its owner, the signature, with an RPC the counter and the funds (ownership and approval of a
   * listing, balance and allowance of an offer), and whether it is stored already. Each fault is
   * one entry; the first fault of the shape or the terms ends the run, as later checks need them.
   */
  async validate(input: unknown): Promise<OrderValidation> {
    const errors: OrderProblem[] = [];
    const unchecked: string[] = this.deps.rpc ? [] : ['counter', 'funds'];
    const answer = (kind: string | null, hash: string | null): OrderValidation => ({
      valid: errors.length === 0, kind, orderHash: hash, errors, messages: errors.map((e) => e.message), unchecked,
    });
    const note = (err: unknown) => {
      if (!isAppError(err)) throw err;
      errors.push(problemOf(err));
    };

    let data = input;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        note(new AppError('VALIDATION_ERROR', 'body.orderData is not JSON', { field: 'body.orderData', reason: 'json' }));
        return answer(null, null);
      }
    }
    for (const e of [...Value.Errors(SignedOrder, data)].slice(0, MAX_SHAPE_ERRORS)) {
      const field = `body.orderData${e.instancePath.replaceAll('/', '.')}`;
      note(new AppError('VALIDATION_ERROR', `${field} ${e.message}`, { field, reason: e.keyword }));
    }
    if (errors.length > 0) return answer(null, null);

    let order: ParsedOrder;
    let terms: ({ kind: 'listing' } & ListingTerms) | ({ kind: 'offer' } & OfferTerms);
    try {
      order = parseSignedOrder(data as SignedOrderInput);
      const isListing = order.components.offer.length > 0 && nameTokenOf(order.components.offer[0], this.deps.config) !== undefined;
      terms = isListing ? { kind: 'listing', ...listingTerms(order, this.deps.config) } : { kind: 'offer', ...offerTerms(order, this.deps.config) };
    } catch (err) {
      note(err);
      return answer(null, null);
    }

    await this.checkName(order, terms).catch(note);
    await verifyOrderSignature(this.deps, order).catch(note);
    if (this.deps.rpc) {
      await checkCounter(this.deps, order).catch((err: unknown) => (isAppError(err) && err.code === 'SERVICE_UNAVAILABLE' ? unchecked.push('counter') : note(err)));
      await this.checkFunds(order, terms).catch((err: unknown) => {
        if (isAppError(err)) return note(err);
        this.deps.logger.warn({ err }, 'order funds check failed');
        unchecked.push('funds');
      });
    }
    if (await orderHashExists(this.deps.db, order.hash)) note(new AppError('DUPLICATE_ORDER', 'This order is already stored', { field: 'body.orderData', reason: 'duplicate' }));
    return answer(terms.kind, order.hash);
  }

  /** The name is known, traded as it is held, owned by the seller (listing) or not by the buyer (offer), not expired. */
  private async checkName(order: ParsedOrder, terms: ({ kind: 'listing' } & ListingTerms) | ({ kind: 'offer' } & OfferTerms)): Promise<void> {
    const name = await findNameByToken(this.deps.db, terms.token);
    const tokenField = terms.kind === 'listing' ? 'body.orderData.parameters.offer.0' : 'body.orderData.parameters.consideration';
    if (!name) throw new AppError('ENS_NAME_NOT_FOUND', "The order's token is not a name known here", { field: tokenField, reason: 'unknown_name' });
    checkTokenKind(name, terms.token);
    const offerer = order.components.offerer;
    if (terms.kind === 'listing' && name.owner_address !== offerer) throw new AppError('NOT_OWNER', `${name.name} is not owned by ${offerer}`, { field: 'body.orderData.parameters.offerer', reason: 'not_owner' });
    if (terms.kind === 'offer' && name.owner_address === offerer) throw new AppError('INVALID_ORDER', 'You cannot make an offer on a name you own', { field: 'body.orderData.parameters.offerer', reason: 'own_name' });
    if (terms.kind === 'listing' && name.expiry_date !== null && name.expiry_date.getTime() <= Date.now()) {
      throw new AppError('INVALID_ORDER', `${name.name} has expired and cannot be transferred`, { field: tokenField, reason: 'name_expired' });
    }
  }

  /** With an RPC: what the re-check job would find (a listing's ownership and approval, an offer's balance and allowance). */
  private async checkFunds(order: ParsedOrder, terms: ({ kind: 'listing' } & ListingTerms) | ({ kind: 'offer' } & OfferTerms)): Promise<void> {
    const rpc = this.deps.rpc!;
    const seaport = this.deps.config.seaportAddress;
    const problem = terms.kind === 'listing'
      ? await listingChainProblem(rpc, seaport, { seller_address: terms.seller, order_data: order.orderData })
      : await offerChainProblem(rpc, seaport, { buyer_address: terms.buyer, currency_address: terms.currency, offer_amount_wei: terms.amountWei.toString(), order_data: order.orderData });
    if (problem === undefined) return;
    const field = terms.kind === 'listing' ? 'body.orderData.parameters.offer.0' : 'body.orderData.parameters.offer.0.startAmount';
    const text: Record<string, string> = {
      ownership_lost: 'On chain the seller does not hold the name token',
      not_approved: 'The seller has not approved Seaport (or its conduit) for the name token',
      insufficient_balance: 'The buyer does not hold the offered amount',
      insufficient_allowance: 'The buyer has not approved Seaport (or its conduit) for the offered amount',
    };
    throw new AppError('INVALID_ORDER', text[problem] ?? problem, { field, reason: problem });
  }
}
