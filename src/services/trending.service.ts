import type { Deps } from '../deps.js';
import type { SearchResult } from '../contracts/search-result.js';
import { loadSearchResults } from '../search/results.js';
import { COMPOSITE_WEIGHTS, topTrending, trendPeriodStart, type TrendMetric, type TrendPeriodHours } from '../trends/index.js';
import { sql } from 'kysely';

export type TrendingPeriod = '24h' | '7d';

const PERIOD_HOURS = { '24h': 24, '7d': 168 } as const satisfies Record<TrendingPeriod, TrendPeriodHours>;

export interface TrendingMetrics {
  period: TrendingPeriod;
  period_upvotes: number;
  period_downvotes: number;
  period_votes: number;
  net_score_total: number;
}

export type TrendingName = SearchResult & { trending_metrics: TrendingMetrics };

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
 * Cost: the top of one index of trend_totals, then the page's names.
 */
export class TrendingService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  async votes(period: TrendingPeriod, limit: number, viewerId: number | undefined): Promise<{ names: TrendingName[]; meta: { period: TrendingPeriod; type: 'votes'; limit: number } }> {
    const { db } = this.deps;
    const top = await topTrending(db, 'votes', PERIOD_HOURS[period], limit);
    const ranked = top.map((t) => ({ id: t.ens_name_id, up: t.positive, down: t.total - t.positive }));

