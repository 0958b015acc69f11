import { Type, type TProperties, type TSchema } from 'typebox';
import { asJsonText, Limit } from './common.js';
import { searchResultWith } from './search-result.js';

const Period = Type.Union([Type.Literal('24h'), Type.Literal('7d')], { default: '24h' });

export const TrendingQuery = Type.Object({ period: Period, limit: Limit });

export const TrendingMetrics = Type.Object({
  period: Type.Union([Type.Literal('24h'), Type.Literal('7d')]),
  period_upvotes: Type.Integer(),
  period_downvotes: Type.Integer(),
  period_votes: Type.Integer({ description: 'period_upvotes plus period_downvotes' }),
  net_score_total: Type.Integer({ description: 'all-time net score' }),
});

export const TrendingName = searchResultWith({ trending_metrics: TrendingMetrics });

export const TrendingVotes = Type.Object({
  names: asJsonText(Type.Array(TrendingName)),
  meta: Type.Object({ period: Type.Union([Type.Literal('24h'), Type.Literal('7d')]), type: Type.Literal('votes'), limit: Type.Integer() }),
});

const PeriodValue = Type.Union([Type.Literal('24h'), Type.Literal('7d')], { description: 'the period asked for' });
const WeiFigure = (description: string) => Type.String({ pattern: '^[0-9]+$', description, examples: ['250000000000000000'] });

/** A trending page: standard search results with the kind's `trending_metrics`, and the kind in meta. */
function trendingPage<M extends TSchema, X extends TProperties>(type: string, metrics: M, extraMeta: X) {
  return Type.Object({
    names: asJsonText(Type.Array(searchResultWith({ trending_metrics: metrics }), { description: 'ranked names, at most `limit`' })),
    meta: Type.Object({ period: PeriodValue, type: Type.Literal(type, { description: 'the signal ranked on' }), limit: Type.Integer({ description: 'the limit asked for' }), ...extraMeta }),
  });
}

export const TrendingViews = trendingPage('views', Type.Object({
  period: PeriodValue,
  period_views: Type.Integer({ description: 'views in the period, one per viewer and UTC day', examples: [150] }),
  unique_viewers: Type.Integer({ description: 'distinct viewers on the UTC days the period touches', examples: [120] }),
  total_views: Type.Integer({ description: 'all-time views, one per viewer and UTC day', examples: [4200] }),
}), {});

export const TrendingSales = trendingPage('sales', Type.Object({
  period: PeriodValue,
  period_sales: Type.Integer({ description: 'sales in the period', examples: [3] }),
  period_volume: WeiFigure('their total, in wei of ETH (WETH as ETH, USDC at the latest ETH/USD price)'),
  avg_price: WeiFigure('average sale price, in wei of ETH'),
  max_price: WeiFigure('highest sale price, in wei of ETH'),
  min_price: WeiFigure('lowest sale price, in wei of ETH'),
}), {});

export const TrendingOffers = trendingPage('offers', Type.Object({
  period: PeriodValue,
  period_offers: Type.Integer({ description: 'offers made in the period', examples: [4] }),
  highest_offer: WeiFigure('highest of those offers, in wei of ETH'),
  avg_offer: WeiFigure('their average, in wei of ETH'),
  unique_bidders: Type.Integer({ description: 'distinct buyers among them', examples: [3] }),
}), {});

export const TrendingWatchlist = trendingPage('watchlist', Type.Object({
  period: PeriodValue,
  period_additions: Type.Integer({ description: 'watchlist entries added in the period and still held', examples: [6] }),
  total_watchers: Type.Integer({ description: 'distinct users watching the name now', examples: [14] }),
}), {});

const Weight = (description: string, example: number) => Type.Number({ description, examples: [example] });

export const TrendingComposite = trendingPage('composite', Type.Object({
  period: PeriodValue,
  trending_score: Type.Number({ description: 'the weighted sum of the breakdown (meta.score_weights)', examples: [285] }),
  breakdown: Type.Object({
    views: Type.Integer({ description: 'views in the period', examples: [150] }),
    watchlist_adds: Type.Integer({ description: 'watchlist entries added in the period and still held', examples: [2] }),
    votes: Type.Integer({ description: 'votes counted in the period (up and down)', examples: [12] }),
    upvotes: Type.Integer({ description: 'of which upvotes', examples: [10] }),
    offers: Type.Integer({ description: 'offers made', examples: [3] }),
    listings: Type.Integer({ description: 'listings placed (new or updated)', examples: [1] }),
    sales: Type.Integer({ description: 'sales', examples: [1] }),
  }, { description: 'each signal in the period' }),
}), {
  score_weights: Type.Object({
    views: Weight('per view', 1),
    watchlist_adds: Weight('per watchlist addition', 5),
    upvotes: Weight('per upvote', 3),
    downvotes: Weight('per downvote', -1),
    offers: Weight('per offer', 10),
    listings: Weight('per listing', 8),
    sales: Weight('per sale', 50),
  }, { description: 'the weights of trending_score' }),
});
