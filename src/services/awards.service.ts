import { sql } from 'kysely';
import type { Deps } from '../container.js';
import { cached } from '../infra/cache.js';
import { offsetOf, pageA, type PageA } from '../lib/pagination.js';
import { weiString } from '../lib/wei.js';

/**
 * The referral-award leaderboard: registrations and renewals made with our referrer code since
 * the program start, per address (the registrant of a registration, the renewer of a renewal).
 * Computed per request from the referral events alone (`registrations_referrer_idx`), which are
 * far fewer than names, and cached for 5 minutes.
 */
export const PROGRAM_START = '2026-04-01T00:00:00.000Z';
export const SECONDS_PER_YEAR = 31_556_952;
export const USD_PER_YEAR = 5;
export const AWARDS_CACHE_SECONDS = 5 * 60;

export const AWARD_SORTS = ['points', 'registration_duration', 'renewal_duration', 'total_duration', 'total_eth_spend', 'base_cost_usd', 'base_cost_eth'] as const;
export type AwardSort = (typeof AWARD_SORTS)[number];

/** The aggregate column each sort orders by (base_cost_usd is 5 × years: total duration's order). */
const SORT_COLUMN: Record<AwardSort, string> = {
  points: 'points',
  registration_duration: 'registration_duration_seconds',
  renewal_duration: 'renewal_duration_seconds',
  total_duration: 'total_duration_seconds',
  total_eth_spend: 'total_eth_spend_wei',
  base_cost_usd: 'total_duration_seconds',
  base_cost_eth: 'base_cost_eth',
};

export interface AwardsQuery {
  page: number;
  limit: number;
  sortBy: AwardSort;
  sortOrder: 'asc' | 'desc';
}

export interface AwardsUser {
  rank: number;
  address: string;
  points: number;
  registration_duration_seconds: number;
  renewal_duration_seconds: number;
  total_duration_seconds: number;
  total_duration_years: number;
  total_eth_spend_wei: string;
  base_cost_usd: number;
  base_cost_eth: number;
  registration_count: number;
  renewal_count: number;
}

export interface AwardsPage {
  users: AwardsUser[];
  pagination: PageA;
  meta: { program_start: string; seconds_per_year: number; sort: { by: AwardSort; order: 'asc' | 'desc' } };
}

interface AwardsRow {
  address: string;
  points: number;
  registration_duration_seconds: number;
  renewal_duration_seconds: number;
  total_duration_seconds: number;
  total_eth_spend_wei: string;
  base_cost_eth: number;
  registration_count: number;
  renewal_count: number;
  total: number;
}

export class AwardsService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'cache' | 'config'>) {}

  async leaderboard(query: AwardsQuery): Promise<AwardsPage> {
    const { page, limit, sortBy, sortOrder } = query;
    const key = `awards:${this.deps.config.referrerCode}:${sortBy}:${sortOrder}:${page}:${limit}`;
    return cached(this.deps.cache, key, AWARDS_CACHE_SECONDS, async () => {
      const rows = await this.rows(query);
      const offset = offsetOf(page, limit);
      const total = rows[0]?.total ?? (page > 1 ? await this.countAddresses() : 0);
      return {
        users: rows.map((r, i) => toAwardsUser(r, offset + i + 1)),
        pagination: pageA(page, limit, total),
        meta: { program_start: PROGRAM_START, seconds_per_year: SECONDS_PER_YEAR, sort: { by: sortBy, order: sortOrder } },
      };
    });
  }

  private async rows(query: AwardsQuery): Promise<AwardsRow[]> {
    const dir = query.sortOrder === 'asc' ? sql`ASC` : sql`DESC`;
    const column = sql.ref(SORT_COLUMN[query.sortBy]);
    const result = await sql<AwardsRow>`
      WITH agg AS (${this.aggregate()})
      SELECT *, count(*) OVER ()::int AS total FROM agg
      ORDER BY ${column} ${dir}, address ${dir}
      LIMIT ${query.limit} OFFSET ${offsetOf(query.page, query.limit)}
    `.execute(this.deps.db);
    return result.rows;
  }

  private async countAddresses(): Promise<number> {
    const result = await sql<{ n: number }>`
      SELECT count(DISTINCT actor_address)::int AS n FROM registrations
      WHERE referrer = ${this.deps.config.referrerCode} AND block_time >= ${PROGRAM_START}::timestamptz
    `.execute(this.deps.db);
    return result.rows[0].n;
  }

  /**
   * One row per address. An event's base cost in ETH is 5 USD × its years ÷ the ETH/USD price of
   * its UTC day (the latest earlier price when that day is missing, else the earliest later one;
   * an event with no price at all adds nothing).
   */
  private aggregate() {
    return sql`
      SELECT r.actor_address AS address,
             floor(sum(r.duration_seconds) / ${SECONDS_PER_YEAR}::numeric)::int AS points,
             coalesce(sum(r.duration_seconds) FILTER (WHERE r.kind = 'registration'), 0)::bigint AS registration_duration_seconds,
             coalesce(sum(r.duration_seconds) FILTER (WHERE r.kind = 'renewal'), 0)::bigint AS renewal_duration_seconds,
             sum(r.duration_seconds)::bigint AS total_duration_seconds,
             sum(r.cost_wei)::numeric(78,0) AS total_eth_spend_wei,
             coalesce(sum(r.duration_seconds * ${USD_PER_YEAR}::numeric / ${SECONDS_PER_YEAR} / p.price_usd), 0)::float8 AS base_cost_eth,
             count(*) FILTER (WHERE r.kind = 'registration')::int AS registration_count,
             count(*) FILTER (WHERE r.kind = 'renewal')::int AS renewal_count
      FROM registrations r
      LEFT JOIN LATERAL (
        SELECT coalesce(
          (SELECT price_usd FROM eth_usd_prices WHERE day <= (r.block_time AT TIME ZONE 'UTC')::date ORDER BY day DESC LIMIT 1),
          (SELECT price_usd FROM eth_usd_prices WHERE day > (r.block_time AT TIME ZONE 'UTC')::date ORDER BY day ASC LIMIT 1)
        ) AS price_usd
      ) p ON true
      WHERE r.referrer = ${this.deps.config.referrerCode} AND r.block_time >= ${PROGRAM_START}::timestamptz
      GROUP BY r.actor_address
    `;
  }
}

function toAwardsUser(row: AwardsRow, rank: number): AwardsUser {
  const years = row.total_duration_seconds / SECONDS_PER_YEAR;
  return {
    rank,
    address: row.address,
    points: row.points,
    registration_duration_seconds: row.registration_duration_seconds,
    renewal_duration_seconds: row.renewal_duration_seconds,
    total_duration_seconds: row.total_duration_seconds,
    total_duration_years: years,
    total_eth_spend_wei: weiString(row.total_eth_spend_wei),
    base_cost_usd: USD_PER_YEAR * years,
    base_cost_eth: row.base_cost_eth,
    registration_count: row.registration_count,
    renewal_count: row.renewal_count,
  };
}
