import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import type { Db, Executor } from '../db/client.js';
import { cached } from '../infra/cache.js';
import { offsetOf, pageA, type PageA } from '../lib/pagination.js';
import { weiString } from '../lib/wei.js';
import { type AWARD_SORTS, PROGRAM_START } from '../contracts/awards.js';

/**
 * The referral-award leaderboard: registrations and renewals made with our referrer code since
 * the program start, per address (the registrant of a registration, the renewer of a renewal).
 * Requests read `awards_leaderboard`, one precomputed row per address indexed for every sort;
 * the `awards.refresh` job rebuilds it every 5 minutes, the length of the response cache.
 */
export const SECONDS_PER_YEAR = 31_556_952;
export const USD_PER_YEAR = 5;
export const AWARDS_CACHE_SECONDS = 5 * 60;

export type AwardSort = (typeof AWARD_SORTS)[number];

/** The aggregate column each sort orders by (base_cost_usd is 5 × years: total duration's order). */
const SORT_COLUMN: Record<AwardSort, keyof AwardsLeaderboardTable> = {
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

export interface AwardsLeaderboardTable {
  address: string;
  points: number;
  registration_duration_seconds: number;
  renewal_duration_seconds: number;
  total_duration_seconds: number;
  total_eth_spend_wei: string;
  base_cost_eth: number;
  registration_count: number;
  renewal_count: number;
}

const STATE_KEY = 'standings.awards_leaderboard';

interface RefreshState {
  /** Changes only when the aggregate changed; part of every response-cache key. */
  generation: string;
  refreshedAt: string;
  total: number;
  referrerCode: string;
}

export class AwardsService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'cache'>) {}

  async leaderboard(query: AwardsQuery): Promise<AwardsPage> {
    const { page, limit, sortBy, sortOrder } = query;
    const state = await readState(this.deps.db);
    const key = `awards:${state?.generation ?? 'none'}:${sortBy}:${sortOrder}:${page}:${limit}`;
    // On a miss, the total and the rows are read in one snapshot (see LeaderboardService).
    return cached(this.deps.cache, key, AWARDS_CACHE_SECONDS, () => this.deps.db.transaction().setIsolationLevel('repeatable read').execute(async (db) => {
      const total = (await readState(db))?.total ?? 0;
      const offset = offsetOf(page, limit);
      const column = SORT_COLUMN[sortBy];
      const rows = offset >= total
        ? []
        : await db
          .selectFrom('awards_leaderboard')
          .select(['address', 'points', 'registration_duration_seconds', 'renewal_duration_seconds', 'total_duration_seconds',
            'total_eth_spend_wei', 'base_cost_eth', 'registration_count', 'renewal_count'])
          .orderBy(column, sortOrder)
          .orderBy('address', sortOrder)
          .limit(limit)
          .offset(offset)
          .execute();
      return {
        users: rows.map((r, i) => toAwardsUser(r, offset + i + 1)),
        pagination: pageA(page, limit, total),
        meta: { program_start: PROGRAM_START, seconds_per_year: SECONDS_PER_YEAR, sort: { by: sortBy, order: sortOrder } },
      };
    }));
  }
}

