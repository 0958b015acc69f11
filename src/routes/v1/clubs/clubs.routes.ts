import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { ClubsService, ensureBuiltInClubs } from '../../../services/clubs.service.js';
import { errors } from '../../../contracts/common.js';
import { ClubsResponse } from '../../../contracts/clubs.js';

export const clubsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const clubs = new ClubsService(app.deps);

  // Built-in clubs follow the rules in code: a rule new to this database gets its row at start-up,
  // and a job gives it its members.
  app.addHook('onReady', async () => {
    const created = await ensureBuiltInClubs(app.deps.db);
    if (created.length > 0) await app.deps.jobs.send('clubs.refresh', { resync: true });
  });

  app.get('/clubs', {
    schema: {
      tags: ['clubs'],
      summary: 'Every club with its member count',
      description: [
        'Built-in clubs (membership by rule on the label: 999, 10k, 100k, 3- and 4-digit palindromes,',
        '3-letters) in catalogue order, then clubs loaded from CSV lists (`npm run clubs:import`) by name.',
        '`member_count` counts the names in the database that carry the club; it is kept current on every',
        'name write and re-checked by the `clubs.refresh` job.',
      ].join(' '),
      response: { 200: ClubsResponse, ...errors() },
    },
  }, async () => ok({ clubs: await clubs.list() }));
};
