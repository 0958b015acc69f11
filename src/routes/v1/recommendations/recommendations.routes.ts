import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errors } from '../../../contracts/common.js';
import { AlsoViewedParams, AlsoViewedQuery, LimitQuery, RecommendationPage } from '../../../contracts/recommendations.js';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { PersonalRecommendationService } from '../../../services/personal-recommendations.service.js';

const FALLBACKS =
  'When the people-based signal gives fewer than `limit` names (a new user, a name nobody viewed yet), the rest comes from ' +
  'fallbacks that need no one\'s history: the suggestion generator on your names, names in their clubs, then this week\'s ' +
  'trending, the most upvoted and names in the most clubs. Each name\'s `recommendation_metrics.source` says where it came ' +
  'from and `meta.sources` lists them. Names are standard search results; names you own, watch or voted on are left out ' +
  'where they apply. The ranking is kept 30 s per user; no HTTP cache.';

export const recommendationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const recs = new PersonalRecommendationService(app.deps);
  const alsoViewed = (where: string) =>
    `Names that the people who viewed ${where} also viewed in the last 30 days (one view per viewer and UTC day), ranked by ` +
    `shared viewers, then their views. With a valid token your own views are left out and results carry \`user_vote\`. ${FALLBACKS} ` +
    'Errors: 400 INVALID_NAME; 404 ENS_NAME_NOT_FOUND.';
  const alsoViewedResponse = { 200: Envelope(RecommendationPage), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND') };

  app.get('/recommendations/also-viewed', {
    config: { auth: 'optional' },
    schema: { tags: ['recommendations'], summary: 'Names viewed by the viewers of a name', description: alsoViewed('`name`'), querystring: AlsoViewedQuery, response: alsoViewedResponse },
  }, async (request) => ok(await recs.alsoViewed(request.query.name, 'query.name', request.query.limit, request.user?.id)));

  app.get('/recommendations/also-viewed/:name', {
    config: { auth: 'optional' },
    schema: { tags: ['recommendations'], summary: 'Names viewed by the viewers of a name (name in the path)', description: alsoViewed('the name'), params: AlsoViewedParams, querystring: LimitQuery, response: alsoViewedResponse },
  }, async (request) => ok(await recs.alsoViewed(request.params.name, 'params.name', request.query.limit, request.user?.id)));

  app.get('/recommendations/similar-to-watchlist', {
    config: { auth: 'required' },
    schema: {
      tags: ['recommendations'],
      summary: 'Names watched by people whose watchlists look like yours',
      description: `Peers are the users watching the most of your recently watched names; each of their names scores the overlap of the peers watching it. ${FALLBACKS}`,
      querystring: LimitQuery,
      response: { 200: Envelope(RecommendationPage), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await recs.similarToWatchlist(requireUser(request), request.query.limit)));

  app.get('/recommendations/based-on-votes', {
    config: { auth: 'required' },
    schema: {
      tags: ['recommendations'],
      summary: 'Names upvoted by people who upvote what you upvote',
      description: `Peers are the users who upvoted the most of your recent upvotes; each name they upvoted scores the overlap of those peers. ${FALLBACKS}`,
      querystring: LimitQuery,
      response: { 200: Envelope(RecommendationPage), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await recs.basedOnVotes(requireUser(request), request.query.limit)));

  app.get('/recommendations/for-you', {
    config: { auth: 'required' },
    schema: {
      tags: ['recommendations'],
      summary: 'Your blend of every signal',
      description: `Per name: watchlist score × 3 + vote score × 2 + the also-viewed score of the names you viewed × 1 (\`meta.score_weights\`). ${FALLBACKS}`,
      querystring: LimitQuery,
      response: { 200: Envelope(RecommendationPage), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await recs.forYou(requireUser(request), request.query.limit)));
};
