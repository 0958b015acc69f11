import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { AWARDS_CACHE_SECONDS, AwardsService } from '../../../services/awards.service.js';
import { errors } from '../../../contracts/common.js';
import { AwardsQuery, AwardsResponse } from '../../../contracts/awards.js';

export const awardsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const awards = new AwardsService(app.deps);

  app.get('/awards-leaderboard', {
    config: { cacheSeconds: AWARDS_CACHE_SECONDS },
    schema: {
      tags: ['leaderboard'],
      summary: 'Referral-award leaderboard: registrations and renewals made with our referrer code',
      description: [
        'Counts registrations (by registrant) and renewals (by renewer) made with REFERRER_CODE since',
        'program_start 2026-04-01T00:00:00Z. points = floor(total_duration_years); base_cost_usd = 5 × years;',
        'base_cost_eth sums, per event, 5 USD × its years ÷ the ETH/USD price of its UTC day (the nearest',
        'earlier price when the day is missing, else the nearest later one). `rank` is the position in the',
        'chosen sort; ties are broken by address in the sort direction. Sorting by base_cost_usd orders by',
        'total duration. Read from a precomputed aggregate that the `awards.refresh` job rebuilds every 5',
        'minutes, so figures are as fresh as its last run; cached 5 minutes.',
      ].join(' '),
      querystring: AwardsQuery,
      response: { 200: AwardsResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => {
    const result = await awards.leaderboard(request.query);
    const { success, data, meta } = ok({ users: result.users }, result.meta);
    return { success, data, pagination: result.pagination, meta };
  });
};
