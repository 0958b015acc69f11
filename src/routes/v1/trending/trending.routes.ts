import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { TrendingService } from '../../../services/trending.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { TrendingQuery, TrendingVotes } from '../../../contracts/trending.js';

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
};
