import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { OrderService, OrderToolsService } from '../../../orders/index.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { jsonStrings, orderDataStrings } from '../../../contracts/order.js';
import {
  BulkOrdersBody, BulkOrdersResult, CancelledOrder, CreateOrderBody, OrderRefParams, OrderValidation, OrderView, SaveOrderBody, UnsignedOrder, ValidateOrderBody,
} from '../../../contracts/orders.js';
import { ORDER_RATE } from '../listings/listings.routes.js';

const ORDER_CHECKS = 'INVALID_ORDER, INVALID_SIGNATURE, NOT_OWNER, UNSUPPORTED_CURRENCY, BROKER_FEE_TOO_HIGH, ENS_NAME_NOT_FOUND, DUPLICATE_ORDER' as const;
const CHECK_CODES = ['INVALID_ORDER', 'INVALID_SIGNATURE', 'NOT_OWNER', 'UNSUPPORTED_CURRENCY', 'BROKER_FEE_TOO_HIGH', 'UNSUPPORTED_ORDER_TYPE', 'ENS_NAME_NOT_FOUND', 'DUPLICATE_ORDER'] as const;

const SAVE_DESCRIPTION = [
  'The original\'s body: `{type, token_id, price_wei, order_data, order_hash?, currency_address?, seller_address?, buyer_address?,',
  'source?, status?, traits?}`; `order_data` is the signed order `{parameters, signature}` as an object or a JSON string of one.',
  '`type: listing` is checked and stored exactly as POST /listings, `type: offer` as POST /offers (see them for every check:',
  'offerer = caller, one name token, accepted currency, owner, signature, with ETH_RPC_URL the Seaport counter, new order).',
  '`token_id`, `price_wei`, `currency_address` and `order_hash` must agree with the signed order (400 INVALID_ORDER, field named',
  'as sent); the order hash is computed here. `seller_address`/`buyer_address` naming someone else: 403 FORBIDDEN.',
  '`collection_offer`: 400 UNSUPPORTED_ORDER_TYPE. A new listing replaces the seller\'s earlier listing of the name.',
].join(' ');

