import { sql, type RawBuilder } from 'kysely';
import type { Db, Executor } from '../db/client.js';
import { ZERO_ADDRESS } from '../lib/address.js';
import { bumpGeneration, generationChanged } from './answers.js';

/**
 * The market rollups (migrations 0010, 0021, 0024 and 0055): hourly, daily and monthly sums per kind,
 * source, club set, price band and label length. Kinds: sales, listings created, offers made,
 * registrations, vote casts, name page views (one per name, viewer and day, in the hour it was first
 * counted) and watchlist entries still held (in the hour they were added). Long periods sum whole
 * months from the monthly rows (a fifteenth of the daily ones); a daily chart of every name reads
 * the days' totals (`day_total`: one row per day and source, summed over club sets, price bands
 * and label lengths). A refresh recomputes exactly the hours that triggers marked dirty (rows
 * written, deleted, or whose name changed clubs) from the raw rows, then the days (and their
 * totals) and months containing them from the finer rows, in one transaction: readers
 * see the previous sums until it commits, which also bumps the generation the cached answers
 * depend on (answers.ts).
 */
export const ROLLUP_KINDS = ['sale', 'listing', 'offer', 'registration', 'vote', 'view', 'watch'] as const;
export type RollupKind = (typeof ROLLUP_KINDS)[number];
export type Grain = 'hour' | 'day';

export interface MarketRollupsTable {
  grain: Grain | 'month' | 'day_total';
  kind: RollupKind;
  bucket: Date;
  source: string;
  clubs: string[];
  band: number;
  name_length: number;
  count: number;
  eth_count: number;
  volume_wei: string;
  max_wei: string | null;
  min_wei: string | null;
  base_cost_wei: string;
  premium_wei: string;
  premium_count: number;
}

/** Price bands of ETH/WETH sales (GET /analytics/volume), upper bounds in wei; the last is open. */
export const PRICE_BANDS = [
  { label: '< 0.01 ETH', below: 10n ** 16n },
  { label: '0.01-0.1 ETH', below: 10n ** 17n },
  { label: '0.1-0.5 ETH', below: 5n * 10n ** 17n },
  { label: '0.5-1 ETH', below: 10n ** 18n },
  { label: '1-5 ETH', below: 5n * 10n ** 18n },
  { label: '5-10 ETH', below: 10n ** 19n },
  { label: '10-50 ETH', below: 5n * 10n ** 19n },
  { label: '50+ ETH', below: undefined },
] as const;

export interface RollupParams {
  /** ETH and this token count towards volumes (amounts of other currencies cannot be added to wei). */
  wethAddress: string;
}

const LOCK_KEY = 'analytics.rollups';

/** Each kind's raw rows `s` and their time (an expression the dirty-hour refresh finds by an index range). */
const TIME_COLUMN: Record<RollupKind, { table: string; time: RawBuilder<unknown>; where: RawBuilder<unknown> }> = {
  sale: { table: 'sales', time: sql`s.sold_at`, where: sql`true` },
  listing: { table: 'listings', time: sql`s.created_at`, where: sql`true` },
  offer: { table: 'offers', time: sql`s.created_at`, where: sql`true` },
  registration: { table: 'registrations', time: sql`s.block_time`, where: sql`s.kind = 'registration'` },
  vote: { table: 'vote_events', time: sql`s.cast_at`, where: sql`true` },
  // name_views_daily_seen_idx is on this expression
  view: { table: 'name_views_daily', time: sql`view_time(s.seen_at, s.day)`, where: sql`true` },
  watch: { table: 'watchlist_items', time: sql`s.created_at`, where: sql`true` },
};

/**
 * Each kind's hourly aggregate of its raw rows `s`: `hour` is the first column, then source, clubs,
 * band and label length (the caller adds the WHERE and `GROUP BY 1, 2, 3, 4, 5`).
 */
