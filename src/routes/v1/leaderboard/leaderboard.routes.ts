import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { HOLDER_CACHE_SECONDS, LeaderboardService } from '../../../services/leaderboard.service.js';
import { errors } from '../../../contracts/common.js';
import { HolderQuery, HolderResponse } from '../../../contracts/leaderboard.js';

export const leaderboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const leaderboard = new LeaderboardService(app.deps);

  app.get('/leaderboard', {
    config: { cacheSeconds: HOLDER_CACHE_SECONDS },
    schema: {
      tags: ['leaderboard'],
      summary: 'Holder leaderboard: owners ranked by holdings, clubs, listings, sales and volume',
      description: [
        'Read from a precomputed aggregate (one row per owner with at least one active name) that the',
        '`leaderboard.refresh` job rebuilds every 10 minutes, so figures are as fresh as its last run;',
        'responses are then cached up to 12 hours, or until the aggregate changes.',
        'A name is active until its grace period (GRACE_PERIOD_DAYS, 90) after expiry has passed.',
        '`clubs[]` keeps owners holding an active name in any of the given clubs (`clubs=a&clubs=b` and',
        '`clubs=a,b` work too). Ties are broken by address in the sort direction.',
        'Bad `page`, `limit`, `sortBy`, `sortOrder` or club identifiers are 400 VALIDATION_ERROR.',
      ].join(' '),
      querystring: HolderQuery,
      response: { 200: HolderResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => {
    const q = request.query;
    const result = await leaderboard.holders({
      page: q.page,
      limit: q.limit,
      sortBy: q.sortBy,
      sortOrder: q.sortOrder,
      clubs: [...(q['clubs[]'] ?? []), ...(q.clubs ?? [])],
    });
    const { success, data, meta } = ok({ users: result.users }, { sort: result.sort });
    return { success, data, pagination: result.pagination, meta };
  });
};
