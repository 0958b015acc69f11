import type { Deps } from '../deps.js';
import type { SearchResult } from '../contracts/search-result.js';
import { loadSearchResults } from '../search/results.js';
import { topTrending, type TrendPeriodHours } from '../trends/index.js';

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
  constructor(private readonly deps: Deps) {}

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
}
