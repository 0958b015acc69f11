import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { TrendingService } from '../../../services/trending.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { TrendingComposite, TrendingOffers, TrendingQuery, TrendingSales, TrendingViews, TrendingVotes, TrendingWatchlist } from '../../../contracts/trending.js';

export const trendingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const trending = new TrendingService(app.deps);

  app.get('/trending/votes', {
    config: { auth: 'optional' },
    schema: {
      tags: ['votes'],
      summary: 'Names ranked by votes cast in the last 24 hours or 7 days',
      description:
        'Each name is a standard search result plus `trending_metrics`. What counts: for each user and name, the ' +
        "user's latest vote on that name cast within the period (whole UTC hours: the current hour and the 24, or 168, " +
        'before it), once: 1 as a period upvote, -1 as a period downvote, ' +
        'a removal not at all (so re-casting never inflates a name). Ranked by period_votes descending, then ' +
        'period_upvotes descending, then name id ascending; names with no counted vote in the period are left out.\n\n' +
        "Effect of authentication: with a valid bearer token each entry also carries `user_vote`, the caller's current " +
        'vote on the name (1, -1 or null); without a token the field is absent. The ranking is the same for everyone. ' +
        'A bad token is 401.',
      querystring: TrendingQuery,
      response: { 200: Envelope(TrendingVotes), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await trending.votes(request.query.period, request.query.limit, request.user?.id)));

  const common = 'Each name is a standard search result plus `trending_metrics`. A period is whole UTC hours: the current ' +
    'hour and the 24 (7d: 168) before it. Read from the trend counters that each event keeps in its own transaction. ' +
    "With a valid bearer token each entry also carries the caller's `user_vote`; a bad token is 401.";
  const errs = errors('VALIDATION_ERROR', 'UNAUTHORIZED');

  app.get('/trending/views', {
    config: { auth: 'optional' },
    schema: {
      tags: ['votes'],
      summary: 'Names ranked by page views in the last 24 hours or 7 days',
      description: `${common}\n\nA view counts once per viewer and UTC day. Ranked by period_views descending, then name id.`,
      querystring: TrendingQuery,
      response: { 200: Envelope(TrendingViews), ...errs },
    },
  }, async (request) => ok(await trending.views(request.query.period, request.query.limit, request.user?.id)));

  app.get('/trending/sales', {
    config: { auth: 'optional' },
    schema: {
      tags: ['votes'],
      summary: 'Names ranked by sales in the last 24 hours or 7 days',
      description: `${common}\n\nEvery recorded sale counts (our order book and other Seaport orders). Ranked by period_sales ` +
        'descending, then name id. Prices are valued in wei of ETH (WETH as ETH, USDC at the latest ETH/USD price).',
      querystring: TrendingQuery,
      response: { 200: Envelope(TrendingSales), ...errs },
    },
  }, async (request) => ok(await trending.sales(request.query.period, request.query.limit, request.user?.id)));

  app.get('/trending/offers', {
    config: { auth: 'optional' },
    schema: {
      tags: ['votes'],
      summary: 'Names ranked by offers made in the last 24 hours or 7 days',
      description: `${common}\n\nEvery offer placed counts, whatever became of it. Ranked by period_offers descending, then ` +
        'name id. Amounts are valued in wei of ETH.',
      querystring: TrendingQuery,
      response: { 200: Envelope(TrendingOffers), ...errs },
    },
  }, async (request) => ok(await trending.offers(request.query.period, request.query.limit, request.user?.id)));

  app.get('/trending/watchlist', {
    config: { auth: 'optional' },
    schema: {
      tags: ['votes'],
      summary: 'Names ranked by watchlist additions in the last 24 hours or 7 days',
      description: `${common}\n\nEach watchlist entry added in the period counts once, in the hour it was added; removing it takes it back ` +
        '(so add-remove-add never inflates a name). Ranked by period_additions descending, then name id; total_watchers is the number ' +
        'of distinct users watching the name now.',
      querystring: TrendingQuery,
      response: { 200: Envelope(TrendingWatchlist), ...errs },
    },
  }, async (request) => ok(await trending.watchlist(request.query.period, request.query.limit, request.user?.id)));

  app.get('/trending/composite', {
    config: { auth: 'optional' },
    schema: {
      tags: ['votes'],
      summary: 'Names ranked by a weighted score of every signal',
      description: `${common}\n\ntrending_score = 1 × views + 5 × watchlist adds + 3 × upvotes − 1 × downvotes + 10 × offers + ` +
        '8 × listings + 50 × sales in the period (the weights are in `meta.score_weights`; votes as in /trending/votes). ' +
        'Ranked by trending_score descending, then name id; names with a score of 0 or less are left out.',
      querystring: TrendingQuery,
      response: { 200: Envelope(TrendingComposite), ...errs },
    },
  }, async (request) => ok(await trending.composite(request.query.period, request.query.limit, request.user?.id)));
};
