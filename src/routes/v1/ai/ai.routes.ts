import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { RecommendationsService } from '../../../services/recommendations.service.js';
import { RelatedSearchService } from '../../../services/related.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { RelatedQuery, SearchPage } from '../../../contracts/search.js';
import { NameParam, RATE_PER_MINUTE, Recommendations, RelatedMeta, scenarioTable, SemanticMeta, TimestampMeta } from '../../../contracts/ai.js';
import { SemanticSearchService } from '../../../services/semantic.service.js';
import { setCacheHeaders } from './cache-headers.js';

const RELATED_DESCRIPTION = `
Generates about 30 names related to the normalized query (\`q\`: trimmed, \`.eth\` removed,
ENS-normalized when possible) and returns the ones the marketplace has, as standard search results.
Authentication optional. Caches: the suggestions of a query are kept 30 days in the database; a
response page (ids, total) 15 s in the shared cache. On a cache miss (no stored suggestions) a
signed-in caller is needed (401 UNAUTHORIZED otherwise). When generation fails the answer is 200
with no results and nothing is cached. \`X-Cache\`: HIT when the suggestions came from a cache,
MISS when generated for this request.

Filters, \`sortBy\` and \`sortOrder\` are those of \`GET /api/v1/search\` (bracket or flat notation);
without \`sortBy\` (or with \`relevance\`) results keep the suggestions' order. Pagination style B
inside \`data\`; \`meta.suggestionsCount\` counts the suggestions before matching. Rate limit: 30
requests per minute per IP (429 RATE_LIMITED with Retry-After).
`.trim();

const SEMANTIC_DESCRIPTION = `
A phrase (\`names about the ocean\`) → names the marketplace has. Its topic words are expanded into
about 30 associated words (the model server's chat with \`LLM_BASE_URL\`, else the embedded WordNet
generator; expansions kept 30 days); candidates are names whose label is a topic word or an
expansion, and up to 200 names containing a topic word. With a model server they are ranked by the
cosine similarity of their label's embedding (\`/embeddings\`, \`LLM_EMBEDDING_MODEL\`) to the
phrase's; without one, topic words first, then expansions, then compounds. \`meta.provider\` says
which answered. Only expanding a new phrase through the model server needs a signed-in caller
(401 UNAUTHORIZED otherwise); the embedded generator answers anyone. Filters, \`sortBy\` and
\`sortOrder\` as \`GET /api/v1/search\`. Rate limit: 30 requests per minute per IP.
`.trim();

export const aiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const related = new RelatedSearchService(app.deps);
  const recommendations = new RecommendationsService(app.deps);
  app.log.info({ suggestions: app.deps.suggestions.kind, keywordMetrics: app.deps.keywordMetrics?.kind ?? 'none' }, 'name suggestion and keyword metrics providers');

  app.get('/ai/search/related', {
    config: { auth: 'optional', cacheSeconds: 15, rateLimit: RATE_PER_MINUTE(30) },
    schema: {
      tags: ['ai'],
      summary: 'Related search: suggested names that exist, with global search filters and sorts',
      description: RELATED_DESCRIPTION,
      querystring: RelatedQuery,
      response: { 200: Envelope(SearchPage, RelatedMeta), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'RATE_LIMITED') },
    },
  }, async (request, reply) => {
    const page = await related.search(request.query, request.user);
    // Results carry the caller's user_vote when signed in: never for a shared cache then (Origin: the CORS hook's).
    reply.header('vary', 'Origin, Authorization');
    setCacheHeaders(reply, page.cache, page.maxAgeSeconds, request.user ? 'private' : 'public');
    return ok({ results: page.results, pagination: page.pagination }, { suggestionsCount: page.suggestionsCount });
  });

  const semantic = new SemanticSearchService(app.deps);
  app.get('/ai/search/semantic', {
    config: { auth: 'optional', cacheSeconds: 15, rateLimit: RATE_PER_MINUTE(30) },
    schema: {
      tags: ['ai'],
      summary: 'Semantic search: a phrase to names that exist, with global search filters and sorts',
      description: SEMANTIC_DESCRIPTION,
      querystring: RelatedQuery,
      response: { 200: Envelope(SearchPage, SemanticMeta), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'RATE_LIMITED') },
    },
  }, async (request, reply) => {
    const page = await semantic.search(request.query, request.user);
    reply.header('vary', 'Origin, Authorization');
    reply.header('cache-control', `${request.user ? 'private' : 'public'}, max-age=15`);
    return ok({ results: page.results, pagination: page.pagination }, { expansionsCount: page.expansionsCount, semanticTotal: page.semanticTotal, provider: page.provider, ranking: page.ranking });
  });

  app.get('/ai-recommendations/:name', {
    config: { auth: 'optional', cacheSeconds: 15, rateLimit: RATE_PER_MINUTE(60) },
    schema: {
      tags: ['ai'],
      summary: 'Similar names, using the name’s clubs as context',
      description: `Authentication optional. The name has 1 to 40 characters as sent, \`.eth\` is stripped, and it needs at least 3 characters once normalized (else 400 INVALID_NAME). Suggestions are full names, most relevant first. Rate limit: 60 requests per minute per IP.\n${scenarioTable('cached suggestions', 60, 'empty suggestions')}`,
      params: NameParam,
      response: { 200: Envelope(Recommendations, TimestampMeta), ...errors('INVALID_NAME', 'UNAUTHORIZED', 'RATE_LIMITED') },
    },
  }, async (request, reply) => {
    const answer = await recommendations.forName(request.params.name, request.user !== null);
    setCacheHeaders(reply, answer.cache, answer.maxAgeSeconds);
    return ok(answer.data);
  });
};
