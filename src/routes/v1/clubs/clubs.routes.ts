import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { meta, ok } from '../../../lib/envelope.js';
import { ensureBuiltInClubs } from '../../../services/clubs.service.js';
import { CLUB_CACHE_SECONDS, CLUB_LIST_CACHE_SECONDS, ClubDirectory } from '../../../analytics/index.js';
import { errors } from '../../../contracts/common.js';
import {
  AllHoldersQuery, ClubPageQuery, ClubParams, ClubResponse, ClubsQuery, ClubsResponse, CountsParams, CountsResponse, HoldersQuery, HoldersResponse,
} from '../../../contracts/clubs.js';

const FIGURES = 'Figures come from `club_stats`, rebuilt every 10 minutes by the `clubs.stats` job from the names and the market rollups; `member_count` is kept by every name write.';

export const clubsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const clubs = new ClubDirectory(app.deps);

  // Built-in clubs follow the rules in code: a rule new to this database gets its row at start-up,
  // and a job gives it its members.
  app.addHook('onReady', async () => {
    const created = await ensureBuiltInClubs(app.deps.db);
    if (created.length > 0) await app.deps.jobs.send('clubs.refresh', { resync: true });
  });

  app.get('/clubs', {
    config: { cacheSeconds: CLUB_LIST_CACHE_SECONDS },
    schema: {
      tags: ['clubs'],
      summary: 'Every club with its market figures',
      description: [
        'Built-in clubs (membership by rule on the label: 999, 10k, 100k, 3- and 4-digit palindromes, 3-letters) and clubs loaded',
        'from CSV lists (`npm run clubs:import`). Sorted by `sortBy` (ties by name); `class[]` keeps clubs with any of the',
        'classifications; `search` matches name, display name or description.', FIGURES,
      ].join(' '),
      querystring: ClubsQuery,
      response: { 200: ClubsResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await clubs.list({ ...request.query, classes: [...(request.query['class[]'] ?? []), ...(request.query.class ?? [])] })));

  app.get('/clubs/holders', {
    config: { cacheSeconds: CLUB_CACHE_SECONDS },
    schema: {
      tags: ['clubs'],
      summary: 'Owners of names in any of the given clubs (all clubs without clubs[])',
      description: 'Registered and grace-period names only; each name counts once however many of the clubs it is in. One club or none reads the precomputed holders; several are aggregated over their members (cached 15 s). Pagination beside `data` (`pages`), as the original marketplace answers.',
      querystring: AllHoldersQuery,
      response: { 200: HoldersResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ({ success: true as const, ...(await clubs.allHolders([...(request.query['clubs[]'] ?? []), ...(request.query.clubs ?? [])], request.query.page, request.query.limit, request.query.sortOrder)), meta: meta() }));

  app.get('/clubs/counts/:key', {
    schema: {
      tags: ['clubs'],
      summary: 'Names per club of an owner, or of the premium or available status',
      description: 'With an address: the owner\'s registered and grace names per club. With `premium` (expired 90 to 111 days ago) or `available` (longer, or never registered): members in that status per club, from `club_stats`. `any` counts each name once.',
      params: CountsParams,
      response: { 200: CountsResponse, ...errors('INVALID_ADDRESS') },
    },
  }, async (request) => ok(await clubs.counts(request.params.key)));

  app.get('/clubs/:club', {
    config: { cacheSeconds: CLUB_CACHE_SECONDS },
    schema: {
      tags: ['clubs'],
      summary: 'A club with its figures and a page of its member names',
      description: `Members in alphabetical order as standard search results; the total is the member count. ${FIGURES}`,
      params: ClubParams,
      querystring: ClubPageQuery,
      response: { 200: ClubResponse, ...errors('VALIDATION_ERROR', 'NOT_FOUND') },
    },
  }, async (request) => ok(await clubs.get(request.params.club, request.query.page, request.query.limit, request.user?.id)));

  app.get('/clubs/:club/holders', {
    config: { cacheSeconds: CLUB_CACHE_SECONDS },
    schema: {
      tags: ['clubs'],
      summary: 'Owners of the club\'s names, by how many they hold',
      description: 'Registered and grace-period names only, from the precomputed `club_holders`. Pagination beside `data` (`pages`), as the original marketplace answers.',
      params: ClubParams,
      querystring: HoldersQuery,
      response: { 200: HoldersResponse, ...errors('VALIDATION_ERROR', 'NOT_FOUND') },
    },
  }, async (request) => ({ success: true as const, ...(await clubs.holders(request.params.club, request.query.page, request.query.limit, request.query.sortOrder)), meta: meta() }));
};
