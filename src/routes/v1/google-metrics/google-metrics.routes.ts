import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { KeywordMetricsService } from '../../../services/keyword-metrics.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { KeywordMetricsMeta, NameParam, RATE_PER_MINUTE, scenarioTable } from '../../../contracts/ai.js';
import { ok } from '../../../lib/envelope.js';
import { setCacheHeaders } from '../ai/cache-headers.js';

const KeywordMetrics = Type.Object({
  avgMonthlySearches: Type.Number(),
  avgCpc: Type.Number({ description: 'average cost per click, in currency units (Google reports micros)' }),
  monthlyTrend: Type.Array(Type.Number(), { description: 'monthly search volumes, oldest first' }),
  competition: Type.String({ description: 'LOW, MEDIUM or HIGH; UNSPECIFIED or UNKNOWN when Google has no level' }),
});

export const googleMetricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = new KeywordMetricsService(app.deps);

  app.get('/google-metrics/:name', {
    config: { auth: 'optional', cacheSeconds: 15, rateLimit: RATE_PER_MINUTE(60) },
    schema: {
      tags: ['ai'],
      summary: 'Keyword search metrics of a name’s label (Google Ads)',
      description: `Authentication optional. The name has 1 to 40 characters as sent; \`.eth\` is stripped; once normalized the label may have at most 20 characters (else 400 INVALID_NAME). Metrics come from the Google Ads API (generateKeywordHistoricalMetrics); without GOOGLE_ADS_* configured every miss is a provider failure. \`data\` is null when Google has no metrics for the keyword. Rate limit: 60 requests per minute per IP.\n${scenarioTable('cached metrics', 30, 'data null')}`,
      params: NameParam,
      response: { 200: Envelope(Type.Union([KeywordMetrics, Type.Null()]), KeywordMetricsMeta), ...errors('INVALID_NAME', 'UNAUTHORIZED', 'RATE_LIMITED') },
    },
  }, async (request, reply) => {
    const answer = await service.forName(request.params.name, request.user !== null);
    setCacheHeaders(reply, answer.cache, answer.maxAgeSeconds);
    return ok(answer.data, answer.meta);
  });
};
