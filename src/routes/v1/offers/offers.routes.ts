import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { OfferService } from '../../../orders/index.js';
import { Envelope, errors, IdParams } from '../../../contracts/common.js';
import { ORDER_RATE } from '../listings/listings.routes.js';
import { NameParams } from '../../../contracts/listings.js';
import { emptyBodyAsObject, jsonStrings } from '../../../contracts/order.js';
import { AddressParams, CreateOfferBody, Offer, OfferPage, OffersPathQuery, OffersQuery, UpdateOfferBody } from '../../../contracts/offers.js';

const LIST_ERRORS = errors('VALIDATION_ERROR', 'INVALID_NAME', 'ENS_NAME_NOT_FOUND');
const LIST_NOTE = 'Newest first unless `sort=amount`; an offer past its end time shows as `expired`. `data.pagination` is Style B.';

const UPDATE_DESCRIPTION = [
  'Roles: `status: rejected` (withdraw) only by the buyer; `status: accepted` only by the owner of the name; any other change',
  '(other statuses, the amount) by the buyer or the owner; anyone else 403 FORBIDDEN.',
  'Status moves (anything else is 409 INVALID_STATE; sending the current status again changes nothing):',
  'pending → accepted, rejected, expired or unfunded; unfunded → pending (funds back), rejected or expired;',
  'expired → rejected, or pending only while the order has not passed its end time. accepted and rejected are final.',
  'An offer past its end time counts as expired whatever its stored status.',
  '`offerAmountWei` replaces the amount of a pending or unfunded offer (409 otherwise); the status stays as it is.',
  'The signed Seaport order is what executes on chain: an amount changed without a new signature is what the marketplace',
  'shows and ranks, and the buyer backs it by sending the re-signed order as `orderData` (optional, buyer only; same name and',
  'currency, amount = offerAmountWei when both are sent; it replaces the stored order and hash).',
  'Whenever the amount or the status changes, the name\'s highest offer (only pending offers before their end time) is',
  'recalculated in the same transaction, under a row lock on the name. Notifications: offer_accepted / offer_rejected to the',
  'buyer; offer_updated to the other party when the amount changes. Marking an offer unfunded sets unfunded_reason',
  '`marked_by_user`, which only a user clears.',
].join(' ');

export const offerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const offers = new OfferService(app.deps);

  app.get('/offers', {
    schema: {
      tags: ['offers'],
      summary: 'Browse offers (filters: buyer, name, status, owner)',
      description: `\`owner\`: offers on names that address owns. ${LIST_NOTE}`,
      querystring: OffersQuery,
      response: { 200: Envelope(OfferPage), ...LIST_ERRORS },
    },
  }, async (request) => ok(await offers.list(request.query)));

  app.get('/offers/buyer/:address', {
    schema: { tags: ['offers'], summary: 'Offers made by an address', description: LIST_NOTE, params: AddressParams, querystring: OffersPathQuery, response: { 200: Envelope(OfferPage), ...LIST_ERRORS } },
  }, async (request) => ok(await offers.list({ ...request.query, buyer: request.params.address })));

  app.get('/offers/owner/:address', {
    schema: { tags: ['offers'], summary: 'Offers on names an address owns', description: LIST_NOTE, params: AddressParams, querystring: OffersPathQuery, response: { 200: Envelope(OfferPage), ...LIST_ERRORS } },
  }, async (request) => ok(await offers.list({ ...request.query, owner: request.params.address })));

  app.get('/offers/name/:name', {
    schema: { tags: ['offers'], summary: 'Offers on a name', description: LIST_NOTE, params: NameParams, querystring: OffersPathQuery, response: { 200: Envelope(OfferPage), ...LIST_ERRORS } },
  }, async (request) => ok(await offers.list({ ...request.query, name: request.params.name })));

  app.get('/offers/:id', {
    schema: { tags: ['offers'], summary: 'One offer', params: IdParams, response: { 200: Envelope(Offer), ...errors('VALIDATION_ERROR', 'OFFER_NOT_FOUND') } },
  }, async (request) => ok(await offers.get(request.params.id)));

  app.post('/offers', {
    config: { auth: 'required', rateLimit: ORDER_RATE },
    preValidation: jsonStrings('offerAmountWei'),
    schema: {
      tags: ['offers'],
      summary: 'Make an offer on a name with a signed Seaport order',
      description: [
        'Body: `{orderData: {parameters, signature}, source?}` (Seaport 1.6 OrderComponents with counter, EIP-712 signed) plus',
        'optional flat claims `ensNameId, buyerAddress, offerAmountWei, currencyAddress, expiresAt, orderHash` that must agree with',
        'the order (400 INVALID_ORDER). The order gives one amount of an accepted ERC-20 (`ACCEPTED_CURRENCIES`, WETH by default;',
        'else 400 UNSUPPORTED_CURRENCY) and asks for one name token sent to the offerer; further items in the same currency are fees.',
        'The offerer must be the caller and not the owner (400 INVALID_ORDER), the signature the buyer\'s (400 INVALID_SIGNATURE).',
        'The same order twice is 409 DUPLICATE_ORDER. The owner of the name is notified (offer_received).',
      ].join(' '),
      body: CreateOfferBody,
      response: {
        201: Envelope(Offer),
        ...errors('VALIDATION_ERROR', 'INVALID_ORDER', 'INVALID_SIGNATURE', 'UNSUPPORTED_CURRENCY', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND', 'DUPLICATE_ORDER', 'RATE_LIMITED'),
      },
    },
  }, async (request, reply) => {
    const offer = await offers.create(requireUser(request), request.body);
    return reply.code(201).send(ok(offer));
  });

  app.put('/offers/:id', {
    config: { auth: 'required' },
    preValidation: [emptyBodyAsObject, jsonStrings('offerAmountWei', 'status')],
    schema: {
      tags: ['offers'],
      summary: 'Update an offer\'s amount or status',
      description: UPDATE_DESCRIPTION,
      params: IdParams,
      body: UpdateOfferBody,
      response: {
        200: Envelope(Offer),
        ...errors('NO_UPDATES', 'VALIDATION_ERROR', 'INVALID_ORDER', 'INVALID_SIGNATURE', 'UNSUPPORTED_CURRENCY', 'UNAUTHORIZED', 'FORBIDDEN', 'OFFER_NOT_FOUND', 'INVALID_STATE', 'DUPLICATE_ORDER'),
      },
    },
  }, async (request) => ok(await offers.update(requireUser(request), request.params.id, request.body)));
};