function hourlyOf(kind: RollupKind, eth: readonly string[], hour: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (kind) {
    case 'sale': {
      const isEth = sql`s.currency_address = ANY(${[...eth]}::text[])`;
      const bands = PRICE_BANDS.flatMap((b, i) => (b.below === undefined ? [] : [sql`WHEN s.price_wei < ${b.below.toString()}::numeric THEN ${sql.lit(i)}`]));
      return sql`
        SELECT ${hour} AS hour, s.source, n.clubs,
               CASE WHEN ${isEth} THEN CASE ${sql.join(bands, sql` `)} ELSE ${sql.lit(PRICE_BANDS.length - 1)} END ELSE -1 END AS band,
               0 AS name_length, count(*) AS count,
               count(*) FILTER (WHERE ${isEth}) AS eth_count,
               coalesce(sum(s.price_wei) FILTER (WHERE ${isEth}), 0) AS volume_wei,
               max(s.price_wei) FILTER (WHERE ${isEth}) AS max_wei,
               min(s.price_wei) FILTER (WHERE ${isEth}) AS min_wei,
               0 AS base_cost_wei, 0 AS premium_wei, 0 AS premium_count
        FROM sales s JOIN ens_names n ON n.id = s.ens_name_id`;
    }
    case 'registration':
      return sql`
        SELECT ${hour} AS hour, 'ens' AS source, n.clubs, -1 AS band, least(n.label_length, 255) AS name_length, count(*) AS count,
               count(*) AS eth_count, sum(s.cost_wei) AS volume_wei, max(s.cost_wei) AS max_wei, min(s.cost_wei) AS min_wei,
               sum(s.cost_wei - least(s.premium_wei, s.cost_wei)) AS base_cost_wei, sum(least(s.premium_wei, s.cost_wei)) AS premium_wei,
               count(*) FILTER (WHERE s.premium_wei > 0) AS premium_count
        FROM registrations s JOIN ens_names n ON n.id = s.ens_name_id`;
    case 'listing':
    case 'offer':
      return sql`
        SELECT ${hour} AS hour, s.source, n.clubs, -1 AS band, 0 AS name_length, count(*) AS count,
               0 AS eth_count, 0 AS volume_wei, NULL::numeric AS max_wei, NULL::numeric AS min_wei, 0 AS base_cost_wei, 0 AS premium_wei, 0 AS premium_count
        FROM ${sql.table(TIME_COLUMN[kind].table)} s JOIN ens_names n ON n.id = s.ens_name_id`;
    case 'vote':
      return sql`
        SELECT ${hour} AS hour, 'grails' AS source, n.clubs, -1 AS band, 0 AS name_length, count(*) FILTER (WHERE s.vote <> 0) AS count,
               0 AS eth_count, 0 AS volume_wei, NULL::numeric AS max_wei, NULL::numeric AS min_wei, 0 AS base_cost_wei, 0 AS premium_wei, 0 AS premium_count
        FROM vote_events s JOIN ens_names n ON n.id = s.ens_name_id`;
    case 'view':
    case 'watch':
      return sql`
        SELECT ${hour} AS hour, 'grails' AS source, n.clubs, -1 AS band, 0 AS name_length, count(*) AS count,
               0 AS eth_count, 0 AS volume_wei, NULL::numeric AS max_wei, NULL::numeric AS min_wei, 0 AS base_cost_wei, 0 AS premium_wei, 0 AS premium_count
        FROM ${sql.table(TIME_COLUMN[kind].table)} s JOIN ens_names n ON n.id = s.ens_name_id`;
  }
}

const COLUMNS = sql`grain, kind, bucket, source, clubs, band, name_length, count, eth_count, volume_wei, max_wei, min_wei, base_cost_wei, premium_wei, premium_count`;
/** The sums of finer rows into a coarser one (hours into a day, days into a month). */
const ROLLED = sql`sum(count), sum(eth_count), sum(volume_wei), max(max_wei), min(min_wei), sum(base_cost_wei), sum(premium_wei), sum(premium_count)`;

