import { sql, type RawBuilder } from 'kysely';
import { ethValue } from '../db/eth-value.js';
import type { Deps } from '../deps.js';
import type { RawJson } from '../lib/raw-json.js';
import { resultPage, type ResultJsonRow } from '../search/results.js';
import { COMPOSITE_WEIGHTS, topTrendingSource, trendPeriodStart, type TrendMetric, type TrendPeriodHours } from '../trends/index.js';

export type TrendingPeriod = '24h' | '7d';

const PERIOD_HOURS = { '24h': 24, '7d': 168 } as const satisfies Record<TrendingPeriod, TrendPeriodHours>;

export interface TrendingMetrics {
  period: TrendingPeriod;
  period_upvotes: number;
  period_downvotes: number;
  period_votes: number;
  net_score_total: number;
}

/** Ranked names: standard search results with their `trending_metrics`, as one JSON array text. */
export type TrendingNames = RawJson;

/**
 * Names ranked by the votes cast in the last 24 hours or 7 days, read from the trend counters
 * (src/trends) that each cast keeps in its own transaction.
 *
 * Definition: for each user and name, the user's latest cast on that name within the period
 * counts once: +1 as a period upvote, -1 as a period downvote, 0 (a removal) not at all. So
 * toggling a vote never inflates a name, and a vote cast 3 days ago counts in 7d but not in 24h.
 * The period is whole UTC hours: the current hour and the 24 (168) before it.
 * period_votes = period_upvotes + period_downvotes. Order: period_votes desc, period_upvotes
 * desc, name id asc. Names without a counted vote in the period are left out.
 *
 * Cost: one statement per page (with a viewer, two more for the viewer's votes and watches): the
 * top of one index of trend_totals joined to the names, their active listings and the kind's
 * figures of those names.
 */