export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const orders = new OrderService(app.deps);
  const tools = new OrderToolsService(app.deps);

  app.post('/orders', {
    config: { auth: 'required', rateLimit: ORDER_RATE },
    preValidation: orderDataStrings(),
    schema: {
      tags: ['orders'],
      summary: 'Save a signed listing or offer (the original\'s body)',
      description: SAVE_DESCRIPTION,
      body: SaveOrderBody,
      response: { 201: Envelope(OrderView), ...errors('VALIDATION_ERROR', ...CHECK_CODES, 'UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED') },
    },
  }, async (request, reply) => reply.code(201).send(ok(await orders.save(requireUser(request), request.body))));

  app.post('/orders/create', {
    config: { rateLimit: ORDER_RATE },
    preValidation: jsonStrings('price', 'tokenId'),
    schema: {
      tags: ['orders'],
      summary: 'Build an unsigned Seaport listing, ready to sign',
      description: [
        'Seaport 1.6 OrderComponents listing the name with token id `tokenId` (registrar or NameWrapper id; a wrapped name is',
        'listed as its NameWrapper ERC-1155 token) for `price` wei of `currency` (ETH by default, or an accepted ERC-20: else',
        '400 UNSUPPORTED_CURRENCY), paid to `offerer`, who must own the name (400 NOT_OWNER), from now for `duration` days',
        '(1–365, default 7), with a random salt and this service\'s contracts. `counter` is the offerer\'s Seaport counter read',
        'from the chain when ETH_RPC_URL is set (`counterSource: rpc`; 503 when the chain does not answer), else 0',
        '(`counterSource: default`). Sign it with EIP-712 under `domain` (primary type OrderComponents) and send it to',
        'POST /orders or POST /listings as `{parameters, signature}`. Nothing is stored.',
      ].join(' '),
      body: CreateOrderBody,
      response: { 200: Envelope(UnsignedOrder), ...errors('VALIDATION_ERROR', 'UNSUPPORTED_CURRENCY', 'NOT_OWNER', 'ENS_NAME_NOT_FOUND', 'RATE_LIMITED') },
    },
  }, async (request) => ok(await tools.draft(request.body)));

  app.post('/orders/validate', {
    config: { rateLimit: ORDER_RATE },
    schema: {
      tags: ['orders'],
      summary: 'Check a signed order without storing it',
      description: [
        '`{orderData}`: the signed order (object or JSON string). Every check of POST /orders without a caller: the shape, the',
        'terms (a listing when it offers a name token, else an offer), the name known and held as traded, the seller owns it (or',
        'the buyer does not), the signature; with ETH_RPC_URL also the Seaport counter and the funds (the seller holds the name',
        'and approved Seaport; the buyer holds and approved the amount); and whether the order is stored already. Always 200:',
        '`valid`, `errors` (each with `field`, the `code` POST /orders would answer, `reason`, `message`, and `expected`/`got`',
        'when known), `messages` (the same as plain strings) and `unchecked` (checks not made: counter and funds without an RPC).',
        `Codes: VALIDATION_ERROR (shape), ${ORDER_CHECKS}.`,
      ].join(' '),
      body: ValidateOrderBody,
      response: { 200: Envelope(OrderValidation), ...errors('VALIDATION_ERROR', 'RATE_LIMITED') },
    },
  }, async (request) => ok(await tools.validate(request.body.orderData)));

  app.post('/orders/bulk', {
    config: { auth: 'required', rateLimit: ORDER_RATE },
    bodyLimit: 1024 * 1024,
    preValidation: orderDataStrings('listings'),
    schema: {
      tags: ['orders'],
      summary: 'Save up to 100 signed listings or offers',
      description: [
        '`{listings: [...]}`: 1 to 100 items, each the body of POST /orders (listings and offers may be mixed). Each item is checked',
        'as POST /orders checks one; the ones that pass are stored in one transaction. Per item: `created` (with `listing_id` or',
        '`offer_id`), `failed` (with `error.code`, `error.message` and `error.field`, e.g. `body.listings.3.order_data.parameters.counter`)',
        'or `skipped` (the same order is already stored, or came earlier in this request; with the stored id). 201 when no item',
        'failed, 207 when some did. An item whose `seller_address`/`buyer_address` names someone else refuses the whole request (403).',
      ].join(' '),
      body: BulkOrdersBody,
      response: {
        201: Envelope(BulkOrdersResult),
        207: { ...Envelope(BulkOrdersResult), description: 'Some items were refused: see each result' },
        ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED', 'PAYLOAD_TOO_LARGE'),
      },
    },
  }, async (request, reply) => {
    const result = await orders.bulk(requireUser(request), request.body);
    return reply.code(result.summary.failed > 0 ? 207 : 201).send(ok(result));
  });

  app.get('/orders/:id', {
    schema: {
      tags: ['orders'],
      summary: 'One listing or offer, by listing id or order hash',
      description: 'A number is a listing id; a 0x hash finds the listing or the offer with that order hash. `order_type` says which.',
      params: OrderRefParams,
      response: { 200: Envelope(OrderView), ...errors('VALIDATION_ERROR', 'ORDER_NOT_FOUND') },
    },
  }, async (request) => ok(await orders.get(request.params.id)));

  app.delete('/orders/:id', {
    config: { auth: 'required' },
    schema: {
      tags: ['orders'],
      summary: 'Cancel your listing or withdraw your offer',
      description: [
        'By listing id or order hash; only the order\'s maker (403 FORBIDDEN otherwise; 404 ORDER_NOT_FOUND when no order has it).',
        'A listing: active or unfunded → cancelled, as DELETE /listings/:id; an offer: → rejected (withdrawn), as PUT /offers/:id',
        'with `status: rejected`. Cancelling again changes nothing; sold listings and accepted offers are final (409 INVALID_STATE).',
        'The signed order stays valid on Seaport until its maker cancels it on chain.',
      ].join(' '),
      params: OrderRefParams,
      response: { 200: Envelope(CancelledOrder), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'ORDER_NOT_FOUND', 'INVALID_STATE') },
    },
  }, async (request) => ok(await orders.cancel(requireUser(request), request.params.id)));
};