/** Recomputes one kind's hourly rows for `hours`, then its daily and monthly rows for the days and months holding them. */
async function recompute(trx: Executor, kind: RollupKind, hours: readonly Date[], params: RollupParams): Promise<number> {
  const { time, where } = TIME_COLUMN[kind];
  const hourList = hours.map((h) => h.toISOString());
  await sql`DELETE FROM market_rollups WHERE grain = 'hour' AND kind = ${kind} AND bucket = ANY(${hourList}::timestamptz[])`.execute(trx);
  // The raw rows of each dirty hour by an index range scan (sales_sold_at_idx and so on), one
  // statement per hour: planned with the hour's value, the range is sized from the statistics and
  // joined to its names one by one. (One statement over all hours planned the range with a default
  // guess; for a million names' views that meant hashing every name, every minute.)
  for (const hour of hourList) {
    const at = sql`${hour}::timestamptz`;
    await sql`
      INSERT INTO market_rollups (${COLUMNS})
      SELECT 'hour', ${kind}, x.hour, x.source, x.clubs, x.band, x.name_length, x.count, x.eth_count, x.volume_wei, x.max_wei, x.min_wei,
             x.base_cost_wei, x.premium_wei, x.premium_count
      FROM (
        ${hourlyOf(kind, ethOf(params), at)}
        WHERE ${time} >= ${at} AND ${time} < ${at} + interval '1 hour' AND ${where}
        GROUP BY 1, 2, 3, 4, 5
      ) x
      WHERE x.count > 0
    `.execute(trx);
  }
  const days = [...new Set(hours.map((h) => startOfUtcDay(h).toISOString()))];
  await sql`DELETE FROM market_rollups WHERE grain = 'day' AND kind = ${kind} AND bucket = ANY(${days}::timestamptz[])`.execute(trx);
  await sql`
    INSERT INTO market_rollups (${COLUMNS})
    SELECT 'day', kind, date_trunc('day', bucket, 'UTC'), source, clubs, band, name_length, ${ROLLED}
    FROM unnest(${days}::timestamptz[]) d(day)
    JOIN market_rollups r ON r.grain = 'hour' AND r.kind = ${kind} AND r.bucket >= d.day AND r.bucket < d.day + interval '1 day'
    GROUP BY kind, date_trunc('day', bucket, 'UTC'), source, clubs, band, name_length
  `.execute(trx);
  await sql`DELETE FROM market_rollups WHERE grain = 'day_total' AND kind = ${kind} AND bucket = ANY(${days}::timestamptz[])`.execute(trx);
  await sql`
    INSERT INTO market_rollups (${COLUMNS})
    SELECT 'day_total', kind, bucket, source, '{}', -1, 0, ${ROLLED}
    FROM market_rollups WHERE grain = 'day' AND kind = ${kind} AND bucket = ANY(${days}::timestamptz[])
    GROUP BY kind, bucket, source
  `.execute(trx);
  const months = [...new Set(hours.map((h) => startOfUtcMonth(h).toISOString()))];
  await sql`DELETE FROM market_rollups WHERE grain = 'month' AND kind = ${kind} AND bucket = ANY(${months}::timestamptz[])`.execute(trx);
  await sql`
    INSERT INTO market_rollups (${COLUMNS})
    SELECT 'month', kind, m.month, source, clubs, band, name_length, ${ROLLED}
    FROM unnest(${months}::timestamptz[]) m(month)
    JOIN market_rollups r ON r.grain = 'day' AND r.kind = ${kind} AND r.bucket >= m.month
      AND r.bucket < (m.month AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC'
    GROUP BY kind, m.month, source, clubs, band, name_length
  `.execute(trx);
  return hours.length;
}

const ethOf = (params: RollupParams): string[] => [ZERO_ADDRESS, params.wethAddress.toLowerCase()];

/**
 * Rebuilds one kind's rows from all its raw rows: one grouped pass over the table for the hours,
 * one over those hours for the days and one over the days for the months (the per-hour path above
 * would do an index scan per hour, which for years of history is far slower). Each insert comes in
 * the primary key's order, so that each row lands beside the one before it: the registrations'
 * hours of a million names (587,000 rows) 15-17 s → 8.5 s.
 */