export class TrendingService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  /**
   * The top of a counter as search results, each with the `trending_metrics` that `metrics` makes
   * of its row: the ranked ids, their names and listings and the columns `extra` adds (of `p`, the
   * ranking: `p.total`, `p.positive`; or of per-name figures `join`ed to it) in one statement.
   */
  private async ranked<E extends object>(
    metric: TrendMetric, period: TrendingPeriod, limit: number, viewerId: number | undefined,
    figures: { join?: RawBuilder<unknown>; extra: RawBuilder<unknown> }, metrics: (row: ResultJsonRow & E) => object,
  ): Promise<TrendingNames> {
    const { db } = this.deps;
    const top = await topTrendingSource(db, metric, PERIOD_HOURS[period], limit);
    // One plan whatever the metric, period and limit (GENERIC_PLAN): the top of the counters' rank
    // index by equality on (metric, period), then per-name lookups by key; planning it was a third
    // of its database time.
    return resultPage<E>(db, figures.join === undefined ? top : sql`${top} ${figures.join}`, {
      extra: figures.extra, plan: 'generic', viewerId, shape: `trending:${metric}:${period}`, fields: (r) => ({ trending_metrics: metrics(r) }),
    });
  }

  async votes(period: TrendingPeriod, limit: number, viewerId: number | undefined): Promise<{ names: TrendingNames; meta: { period: TrendingPeriod; type: 'votes'; limit: number } }> {
    const names = await this.ranked<{ trend_total: number; trend_positive: number; net_score: number }>('votes', period, limit, viewerId,
      { extra: sql`, p.total AS trend_total, p.positive AS trend_positive, n.net_score` },
      (r) => ({ period, period_upvotes: r.trend_positive, period_downvotes: r.trend_total - r.trend_positive, period_votes: r.trend_total, net_score_total: r.net_score }));
    return { names, meta: { period, type: 'votes', limit } };
  }

  /**
   * Names ranked by page views in the period (one per viewer and UTC day, counted when the view
   * buffer is flushed). unique_viewers: distinct viewers on the UTC days the period touches, the
   * sum of the name's viewers by latest day from the period's first day (kept by the view flush,
   * history/views.ts): a few rows per name where a distinct count read a top name's thousands.
   */
  async views(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const since = trendPeriodStart(PERIOD_HOURS[period]);
    const names = await this.ranked<{ trend_total: number; unique_viewers: number; total_views: number }>('views', period, limit, viewerId, {
      extra: sql`, p.total AS trend_total,
        (SELECT coalesce(sum(u.viewers), 0)::int FROM name_viewers_by_day u WHERE u.ens_name_id = p.id AND u.day >= ${since}::date) AS unique_viewers,
        coalesce((SELECT views FROM name_view_counts c WHERE c.ens_name_id = p.id), 0)::int AS total_views`,
    }, (r) => ({ period, period_views: r.trend_total, unique_viewers: r.unique_viewers, total_views: r.total_views }));
    return { names, meta: { period, type: 'views' as const, limit } };
  }

  /** Names ranked by sales in the period; the prices are valued in wei of ETH. */
  async sales(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const since = trendPeriodStart(PERIOD_HOURS[period]);
    type Figures = { trend_total: number; sales_volume: string | null; sales_avg: string | null; sales_max: string | null; sales_min: string | null };
    const names = await this.ranked<Figures>('sales', period, limit, viewerId, {
      join: sql`LEFT JOIN LATERAL (
        SELECT sum(v)::text AS volume, trunc(avg(v))::text AS avg, max(v)::text AS max, min(v)::text AS min
        FROM (SELECT trunc(${ethValue(sql`s.price_wei`)}) AS v
          FROM sales s LEFT JOIN currencies c ON c.address = s.currency_address WHERE s.ens_name_id = p.id AND s.sold_at >= ${since}) s
      ) m ON true`,
      extra: sql`, p.total AS trend_total, m.volume AS sales_volume, m.avg AS sales_avg, m.max AS sales_max, m.min AS sales_min`,
    }, (r) => ({
      period, period_sales: r.trend_total, period_volume: r.sales_volume ?? '0', avg_price: r.sales_avg ?? '0', max_price: r.sales_max ?? '0', min_price: r.sales_min ?? '0',
    }));
    return { names, meta: { period, type: 'sales' as const, limit } };
  }

  /** Names ranked by offers made in the period; amounts valued in wei of ETH. */
  async offers(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const since = trendPeriodStart(PERIOD_HOURS[period]);
    type Figures = { trend_total: number; offers_highest: string | null; offers_avg: string | null; offers_bidders: number };
    const names = await this.ranked<Figures>('offers', period, limit, viewerId, {
      join: sql`LEFT JOIN LATERAL (
        SELECT max(v)::text AS highest, trunc(avg(v))::text AS avg, count(DISTINCT buyer_address)::int AS bidders
        FROM (SELECT o.buyer_address, trunc(${ethValue(sql`o.offer_amount_wei`)}) AS v
          FROM offers o LEFT JOIN currencies c ON c.address = o.currency_address WHERE o.ens_name_id = p.id AND o.created_at >= ${since}) o
      ) m ON true`,
      extra: sql`, p.total AS trend_total, m.highest AS offers_highest, m.avg AS offers_avg, m.bidders AS offers_bidders`,
    }, (r) => ({ period, period_offers: r.trend_total, highest_offer: r.offers_highest ?? '0', avg_offer: r.offers_avg ?? '0', unique_bidders: r.offers_bidders }));
    return { names, meta: { period, type: 'offers' as const, limit } };
  }

  /** Names ranked by watchlist entries added in the period (and still held); total_watchers from the name row. */
  async watchlist(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const names = await this.ranked<{ trend_total: number; watchers_count: number }>('watchlist', period, limit, viewerId, { extra: sql`, p.total AS trend_total, n.watchers_count` },
      (r) => ({ period, period_additions: r.trend_total, total_watchers: r.watchers_count }));
    return { names, meta: { period, type: 'watchlist' as const, limit } };
  }

  /**
   * Names ranked by the composite score: the weighted sum of every signal (COMPOSITE_WEIGHTS),
   * kept as its own counter by every bump, so the ranking is the top of one index too; each
   * name's figures are one range of trend_totals_name_idx (0035).
   */
  async composite(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const hours = PERIOD_HOURS[period];
    // named apart from the result row's own columns (its upvotes, listings)
    type Figures = { trend_total: number; b_views: number; b_watchlist_adds: number; b_votes: number; b_upvotes: number; b_offers: number; b_listings: number; b_sales: number };
    const sum = (metric: string, column = sql`total`) => sql`coalesce(sum(${column}) FILTER (WHERE x.metric = ${metric}), 0)::int`;
    const names = await this.ranked<Figures>('composite', period, limit, viewerId, {
      join: sql`LEFT JOIN LATERAL (
        SELECT ${sum('views')} AS views, ${sum('watchlist')} AS watchlist_adds, ${sum('votes')} AS votes, ${sum('votes', sql`positive`)} AS upvotes,
          ${sum('offers')} AS offers, ${sum('listings')} AS listings, ${sum('sales')} AS sales
        FROM trend_totals x
        WHERE x.metric IN ('views', 'votes', 'offers', 'listings', 'sales', 'watchlist') AND x.period_hours = ${hours} AND x.ens_name_id = p.id
      ) m ON true`,
      extra: sql`, p.total AS trend_total, m.views AS b_views, m.watchlist_adds AS b_watchlist_adds, m.votes AS b_votes, m.upvotes AS b_upvotes,
        m.offers AS b_offers, m.listings AS b_listings, m.sales AS b_sales`,
    }, (r) => ({
      period,
      trending_score: r.trend_total,
      breakdown: {
        views: r.b_views, watchlist_adds: r.b_watchlist_adds, votes: r.b_votes, upvotes: r.b_upvotes, offers: r.b_offers, listings: r.b_listings, sales: r.b_sales,
      },
    }));
    return { names, meta: { period, type: 'composite' as const, limit, score_weights: { ...COMPOSITE_WEIGHTS } } };
  }
}
