import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { VoteService, type VoteValue } from '../../../services/votes.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { CastVoteBody, EnsNameParams, Leaderboard, LeaderboardQuery, VoteStats } from '../../../contracts/votes.js';

export const voteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const votes = new VoteService(app.deps);

  app.post('/votes', {
    config: { auth: 'required', rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: {
      tags: ['votes'],
      summary: 'Cast, change or remove your vote on a name',
      description:
        'One vote per user and name: casting again replaces it, `vote: 0` removes it. Every cast is also recorded ' +
        'with its time (trending counts). Returns the name\'s counts after the cast. Rate limit: 120 requests per minute per IP.',
      body: CastVoteBody,
      response: { 200: Envelope(VoteStats), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND', 'RATE_LIMITED') },
    },
  }, async (request) => ok(await votes.cast(requireUser(request).id, request.body.ensName, request.body.vote as VoteValue)));

  // A static path: find-my-way matches it before the parametric /votes/:ensName below.
  app.get('/votes/leaderboard', {
    config: { auth: 'none' },
    schema: {
      tags: ['votes'],
      summary: 'Top-voted names',
      description:
        'Only names with at least one vote, sorted by `sortBy` descending; ties are broken by name id ascending, ' +
        'so the order is stable across pages. `activeListing` is present only when the name has an active, unexpired ' +
        'listing (the newest one).',
      querystring: LeaderboardQuery,
      response: { 200: Envelope(Leaderboard), ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await votes.leaderboard(request.query.page, request.query.limit, request.query.sortBy)));

  app.get('/votes/:ensName', {
    config: { auth: 'optional' },
    schema: {
      tags: ['votes'],
      summary: 'Vote statistics of a name',
      description: 'With a valid bearer token `userVote` is the caller\'s vote (null if none); without one it is null. A name that does not normalize does not exist (404).',
      params: EnsNameParams,
      response: { 200: Envelope(VoteStats), ...errors('UNAUTHORIZED', 'ENS_NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await votes.stats(request.params.ensName, request.user?.id)));
};
