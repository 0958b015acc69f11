import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { CartService } from '../../../services/cart.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { emptyBodyAsObject, jsonStrings } from '../../../contracts/order.js';
import { AddedItem, AddToCartBody, BulkAdded, BulkCartBody, CartContents, CartQuery, CartSummary, Cleared, ClearCartBody, ItemParams, Removed } from '../../../contracts/cart.js';

const TYPES_NOTE = 'Cart types (table `cart_types`): `buy` and `sales` for names with an active listing, `register` and `registrations` for names that are expired (in grace or past it).';

export const cartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const cart = new CartService(app.deps);

  app.post('/cart', {
    config: { auth: 'required' },
    preValidation: jsonStrings('cartType', 'name'),
    schema: {
      tags: ['cart'],
      summary: 'Add a name to one of your carts',
      description: `${TYPES_NOTE} A name that does not fit the cart type is 409 INVALID_STATE (details.reason not_listed / not_expired); the same name twice in one cart is 409 ALREADY_IN_CART.`,
      body: AddToCartBody,
      response: {
        201: Envelope(AddedItem),
        ...errors('VALIDATION_ERROR', 'INVALID_CART_TYPE', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND', 'ALREADY_IN_CART', 'INVALID_STATE'),
      },
    },
  }, async (request, reply) => reply.code(201).send(ok(await cart.add(requireUser(request).id, request.body))));

  app.post('/cart/bulk', {
    config: { auth: 'required' },
    schema: {
      tags: ['cart'],
      summary: 'Add up to 100 names to your carts in one transaction',
      description: `An unknown cart type is 400 INVALID_CART_TYPE and an unknown name 404 ENS_NAME_NOT_FOUND for the whole request (details.field names the item); an item already in the cart or whose name does not fit its type is skipped and listed in \`skipped\` with its reason. ${TYPES_NOTE}`,
      body: BulkCartBody,
      response: { 200: Envelope(BulkAdded), ...errors('VALIDATION_ERROR', 'INVALID_CART_TYPE', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await cart.bulk(requireUser(request).id, request.body)));

  app.get('/cart/summary', {
    config: { auth: 'required' },
    schema: {
      tags: ['cart'],
      summary: 'Counts per cart type, what the purchase carts cost, and a year of registration',
      description: 'Purchase carts: each distinct name once at its newest active listing, totals per currency with their value in wei of ETH (USDC at the latest ETH/USD price) and the sum. Registration carts: one year at $640 (3 characters), $160 (4), $5 (5 or more), in USD and in wei of ETH at the latest ETH/USD price; the premium auction of recently expired names is not included.',
      response: { 200: Envelope(CartSummary), ...errors('UNAUTHORIZED') },
    },
  }, async (request) => ok(await cart.summary(requireUser(request).id)));

  app.get('/cart', {
    config: { auth: 'required' },
    schema: {
      tags: ['cart'],
      summary: 'Your cart items, newest first',
      description: `Each item is the standard search result of its name (active listings, highest offer, votes) with \`cartItemId\`, \`cartType\` and \`addedAt\`. ${TYPES_NOTE}`,
      querystring: CartQuery,
      response: { 200: Envelope(CartContents), ...errors('VALIDATION_ERROR', 'INVALID_CART_TYPE', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await cart.list(requireUser(request).id, request.query)));

  app.delete('/cart/:itemId', {
    config: { auth: 'required' },
    schema: {
      tags: ['cart'],
      summary: 'Remove one of your cart items',
      description: 'An item that is not yours is 404 like one that does not exist.',
      params: ItemParams,
      response: { 200: Envelope(Removed), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'CART_ITEM_NOT_FOUND') },
    },
  }, async (request) => ok(await cart.remove(requireUser(request).id, request.params.itemId)));

  app.delete('/cart', {
    config: { auth: 'required' },
    preValidation: [emptyBodyAsObject, jsonStrings('cartType')],
    schema: {
      tags: ['cart'],
      summary: 'Clear your cart, or one cart type of it',
      description: `Body \`{cartType?}\`; a request without a body clears everything. A cartType that is not a string is 400 VALIDATION_ERROR, an unknown one 400 INVALID_CART_TYPE. ${TYPES_NOTE}`,
      body: ClearCartBody,
      response: { 200: Envelope(Cleared), ...errors('VALIDATION_ERROR', 'INVALID_CART_TYPE', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await cart.clear(requireUser(request).id, request.body.cartType)));
};
