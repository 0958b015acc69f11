import { sql } from 'kysely';
import type { Deps } from '../container.js';
import type { SearchResult } from '../contracts/search-result.js';
import { loadSearchResults } from '../search/results.js';

export type TrendingPeriod = '24h' | '7d';

const PERIOD_HOURS = { '24h': 24, '7d': 7 * 24 } as const satisfies Record<TrendingPeriod, number>;

export interface TrendingMetrics {
  period: TrendingPeriod;
  period_upvotes: number;
  period_downvotes: number;
  period_votes: number;
  net_score_total: number;
}

export type TrendingName = SearchResult & { trending_metrics: TrendingMetrics };

/**
 * Names ranked by the votes cast in the last 24 hours or 7 days, counted from vote_events.
 *
 * Definition: for each user and name, the user's latest cast on that name within the period
 * counts once: +1 as a period upvote, -1 as a period downvote, 0 (a removal) not at all. So
 * toggling a vote never inflates a name, and a vote cast 3 days ago counts in 7d but not in 24h.
 * period_votes = period_upvotes + period_downvotes. Order: period_votes desc, period_upvotes
 * desc, name id asc. Names without a counted vote in the period are left out.
 *
 * Cost grows with the casts in the period (an index-only range scan of vote_events_period_idx
 * and one sort), not with the number of names; names are joined only for the page.
 */
export class TrendingService {
  constructor(private readonly deps: Deps) {}

  async votes(period: TrendingPeriod, limit: number, viewerId: number | undefined): Promise<{ names: TrendingName[]; meta: { period: TrendingPeriod; type: 'votes'; limit: number } }> {
    const { db } = this.deps;
    const ranked = await sql<{ id: number; up: number; down: number }>`
      WITH latest AS (
        SELECT DISTINCT ON (ens_name_id, user_id) ens_name_id, vote
        FROM vote_events
        WHERE cast_at > now() - make_interval(hours => ${PERIOD_HOURS[period]})
        ORDER BY ens_name_id, user_id, cast_at DESC, id DESC
      )
      SELECT ens_name_id AS id, count(*) FILTER (WHERE vote = 1)::int AS up, count(*) FILTER (WHERE vote = -1)::int AS down
      FROM latest
      GROUP BY ens_name_id
      HAVING count(*) FILTER (WHERE vote <> 0) > 0
      ORDER BY count(*) FILTER (WHERE vote <> 0) DESC, count(*) FILTER (WHERE vote = 1) DESC, ens_name_id ASC
      LIMIT ${limit}
    `.execute(db);

    const results = await loadSearchResults(db, ranked.rows.map((r) => r.id), viewerId);
    const metricsById = new Map(ranked.rows.map((r) => [r.id, r]));
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