async function recomputeAll(trx: Executor, kind: RollupKind, params: RollupParams): Promise<number> {
  const { time, where } = TIME_COLUMN[kind];
  await sql`
    INSERT INTO market_rollups (${COLUMNS})
    SELECT 'hour', ${kind}, x.hour, x.source, x.clubs, x.band, x.name_length, x.count, x.eth_count, x.volume_wei, x.max_wei, x.min_wei,
           x.base_cost_wei, x.premium_wei, x.premium_count
    FROM (
      ${hourlyOf(kind, ethOf(params), sql`date_trunc('hour', ${time}, 'UTC')`)}
      WHERE ${where}
      GROUP BY 1, 2, 3, 4, 5
    ) x
    WHERE x.count > 0
    ORDER BY 3, 4, 5, 6, 7
  `.execute(trx);
  await sql`
    INSERT INTO market_rollups (${COLUMNS})
    SELECT 'day', kind, date_trunc('day', bucket, 'UTC'), source, clubs, band, name_length, ${ROLLED}
    FROM market_rollups WHERE grain = 'hour' AND kind = ${kind}
    GROUP BY kind, date_trunc('day', bucket, 'UTC'), source, clubs, band, name_length
    ORDER BY 3, 4, 5, 6, 7
  `.execute(trx);
  await sql`
    INSERT INTO market_rollups (${COLUMNS})
    SELECT 'month', kind, date_trunc('month', bucket, 'UTC'), source, clubs, band, name_length, ${ROLLED}
    FROM market_rollups WHERE grain = 'day' AND kind = ${kind}
    GROUP BY kind, date_trunc('month', bucket, 'UTC'), source, clubs, band, name_length
    ORDER BY 3, 4, 5, 6, 7
  `.execute(trx);
  await sql`
    INSERT INTO market_rollups (${COLUMNS})
    SELECT 'day_total', kind, bucket, source, '{}', -1, 0, ${ROLLED}
    FROM market_rollups WHERE grain = 'day' AND kind = ${kind}
    GROUP BY kind, bucket, source
    ORDER BY 3, 4
  `.execute(trx);
  return (await sql<{ hours: number }>`SELECT count(DISTINCT bucket)::int AS hours FROM market_rollups WHERE grain = 'hour' AND kind = ${kind}`.execute(trx)).rows[0]?.hours ?? 0;
}

export function startOfUtcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

export function startOfUtcMonth(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

export interface RollupRefreshResult {
  hours: Record<RollupKind, number>;
  full: boolean;
}

/**
 * Applies the dirty hours (all hours of every kind with `full`, after a bulk load or to correct any
 * drift). Concurrent refreshes queue on an advisory lock; the dirty marks are taken in the same
 * transaction, so a mark written while this runs waits for the next refresh.
 */
export async function refreshRollups(db: Db, params: RollupParams, options: { full?: boolean } = {}): Promise<RollupRefreshResult> {
  let changed = false;
  const result = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = '30min'`.execute(trx);
    await sql`SET LOCAL jit = off`.execute(trx);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${LOCK_KEY}))`.execute(trx);
    const dirty = await sql<{ kind: RollupKind; hour: Date }>`DELETE FROM market_rollup_dirty RETURNING kind, hour`.execute(trx);
    const hours = Object.fromEntries(ROLLUP_KINDS.map((k) => [k, 0])) as Record<RollupKind, number>;
    if (options.full === true) {
      // every hour of every kind in one sort each: in memory rather than a gigabyte of temporary files at a million names
      await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
      await sql`DELETE FROM market_rollups`.execute(trx);
      for (const kind of ROLLUP_KINDS) hours[kind] = await recomputeAll(trx, kind, params);
      await bumpGeneration(trx);
      changed = true;
      return { hours, full: true };
    }
    for (const kind of ROLLUP_KINDS) {
      const mine = dirty.rows.filter((r) => r.kind === kind).map((r) => r.hour);
      if (mine.length > 0) hours[kind] = await recompute(trx, kind, mine, params);
    }
    if (dirty.rows.length > 0) {
      await bumpGeneration(trx);
      changed = true;
    }
    return { hours, full: false };
  });
  // the cached analytics answers of this process are checked again at once (other processes: within a second)
  if (changed) generationChanged(db);
  return result;
}
