import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChartsService } from '../../../analytics/index.js';
import { sendKept } from '../../../plugins/kept-answer.js';
import { errors } from '../../../contracts/common.js';
import { ChartQuery, CountChartResponse, RegistrationChartResponse, VolumeChartResponse } from '../../../contracts/charts.js';

const HOW = 'Buckets come from the market rollups (refreshed every minute), zero-filled. The service keeps each computed chart until the ' +
  'rollups change: the answer is the one a fresh computation gives, at most a second after a refresh committed (at once in the process ' +
  'that ran it), with one worker or several, with or without Redis; the headers stay those of an uncached route (`Cache-Control: no-store`).';

export const chartsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const charts = new ChartsService(app.deps);
  const tags = ['charts'];
  const counted = [
    ['sales', 'Sales per bucket, by marketplace'],
    ['listings', 'Listings created per bucket, by marketplace'],
    ['offers', 'Offers made per bucket, by marketplace'],
  ] as const;
  for (const [kind, summary] of counted) {
    app.get(`/charts/${kind}`, {
      schema: { tags, summary, description: HOW, querystring: ChartQuery, response: { 200: CountChartResponse, ...errors('VALIDATION_ERROR') } },
    }, async (request, reply) => sendKept(reply, await charts.counts(kind, request.query.period, request.query.club)));
  }

  app.get('/charts/volume', {
    schema: { tags, summary: 'Sales volume per bucket (ETH and WETH), by marketplace', description: HOW, querystring: ChartQuery, response: { 200: VolumeChartResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await charts.volume(request.query.period, request.query.club)));

  app.get('/charts/registrations', {
    schema: { tags, summary: 'Registrations and their cost per bucket', description: HOW, querystring: ChartQuery, response: { 200: RegistrationChartResponse, ...errors('VALIDATION_ERROR') } },
  }, async (request, reply) => sendKept(reply, await charts.registrations(request.query.period, request.query.club)));
};
