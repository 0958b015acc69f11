import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { ListingService } from '../../../orders/index.js';
import { asJsonText, Envelope, errors, IdParams } from '../../../contracts/common.js';
import { CreateListingBody, Listing, ListingPage, ListingsQuery, NameParams, UpdateListingBody } from '../../../contracts/listings.js';
import { emptyBodyAsObject, jsonStrings } from '../../../contracts/order.js';

export const ORDER_RATE = { max: 120, timeWindow: '1 minute' };

const LIST_DESCRIPTION = [
  'Names past their grace period (`GRACE_PERIOD_DAYS`, 90) are left out, whatever the status.',
  'A listing past its end time is shown as `expired` (never as active), even before the minute-by-minute sweep writes it.',
  '`sort=price`, `minPrice` and `maxPrice` use `value_wei`, the price valued in wei of ETH (WETH 1:1, USDC at the latest ETH/USD',
  'price, kept by the price sync), so listings in different currencies compare; a listing whose value is not known yet',
  '(USDC before any ETH/USD price) sorts as the dearest and matches no price range. Each listing carries `currency_symbol` and',
  '`currency_decimals`. `sort=expiry` orders by the listing\'s end time; listings without one count as',
  'the latest. Ties break on id in the same direction. `data.pagination` is Style B; totals above 1,000 are recounted beside the requests after 30 s and may be up to 90 s old.',
].join(' ');

const CREATE_DESCRIPTION = [
  'Body: `{orderData: {parameters, signature}, source?}` where `parameters` are Seaport 1.6 `OrderComponents` (with `counter`),',
  'signed with EIP-712 (domain Seaport / 1.6, `CHAIN_ID`, `SEAPORT_ADDRESS`). Optional flat claims (`ensNameId, sellerAddress,',
  'priceWei, currencyAddress, expiresAt, orderHash`) must agree with the signed order (else 400 INVALID_ORDER).',
  'The order must offer exactly one name token (base registrar ERC-721, token id = labelhash; NameWrapper ERC-1155 for wrapped',
  'names, token id = namehash) and ask for payment in ETH or an accepted currency (else 400 UNSUPPORTED_CURRENCY). The price is',
  'the sum of the consideration, `expires_at` the end time, a consideration item paid to someone else than the seller is the',
  'broker fee, at most BROKER_MAX_FEE_BPS of the price (400 BROKER_FEE_TOO_HIGH). The offerer must be the caller (400 INVALID_ORDER) and own the name (400 NOT_OWNER); the signature must be the',
  'seller\'s (400 INVALID_SIGNATURE; EIP-1271 wallets when ETH_RPC_URL is set). The order hash is computed by the service.',
  'The same order twice is 409 DUPLICATE_ORDER. The seller\'s earlier listing of the name is cancelled (replaced).',
].join(' ');

export const listingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const listings = new ListingService(app.deps);

  app.get('/listings', {
    schema: {
      tags: ['listings'],
      summary: 'Browse listings',
      description: LIST_DESCRIPTION,
      querystring: ListingsQuery,
      response: { 200: Envelope(ListingPage), ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await listings.list(request.query)));

  app.get('/listings/name/:name', {
    schema: {
      tags: ['listings'],
      summary: 'Active listings of a name, newest first',
      description: 'An empty list when the name has no active listing.',
      params: NameParams,
      response: { 200: Envelope(asJsonText(Type.Array(Listing))), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'ENS_NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await listings.activeOfName(request.params.name)));

  app.get('/listings/:id', {
    schema: {
      tags: ['listings'],
      summary: 'One listing',
      params: IdParams,
      response: { 200: Envelope(Listing), ...errors('VALIDATION_ERROR', 'LISTING_NOT_FOUND') },
    },
  }, async (request) => ok(await listings.get(request.params.id)));

  app.post('/listings', {
    config: { auth: 'required', rateLimit: ORDER_RATE },
    preValidation: jsonStrings('priceWei'),
    schema: {
      tags: ['listings'],
      summary: 'List a name for sale with a signed Seaport order',
      description: CREATE_DESCRIPTION,
      body: CreateListingBody,
      response: {
        201: Envelope(Listing),
        ...errors('VALIDATION_ERROR', 'INVALID_ORDER', 'INVALID_SIGNATURE', 'NOT_OWNER', 'UNSUPPORTED_CURRENCY', 'BROKER_FEE_TOO_HIGH', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND', 'DUPLICATE_ORDER', 'RATE_LIMITED'),
      },
    },
  }, async (request, reply) => {
    const listing = await listings.create(requireUser(request), request.body);
    return reply.code(201).send(ok(listing));
  });

  app.delete('/listings/:id', {
    config: { auth: 'required' },
    schema: {
      tags: ['listings'],
      summary: 'Cancel your listing',
      description: [
        'Only the seller (403 otherwise). active or unfunded → cancelled; cancelling again changes nothing; sold or expired',
        'listings are final (409 INVALID_STATE). This takes the listing off the marketplace; the signed order itself stays',
        'valid on Seaport until the seller cancels it on chain (which the chain sync then records).',
      ].join(' '),
      params: IdParams,
      response: { 200: Envelope(Listing), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'LISTING_NOT_FOUND', 'INVALID_STATE') },
    },
  }, async (request) => ok(await listings.cancel(requireUser(request), request.params.id)));

  app.put('/listings/:id', {
    config: { auth: 'required', rateLimit: ORDER_RATE },
    preValidation: [emptyBodyAsObject, jsonStrings('priceWei')],
    schema: {
      tags: ['listings'],
      summary: 'Change your listing\'s price with a re-signed order',
      description: [
        'Body: `{orderData, priceWei?, expiresAt?, source?}`. A Seaport order executes at the price it was signed for, so a new price',
        '(or end time, or currency) comes as the seller\'s re-signed order for the same name (400 INVALID_ORDER otherwise); it is',
        'checked as POST /listings checks a new one, and `priceWei`/`expiresAt`, when sent, must agree with it. Only the seller',
        '(403); only an active or unfunded listing (409 INVALID_STATE). In one transaction, under the name\'s lock, the listing is',
        'cancelled and the new order stored as a new listing (new id, returned), so the name has exactly one active listing.',
        'An empty body is 400 NO_UPDATES; `priceWei`/`expiresAt` without `orderData` is 400 VALIDATION_ERROR (field body.orderData).',
      ].join(' '),
      params: IdParams,
      body: UpdateListingBody,
      response: {
        200: Envelope(Listing),
        ...errors('NO_UPDATES', 'VALIDATION_ERROR', 'INVALID_ORDER', 'INVALID_SIGNATURE', 'NOT_OWNER', 'UNSUPPORTED_CURRENCY', 'UNAUTHORIZED', 'FORBIDDEN', 'LISTING_NOT_FOUND', 'ENS_NAME_NOT_FOUND', 'INVALID_STATE', 'DUPLICATE_ORDER', 'RATE_LIMITED'),
      },
    },
  }, async (request) => ok(await listings.update(requireUser(request), request.params.id, request.body)));
};
