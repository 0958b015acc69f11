import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AnalyticsService } from '../../../analytics/index.js';
import { requireUser } from '../../../plugins/auth.js';
import { ok } from '../../../lib/envelope.js';
import { sendKept } from '../../../plugins/kept-answer.js';
import { errors } from '../../../contracts/common.js';
import {
  ByLengthResponse, ClubAnalyticsParams, ClubAnalyticsResponse, ListingsFeedQuery, ListingsFeedResponse, MarketResponse, OffersFeedQuery, OffersFeedResponse,
  PeriodQuery, PriceTrendsResponse, RegistrationsQuery, RegistrationsResponse, SalesFeedQuery, SalesFeedResponse, UserMeResponse, VolumeResponse,
} from '../../../contracts/analytics.js';

const FROM_ROLLUPS = 'Sums come from the hourly and daily market rollups (refreshed every minute by `analytics.rollups`), never from the raw rows.';
/** How fresh an answer is: the service keeps it, not the client (the headers stay `Cache-Control: no-store`). */
const KEPT = 'The service keeps each computed answer until the rollups or snapshots change: the answer is the one a fresh computation ' +
  'gives, at most a second after a refresh committed (at once in the process that ran it), with one worker or several, with or without Redis.';
const FEED = 'One page of the raw rows in index order; `total` is the rollup count of the period (without a status filter) or a bounded count.';
const KEPT_FEED = `${KEPT} Pages of sales and registrations (written by the chain sync only) are kept at most 2 s on top of that.`;
const KEPT_MARKET = 'A page is kept until a statement writes listings or offers (read per request: a change committed before the request is in ' +
  'its answer, in every worker) and at most 1 s (a page computed while a change was being committed, or whose rows\' end time passed meanwhile); ' +
  'the total of a status is counted at most every 15 s.';
const clubsOf = (q: { 'clubs[]'?: string[]; clubs?: string[] }) => [...(q['clubs[]'] ?? []), ...(q.clubs ?? [])];

export const analyticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const analytics = new AnalyticsService(app.deps);
  const tags = ['analytics'];

  app.get('/analytics/market', {
    schema: { tags, summary: 'Market overview of a period', description: `${FROM_ROLLUPS} ${KEPT}`, querystring: PeriodQuery, response: { 200: MarketResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await analytics.market(request.query.period)));

  app.get('/analytics/clubs/:club', {
    schema: {
      tags, summary: 'A club\'s figures over a period', description: `Current stats from club_stats; volume and activity of the period. ${FROM_ROLLUPS}`,
      params: ClubAnalyticsParams, querystring: PeriodQuery, response: { 200: ClubAnalyticsResponse, ...errors('VALIDATION_ERROR', 'NOT_FOUND') },
    },
  }, async (request) => ok(await analytics.club(request.params.club, request.query.period)));

  app.get('/analytics/price-trends', {
    schema: { tags, summary: 'Daily sales count and prices (ETH and WETH)', description: `${FROM_ROLLUPS} ${KEPT}`, querystring: PeriodQuery, response: { 200: PriceTrendsResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await analytics.priceTrends(request.query.period)));

  app.get('/analytics/volume', {
    schema: { tags, summary: 'Sales by price band (ETH and WETH)', description: `${FROM_ROLLUPS} ${KEPT}`, querystring: PeriodQuery, response: { 200: VolumeResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await analytics.volume(request.query.period)));

  app.get('/analytics/registrations', {
    schema: {
      tags, summary: 'Registrations of a period: summary, by label length, and a page of them', description: `${FROM_ROLLUPS} ${FEED} ${KEPT_FEED}`,
      querystring: RegistrationsQuery, response: { 200: RegistrationsResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request, reply) => sendKept(reply, await analytics.registrations({ ...request.query, clubs: clubsOf(request.query) })));

  app.get('/analytics/registrations/by-length', {
    schema: { tags, summary: 'Registration cost by label length', description: `${FROM_ROLLUPS} ${KEPT}`, querystring: PeriodQuery, response: { 200: ByLengthResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await analytics.registrationsByLength(request.query.period)));

  app.get('/analytics/sales', {
    schema: { tags, summary: 'Sales of a period', description: `${FEED} ${KEPT_FEED}`, querystring: SalesFeedQuery, response: { 200: SalesFeedResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await analytics.salesFeed({ ...request.query, clubs: clubsOf(request.query) })));

  app.get('/analytics/listings', {
    schema: { tags, summary: 'Listings created in a period', description: `${FEED} ${KEPT_MARKET}`, querystring: ListingsFeedQuery, response: { 200: ListingsFeedResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await analytics.listingsFeed({ ...request.query, clubs: clubsOf(request.query) })));

  app.get('/analytics/offers', {
    schema: { tags, summary: 'Offers made in a period', description: `${FEED} ${KEPT_MARKET}`, querystring: OffersFeedQuery, response: { 200: OffersFeedResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await analytics.offersFeed({ ...request.query, clubs: clubsOf(request.query) })));

  app.get('/analytics/user/me', {
    config: { auth: 'required' },
    schema: {
      tags, summary: "The caller's activity and portfolio", description: 'names_viewed counts the distinct names whose page you opened while signed in; names_watching the distinct names on your watchlists.',
      response: { 200: UserMeResponse, ...errors('UNAUTHORIZED') },
    },
  }, async (request) => ok(await analytics.me(requireUser(request))));
};
