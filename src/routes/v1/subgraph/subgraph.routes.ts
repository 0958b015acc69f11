import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../../errors.js';
import { jsonNesting, MAX_JSON_NESTING } from '../../../lib/nesting.js';
import { SubgraphService } from '../../../services/subgraph.service.js';
import { errors } from '../../../contracts/common.js';
import { RelayBody, RelayResponse } from '../../../contracts/subgraph.js';

const RELAY_RATE = { max: 120, timeWindow: '1 minute' };

export const subgraphRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const subgraph = new SubgraphService(app.deps);

  // In this plugin only: a body that is not JSON is an invalid relay request, not a validation error.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNesting(text, MAX_JSON_NESTING) > MAX_JSON_NESTING) {
      done(new AppError('INVALID_REQUEST', `Body nests deeper than ${MAX_JSON_NESTING} levels`, { field: 'body' }), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError('INVALID_REQUEST', 'Body is not valid JSON', { field: 'body' }), undefined);
    }
  });

  app.post('/subgraph', {
    config: { rateLimit: RELAY_RATE, inputError: 'INVALID_REQUEST' },
    schema: {
      tags: ['subgraph'],
      summary: 'GraphQL pass-through to the ENS subgraph',
      description: [
        'Relays the query to ENS_SUBGRAPH_URL (timeout SUBGRAPH_TIMEOUT_MS, one retry on a connection failure',
        'or 502/503/504) and returns its JSON unchanged, not wrapped in the envelope; a GraphQL error answer',
        'of the subgraph (also a 4xx carrying `errors`) is passed through with 200. 400 INVALID_REQUEST: the',
        'body is not a GraphQL query object or exceeds the limits. 502 BAD_GATEWAY: the subgraph failed, timed',
        'out, or answered a 5xx or something other than a JSON object; `details.reason` is `unavailable`, answered',
        'at once, while the subgraph is skipped after PROVIDER_BREAKER_FAILURES failures in a row (for',
        'PROVIDER_BREAKER_COOLDOWN_MS, then one trial request). 503 SERVICE_UNAVAILABLE: no',
        'ENS_SUBGRAPH_URL. Limited to 120 requests a minute per IP.',
      ].join(' '),
      body: RelayBody,
      response: { 200: RelayResponse, ...errors('INVALID_REQUEST', 'RATE_LIMITED', 'BAD_GATEWAY', 'SERVICE_UNAVAILABLE') },
    },
  }, async (request, reply) => {
    const json = await subgraph.relay(request.body);
    return reply.type('application/json; charset=utf-8').send(json);
  });
};