    const results = await loadSearchResults(db, ranked.map((r) => r.id), viewerId);
    const metricsById = new Map(ranked.map((r) => [r.id, r]));
    const names = results.map((result): TrendingName => {
      const m = metricsById.get(result.id);
      const up = m?.up ?? 0;
      const down = m?.down ?? 0;
      return {
        ...result,
        trending_metrics: { period, period_upvotes: up, period_downvotes: down, period_votes: up + down, net_score_total: result.net_score },
      };
    });
    return { names, meta: { period, type: 'votes', limit } };
  }

  /** Names ranked by a counter, as search results with the metrics `metricsOf` gives for the ranked ids. */
  private async ranked<M>(
    metric: TrendMetric, period: TrendingPeriod, limit: number, viewerId: number | undefined,
    metricsOf: (top: Map<number, { total: number; positive: number }>, since: Date) => Promise<Map<number, M>>,
  ): Promise<(SearchResult & { trending_metrics: M })[]> {
    const { db } = this.deps;
    const top = await topTrending(db, metric, PERIOD_HOURS[period], limit);
    const byId = new Map(top.map((t) => [t.ens_name_id, t]));
    const [results, metrics] = await Promise.all([
      loadSearchResults(db, top.map((t) => t.ens_name_id), viewerId),
      metricsOf(byId, trendPeriodStart(PERIOD_HOURS[period])),
    ]);
    return results.flatMap((r) => {
      const m = metrics.get(r.id);
      return m === undefined ? [] : [{ ...r, trending_metrics: m }];
    });
  }

  /**
   * Names ranked by page views in the period (one per viewer and UTC day, counted when the view
   * buffer is flushed). unique_viewers: distinct viewers on the UTC days the period touches.
   */
  async views(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const names = await this.ranked('views', period, limit, viewerId, async (top, since) => {
      const ids = [...top.keys()];
      const rows = ids.length === 0 ? [] : (await sql<{ id: number; unique_viewers: number; total_views: number }>`
        SELECT n.id, (SELECT count(DISTINCT viewer)::int FROM name_views_daily d WHERE d.ens_name_id = n.id AND d.day >= ${since}::date) AS unique_viewers,
          coalesce((SELECT views FROM name_view_counts c WHERE c.ens_name_id = n.id), 0)::int AS total_views
        FROM unnest(${ids}::bigint[]) AS n(id)`.execute(this.deps.db)).rows;
      return new Map(rows.map((r) => [r.id, { period, period_views: top.get(r.id)!.total, unique_viewers: r.unique_viewers, total_views: r.total_views }]));
    });
    return { names, meta: { period, type: 'views' as const, limit } };
  }

  /** Names ranked by sales in the period; the prices are valued in wei of ETH. */
  async sales(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const names = await this.ranked('sales', period, limit, viewerId, async (top, since) => {
      const ids = [...top.keys()];
      const rows = ids.length === 0 ? [] : (await sql<{ id: number; volume: string | null; avg: string | null; max: string | null; min: string | null }>`
        SELECT ens_name_id AS id, sum(v)::text AS volume, trunc(avg(v))::text AS avg, max(v)::text AS max, min(v)::text AS min
        FROM (SELECT ens_name_id, trunc(eth_value_wei(price_wei, currency_address)) AS v FROM sales WHERE ens_name_id = ANY(${ids}::bigint[]) AND sold_at >= ${since}) s
        GROUP BY ens_name_id`.execute(this.deps.db)).rows;
      const byId = new Map(rows.map((r) => [r.id, r]));
      return new Map(ids.map((id) => {
        const r = byId.get(id);
        return [id, { period, period_sales: top.get(id)!.total, period_volume: r?.volume ?? '0', avg_price: r?.avg ?? '0', max_price: r?.max ?? '0', min_price: r?.min ?? '0' }];
      }));
    });
    return { names, meta: { period, type: 'sales' as const, limit } };
  }

  /** Names ranked by offers made in the period; amounts valued in wei of ETH. */
  async offers(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const names = await this.ranked('offers', period, limit, viewerId, async (top, since) => {
      const ids = [...top.keys()];
      const rows = ids.length === 0 ? [] : (await sql<{ id: number; highest: string | null; avg: string | null; bidders: number }>`
        SELECT ens_name_id AS id, max(v)::text AS highest, trunc(avg(v))::text AS avg, count(DISTINCT buyer_address)::int AS bidders
        FROM (SELECT ens_name_id, buyer_address, trunc(eth_value_wei(offer_amount_wei, currency_address)) AS v FROM offers WHERE ens_name_id = ANY(${ids}::bigint[]) AND created_at >= ${since}) o
        GROUP BY ens_name_id`.execute(this.deps.db)).rows;
      const byId = new Map(rows.map((r) => [r.id, r]));
      return new Map(ids.map((id) => {
        const r = byId.get(id);
        return [id, { period, period_offers: top.get(id)!.total, highest_offer: r?.highest ?? '0', avg_offer: r?.avg ?? '0', unique_bidders: r?.bidders ?? 0 }];
      }));
    });
    return { names, meta: { period, type: 'offers' as const, limit } };
  }

  /** Names ranked by watchlist entries added in the period (and still held); total_watchers from the name row. */
  async watchlist(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const names = await this.ranked('watchlist', period, limit, viewerId, async (top) => new Map([...top].map(([id, t]) => [id, { period, period_additions: t.total, total_watchers: 0 }])));
    return {
      names: names.map((n) => ({ ...n, trending_metrics: { ...n.trending_metrics, total_watchers: n.watchers_count } })),
      meta: { period, type: 'watchlist' as const, limit },
    };
  }

  /**
   * Names ranked by the composite score: the weighted sum of every signal (COMPOSITE_WEIGHTS),
   * kept as its own counter by every bump, so the ranking is the top of one index too.
   */
  async composite(period: TrendingPeriod, limit: number, viewerId: number | undefined) {
    const hours = PERIOD_HOURS[period];
    const names = await this.ranked('composite', period, limit, viewerId, async (top) => {
      const ids = [...top.keys()];
      const rows = ids.length === 0 ? [] : await this.deps.db
        .selectFrom('trend_totals')
        .select(['ens_name_id', 'metric', 'total', 'positive'])
        .where('metric', 'in', ['views', 'votes', 'offers', 'listings', 'sales', 'watchlist'])
        .where('period_hours', '=', hours)
        .where('ens_name_id', 'in', ids)
        .execute();
      const of = (id: number, metric: string) => rows.find((r) => r.ens_name_id === id && r.metric === metric);
      return new Map(ids.map((id) => [id, {
        period,
        trending_score: top.get(id)!.total,
        breakdown: {
          views: of(id, 'views')?.total ?? 0, watchlist_adds: of(id, 'watchlist')?.total ?? 0, votes: of(id, 'votes')?.total ?? 0, upvotes: of(id, 'votes')?.positive ?? 0,
          offers: of(id, 'offers')?.total ?? 0, listings: of(id, 'listings')?.total ?? 0, sales: of(id, 'sales')?.total ?? 0,
        },
      }]));
    });
    return { names, meta: { period, type: 'composite' as const, limit, score_weights: { ...COMPOSITE_WEIGHTS } } };
  }
}
