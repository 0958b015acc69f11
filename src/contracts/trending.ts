import { Type } from 'typebox';
import { Limit } from './common.js';
import { SearchResult } from './search-result.js';

const Period = Type.Union([Type.Literal('24h'), Type.Literal('7d')], { default: '24h' });

export const TrendingQuery = Type.Object({ period: Period, limit: Limit });

export const TrendingMetrics = Type.Object({
  period: Type.Union([Type.Literal('24h'), Type.Literal('7d')]),
  period_upvotes: Type.Integer(),
  period_downvotes: Type.Integer(),
  period_votes: Type.Integer({ description: 'period_upvotes plus period_downvotes' }),
  net_score_total: Type.Integer({ description: 'all-time net score' }),
});

export const TrendingName = Type.Object({ ...SearchResult.properties, trending_metrics: TrendingMetrics });

export const TrendingVotes = Type.Object({
  names: Type.Array(TrendingName),
  meta: Type.Object({ period: Type.Union([Type.Literal('24h'), Type.Literal('7d')]), type: Type.Literal('votes'), limit: Type.Integer() }),
});
