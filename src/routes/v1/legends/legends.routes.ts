import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { LEGENDS_CACHE_SECONDS, LegendsService } from '../../../services/legends.service.js';
import { errors } from '../../../contracts/common.js';
import { LegendDetailsQuery, LegendDetailsResponse, LegendParams, LegendSummaryResponse } from '../../../contracts/legends.js';

const RULES = [
  'A mint is the first registration of a name; the minter is its registrant. Legend types are time',
  'windows of the mint: prepunk (before 2017-06-23), OG (before 2019-05-04), Pioneer (2019-05-04 to',
  '2021-11-01); a mint counts for every window that holds it. Only types the address qualifies for are',
  'keys; an address without such mints gets `legends: {}`. Any hex case of the address gives the same',
  'answer; it is returned lower-case.',
].join(' ');

export const legendsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const legends = new LegendsService(app.deps);

  app.get('/legends/:address', {
    config: { cacheSeconds: LEGENDS_CACHE_SECONDS },
    schema: {
      tags: ['legends'],
      summary: 'Legend summary of an address',
      description: RULES,
      params: LegendParams,
      response: { 200: LegendSummaryResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await legends.summary(request.params.address)));

  app.get('/legends/:address/details', {
    config: { cacheSeconds: LEGENDS_CACHE_SECONDS },
    schema: {
      tags: ['legends'],
      summary: 'Legend mints of an address, per type, oldest first',
      description: `${RULES} \`type\` keeps one type; an unknown type gives \`legends: {}\`.`,
      params: LegendParams,
      querystring: LegendDetailsQuery,
      response: { 200: LegendDetailsResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await legends.details(request.params.address, request.query.type)));
};