function toAwardsUser(row: AwardsLeaderboardTable, rank: number): AwardsUser {
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

async function readState(db: Executor): Promise<RefreshState | undefined> {
  const row = await db.selectFrom('sync_state').select('value').where('key', '=', STATE_KEY).executeTakeFirst();
  return row?.value as RefreshState | undefined;
}

export interface AwardsRefreshResult {
  addresses: number;
  upserted: number;
  removed: number;
  generation: string;
}

/**
 * Rebuilds the awards leaderboard in one transaction, writing only the rows that changed (as
 * the holder board does). The events come from `registrations_referral_program_idx` alone. An
 * event's base cost in ETH is 5 USD × its years ÷ the ETH/USD price of its UTC day; a day without
 * a price takes the latest earlier one, else the earliest later one; with no price at all the
 * event adds nothing.
 */
export async function refreshAwardsLeaderboard(db: Db, params: { referrerCode: string }): Promise<AwardsRefreshResult> {
  const code = params.referrerCode.toLowerCase();
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = '15min'`.execute(trx);
    await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
    await sql`SET LOCAL jit = off`.execute(trx);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${STATE_KEY}))`.execute(trx);
    // The program start is written as a literal so that the planner can use the partial index.
    await sql`
      CREATE TEMP TABLE awards_leaderboard_next ON COMMIT DROP AS
      SELECT r.actor_address AS address,
             floor(sum(r.duration_seconds) / ${SECONDS_PER_YEAR}::numeric)::int AS points,
             coalesce(sum(r.duration_seconds) FILTER (WHERE r.kind = 'registration'), 0)::bigint AS registration_duration_seconds,
             coalesce(sum(r.duration_seconds) FILTER (WHERE r.kind = 'renewal'), 0)::bigint AS renewal_duration_seconds,
             sum(r.duration_seconds)::bigint AS total_duration_seconds,
             sum(r.cost_wei)::numeric(78,0) AS total_eth_spend_wei,
             coalesce(sum(r.duration_seconds::float8 * ${USD_PER_YEAR} / ${SECONDS_PER_YEAR} / coalesce(
               p.price_usd,
               (SELECT e.price_usd FROM eth_usd_prices e WHERE e.day < (r.block_time AT TIME ZONE 'UTC')::date ORDER BY e.day DESC LIMIT 1),
               (SELECT e.price_usd FROM eth_usd_prices e WHERE e.day > (r.block_time AT TIME ZONE 'UTC')::date ORDER BY e.day ASC LIMIT 1)
             )::float8), 0) AS base_cost_eth,
             count(*) FILTER (WHERE r.kind = 'registration')::int AS registration_count,
             count(*) FILTER (WHERE r.kind = 'renewal')::int AS renewal_count
      FROM registrations r
      LEFT JOIN eth_usd_prices p ON p.day = (r.block_time AT TIME ZONE 'UTC')::date
      WHERE r.referrer = ${code} AND r.referrer IS NOT NULL AND r.block_time >= ${sql.lit(PROGRAM_START)}::timestamptz
      GROUP BY r.actor_address
    `.execute(trx);

    const removed = await sql`
      DELETE FROM awards_leaderboard a
      WHERE NOT EXISTS (SELECT 1 FROM awards_leaderboard_next x WHERE x.address = a.address)
    `.execute(trx);
    const upserted = await sql`
      INSERT INTO awards_leaderboard AS a (address, points, registration_duration_seconds, renewal_duration_seconds, total_duration_seconds,
        total_eth_spend_wei, base_cost_eth, registration_count, renewal_count)
      SELECT address, points, registration_duration_seconds, renewal_duration_seconds, total_duration_seconds,
        total_eth_spend_wei, base_cost_eth, registration_count, renewal_count FROM awards_leaderboard_next
      ON CONFLICT (address) DO UPDATE SET
        points = EXCLUDED.points, registration_duration_seconds = EXCLUDED.registration_duration_seconds,
        renewal_duration_seconds = EXCLUDED.renewal_duration_seconds, total_duration_seconds = EXCLUDED.total_duration_seconds,
        total_eth_spend_wei = EXCLUDED.total_eth_spend_wei, base_cost_eth = EXCLUDED.base_cost_eth,
        registration_count = EXCLUDED.registration_count, renewal_count = EXCLUDED.renewal_count
      WHERE (a.points, a.registration_duration_seconds, a.renewal_duration_seconds, a.total_duration_seconds, a.total_eth_spend_wei,
             a.base_cost_eth, a.registration_count, a.renewal_count)
        IS DISTINCT FROM (EXCLUDED.points, EXCLUDED.registration_duration_seconds, EXCLUDED.renewal_duration_seconds, EXCLUDED.total_duration_seconds,
             EXCLUDED.total_eth_spend_wei, EXCLUDED.base_cost_eth, EXCLUDED.registration_count, EXCLUDED.renewal_count)
    `.execute(trx);
    const addresses = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM awards_leaderboard_next`.execute(trx)).rows[0].n;
    const changedRows = Number(removed.numAffectedRows ?? 0n) + Number(upserted.numAffectedRows ?? 0n);
    if (changedRows > Math.max(1000, addresses / 10)) await sql`ANALYZE awards_leaderboard`.execute(trx);

    const previous = await readState(trx);
    const now = new Date().toISOString();
    const state: RefreshState = {
      generation: changedRows > 0 || !previous ? now : previous.generation,
      refreshedAt: now,
      total: addresses,
      referrerCode: code,
    };
    await sql`
      INSERT INTO sync_state (key, value, updated_at) VALUES (${STATE_KEY}, ${JSON.stringify(state)}::jsonb, now())
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
    `.execute(trx);
    return { addresses, upserted: Number(upserted.numAffectedRows ?? 0n), removed: Number(removed.numAffectedRows ?? 0n), generation: state.generation };
  });
}
