import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { BrokeredListingsService } from '../../../services/brokered-listings.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { orderDataStrings } from '../../../contracts/order.js';
import { Listing } from '../../../contracts/listings.js';
import { BROKER_STATS_SECONDS, BrokerConfig, BrokerListingsPage, BrokerListingsQuery, BrokerParams, BrokerStats, CreateBrokeredListingBody } from '../../../contracts/brokered-listings.js';
import { ORDER_RATE } from '../listings/listings.routes.js';

const CREATE_DESCRIPTION = [
  'A listing whose signed order also pays a broker. `seller_address` must be the caller (403 FORBIDDEN) and differ from',
  '`broker_address` (400 SELF_BROKER_NOT_ALLOWED); `broker_fee_bps` must be at least BROKER_MIN_FEE_BPS (400 BROKER_FEE_TOO_LOW)',
  'and at most BROKER_MAX_FEE_BPS (400 BROKER_FEE_TOO_HIGH). The order (`order_data`, object or JSON string) must have exactly',
  'one consideration item paid to the broker, in the currency the seller is paid in, of `broker_fee_bps` of the price (the sum',
  'of the consideration, what the buyer pays; to the wei either way), else 400 INVALID_FEE with `details.reason` (no_broker_item,',
  'several_broker_items, fee_currency, fee_amount) and `details.field`. Then every check of POST /orders for a listing: offerer =',
  'caller, one name token, accepted currency, owner (400 NOT_OWNER), signature, with ETH_RPC_URL the Seaport counter; `token_id`,',
  '`price_wei`, `currency_address`, `order_hash` and `expires_at` must agree with the order (400 INVALID_ORDER). Stored as a',
  'listing with `broker_address` and `broker_fee_bps`; the seller\'s earlier listing of the name is replaced; the same order',
  'twice is 409 DUPLICATE_ORDER.',
].join(' ');

export const brokeredListingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const brokered = new BrokeredListingsService(app.deps);

  app.get('/brokered-listings/config', {
    schema: {
      tags: ['brokered-listings'],
      summary: 'Broker fee bounds',
      description: 'The least fee a brokered listing may set (`minFeeBasisPoints`, BROKER_MIN_FEE_BPS) and the most a fee item of any listing may take (`maxFeeBasisPoints`, BROKER_MAX_FEE_BPS), in basis points and percent.',
      response: { 200: Envelope(BrokerConfig) },
    },
  }, async () => ok(brokered.config()));

  app.post('/brokered-listings', {
    config: { auth: 'required', rateLimit: ORDER_RATE },
    preValidation: orderDataStrings(),
    schema: {
      tags: ['brokered-listings'],
      summary: 'List a name through a broker',
      description: CREATE_DESCRIPTION,
      body: CreateBrokeredListingBody,
      response: {
        201: Envelope(Listing),
        ...errors('VALIDATION_ERROR', 'SELF_BROKER_NOT_ALLOWED', 'BROKER_FEE_TOO_LOW', 'BROKER_FEE_TOO_HIGH', 'INVALID_FEE', 'INVALID_ORDER', 'INVALID_SIGNATURE',
          'NOT_OWNER', 'UNSUPPORTED_CURRENCY', 'UNAUTHORIZED', 'FORBIDDEN', 'ENS_NAME_NOT_FOUND', 'DUPLICATE_ORDER', 'RATE_LIMITED'),
      },
    },
  }, async (request, reply) => reply.code(201).send(ok(await brokered.create(requireUser(request), request.body))));

  app.get('/brokered-listings/broker/:address', {
    schema: {
      tags: ['brokered-listings'],
      summary: 'Names listed through a broker',
      description: [
        'The names this broker has listings of (only those with one in `status`, when given; past its end time reads as',
        'expired), the newest brokered listing first, each as global search shows a name with `listings` replaced by this',
        'broker\'s listings of it (with `status` and `created_at`). Style B pagination.',
      ].join(' '),
      params: BrokerParams,
      querystring: BrokerListingsQuery,
      response: { 200: Envelope(BrokerListingsPage), ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await brokered.byBroker(request.params.address, request.query)));

  app.get('/brokered-listings/stats', {
    schema: {
      tags: ['brokered-listings'],
      summary: 'Brokered listing totals',
      description: 'Over every brokered listing (one with a broker fee item): how many are active now, how many sold, how many distinct brokers, and the mean fee in basis points (null when there are none). Summed again at most every 30 seconds.',
      response: { 200: Envelope(BrokerStats) },
    },
    config: { cacheSeconds: BROKER_STATS_SECONDS },
  }, async () => ok(await brokered.stats()));
};
