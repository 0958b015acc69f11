import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { UserHistoryService } from '../../../services/user-history.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { HistoryQuery, OfferHistory, PurchaseHistory, SaleHistory, ViewedHistory, VotedHistory, WatchedHistory } from '../../../contracts/user-history.js';

const tags = ['user history'];
const COMMON = 'Signed-in; your own rows only, newest first, each name as a standard search result (with your `user_vote` and `is_user_watching`) plus the fields below. Style B pagination. Not cached.';
const errs = errors('VALIDATION_ERROR', 'UNAUTHORIZED');

export const userHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const history = new UserHistoryService(app.deps);
  const route = { config: { auth: 'required' as const } };

  app.get('/user/history/viewed', {
    ...route,
    schema: {
      tags, summary: 'Names you viewed', querystring: HistoryQuery, response: { 200: Envelope(ViewedHistory), ...errs },
      description: `${COMMON} Each name once, by the UTC day of your latest view of its page (views are counted per viewer and day and written within seconds).`,
    },
  }, async (request) => ok(await history.viewed(requireUser(request), request.query)));

  app.get('/user/history/watched', {
    ...route,
    schema: {
      tags, summary: 'Names on your watchlists', querystring: HistoryQuery, response: { 200: Envelope(WatchedHistory), ...errs },
      description: `${COMMON} Each name once (whatever the lists), by when you last added it; \`notifications\` are its flags, any list counting.`,
    },
  }, async (request) => ok(await history.watched(requireUser(request), request.query)));

  app.get('/user/history/voted', {
    ...route,
    schema: {
      tags, summary: 'Names you have a vote on', querystring: HistoryQuery, response: { 200: Envelope(VotedHistory), ...errs },
      description: `${COMMON} By when you cast or last changed the vote; a removed vote is not listed.`,
    },
  }, async (request) => ok(await history.voted(requireUser(request), request.query)));

  app.get('/user/history/offers', {
    ...route,
    schema: {
      tags, summary: 'Offers you made', querystring: HistoryQuery, response: { 200: Envelope(OfferHistory), ...errs },
      description: `${COMMON} Every offer from your address in any status, by creation.`,
    },
  }, async (request) => ok(await history.offers(requireUser(request), request.query)));

  app.get('/user/history/purchases', {
    ...route,
    schema: {
      tags, summary: 'Names you bought', querystring: HistoryQuery, response: { 200: Envelope(PurchaseHistory), ...errs },
      description: `${COMMON} Sales with your address as buyer (ours and other Seaport sales read from the chain), by sale time.`,
    },
  }, async (request) => ok(await history.purchases(requireUser(request), request.query)));

  app.get('/user/history/sales', {
    ...route,
    schema: {
      tags, summary: 'Names you sold', querystring: HistoryQuery, response: { 200: Envelope(SaleHistory), ...errs },
      description: `${COMMON} Sales with your address as seller, by sale time.`,
    },
  }, async (request) => ok(await history.sold(requireUser(request), request.query)));
};
