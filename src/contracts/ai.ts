import { Type } from 'typebox';
import { ApiVersion, Meta, Timestamp } from './common.js';

/** `meta` of recommendations: the interface names `{timestamp}`; `version` is on every response. */
export const TimestampMeta = Meta;

export const KeywordMetricsMeta = Type.Object({
  timestamp: Timestamp,
  version: ApiVersion,
  provider: Type.String({ description: 'where metrics come from: `google-ads`, or `none` when no provider is configured (GOOGLE_ADS_*)', examples: ['google-ads'] }),
  reason: Type.Optional(Type.Union([
    Type.Literal('no_provider'), Type.Literal('provider_failed'), Type.Literal('provider_unavailable'), Type.Literal('unknown_name'), Type.Literal('no_data'),
  ], { description: 'only when `data` is null, why: `no_provider` (none configured), `provider_failed` (it failed or timed out; not cached, try later), `provider_unavailable` (not asked: it failed PROVIDER_BREAKER_FAILURES times in a row and is skipped for PROVIDER_BREAKER_COOLDOWN_MS; not cached), `unknown_name` (not in the marketplace), `no_data` (the provider has no metrics for this keyword)' })),
});

export const RelatedMeta = Type.Object({
  timestamp: Timestamp,
  version: ApiVersion,
  suggestionsCount: Type.Integer({ description: 'how many names were suggested for the query, before matching' }),
});

export const SemanticMeta = Type.Object({
  timestamp: Timestamp,
  version: ApiVersion,
  expansionsCount: Type.Integer({ description: 'associated words the phrase was expanded into' }),
  semanticTotal: Type.Integer({ description: 'names matched before paging' }),
  provider: Type.Union([Type.Literal('openai-compatible'), Type.Literal('local-wordnet')], {
    description: 'who expanded the phrase: the model server (LLM_BASE_URL) or the embedded WordNet generator (also when the model server failed, timed out or is skipped by its circuit breaker)',
  }),
  ranking: Type.Union([Type.Literal('embeddings'), Type.Literal('expansions'), Type.Literal('sort')], {
    description: 'embeddings: by the model server\'s vectors; expansions: topic words, then expansions, then compounds (no model server, or it failed); sort: by sortBy',
  }),
});

export const NameParam = Type.Object({
  name: Type.String({ description: 'ENS name or label, 1 to 40 characters; `.eth` is stripped', examples: ['apple.eth'] }),
});

export const Recommendations = Type.Object({
  suggestions: Type.Array(Type.String(), { description: 'suggested names (`pear.eth`), most relevant first' }),
});

export const RATE_PER_MINUTE = (max: number) => ({ max, timeWindow: '1 minute' });

/** The scenario table of the interface document, for the route descriptions. */
export const scenarioTable = (cached: string, days: number, empty: string) => `
| Scenario | Result |
|---|---|
| cache hit (15 s shared cache or the database) | ${cached} for any caller, \`X-Cache: HIT\` |
| cache miss, authenticated | fetched or generated, stored ${days} days, \`X-Cache: MISS\` |
| cache miss, unauthenticated | 401 UNAUTHORIZED |
| name not in the database | 200 with ${empty}, cached 5 minutes |
| provider or generation failure | 200 with ${empty}, not cached (\`Cache-Control: no-store\`) |
`;

