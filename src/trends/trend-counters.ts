import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { Database } from '../db/schema.js';
import { HOUR } from '../lib/time.js';

/**
 * Trend counters: how much of something happened to each name in each UTC hour
 * (`trend_buckets`), and its sum over each period's hours (`trend_totals`), both written by the
 * transaction that writes the event, so a trending page reads the top of one index.
 *
 * - `total`: the events counted; `positive`: how many of them were positive (votes: upvotes), the
 *   first tie-break of a ranking. Metrics with a single figure leave `positive` at 0.
 * - A period covers the current hour and the `period_hours` whole hours before it. The first hour
 *   still counted is `trend_windows.start_hour`; `rollTrendWindows` moves it forward hourly and
 *   subtracts the hours that left, and buckets older than every window are deleted.
 * - Writers take a shared advisory lock, a roll an exclusive one, so a bump and a roll never
 *   interleave: every total is exactly the sum of its period's buckets.
 */

/**
 * What is counted. Add a metric here, write it with `bumpTrend`, and give it a source for rebuilds.
 * `composite` is never bumped directly: every bump of a weighted metric adds its weighted score
 * to it in the same statement (COMPOSITE_WEIGHTS).
 */
export type TrendMetric = 'votes' | 'views' | 'sales' | 'offers' | 'listings' | 'watchlist' | 'composite';

/**
 * The composite trending score of a name: views 1, watchlist adds 5, upvotes 3, downvotes -1,
 * offers 10, listings 8, sales 50 (the original marketplace's weights).
 */
export const COMPOSITE_WEIGHTS = { views: 1, watchlist_adds: 5, upvotes: 3, downvotes: -1, offers: 10, listings: 8, sales: 50 } as const;

/** A bump's part of the composite score (votes: `positive` upvotes, the rest downvotes). */
function compositeDelta(b: TrendBump): number {
  switch (b.metric) {
    case 'votes': {
      const up = b.positiveDelta ?? 0;
      return COMPOSITE_WEIGHTS.upvotes * up + COMPOSITE_WEIGHTS.downvotes * (b.delta - up);
    }
    case 'views': return COMPOSITE_WEIGHTS.views * b.delta;
    case 'offers': return COMPOSITE_WEIGHTS.offers * b.delta;
    case 'listings': return COMPOSITE_WEIGHTS.listings * b.delta;
    case 'sales': return COMPOSITE_WEIGHTS.sales * b.delta;
    case 'watchlist': return COMPOSITE_WEIGHTS.watchlist_adds * b.delta;
    case 'composite': return 0;
  }
}

/** The periods of trend_windows (migration 0008), in hours. */
export const TREND_PERIOD_HOURS = [24, 168] as const;
export type TrendPeriodHours = (typeof TREND_PERIOD_HOURS)[number];

export interface TrendBump {
  metric: TrendMetric;
  nameId: number;
  /** When the event happened; it counts in the UTC hour it falls in. */
  at: Date;
  /** +1 for an event, -1 to take one back (e.g. a vote replaced by a newer cast). */
  delta: number;
  positiveDelta?: number;
}

export interface TrendEntry {
  ens_name_id: number;
  total: number;
  positive: number;
}

const LOCK = sql`hashtext('trend_windows')`;

export const hourOf = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR) * HOUR);

/** The first hour a period should count at `now`. */
const windowStart = (periodHours: number, now: Date): Date => new Date(hourOf(now).getTime() - periodHours * HOUR);

/** The first instant a period of `periodHours` counts at `now` (the detail queries of a ranking use it). */
export const trendPeriodStart = (periodHours: TrendPeriodHours, now = new Date()): Date => windowStart(periodHours, now);

/**
 * Adds events to their hours and to the totals of the periods those hours are in. Call it in the
 * transaction that writes the events. Events older than every period are not counted.
 */
export async function bumpTrends(trx: Transaction<Database>, events: readonly TrendBump[]): Promise<void> {
  if (events.length === 0) return;
  const bumps: TrendBump[] = [
    ...events.filter((b) => b.metric !== 'composite'),
    ...events.map((b) => ({ metric: 'composite' as const, nameId: b.nameId, at: b.at, delta: compositeDelta(b) })).filter((b) => b.delta !== 0),
  ];
  // Shared with other writers; a roll of the windows (exclusive) waits for this transaction to end.
  await sql`SELECT pg_advisory_xact_lock_shared(${LOCK})`.execute(trx);
  await sql`
    WITH b AS (
      SELECT hour, metric, ens_name_id, sum(total)::int AS total, sum(positive)::int AS positive
      FROM unnest(${bumps.map((b) => hourOf(b.at).toISOString())}::timestamptz[], ${bumps.map((b) => b.metric)}::text[],
        ${bumps.map((b) => b.nameId)}::bigint[], ${bumps.map((b) => b.delta)}::int[], ${bumps.map((b) => b.positiveDelta ?? 0)}::int[])
        AS b(hour, metric, ens_name_id, total, positive)
      WHERE hour >= (SELECT min(start_hour) FROM trend_windows)
      GROUP BY 1, 2, 3
    ), buckets AS (
      INSERT INTO trend_buckets AS t (hour, metric, ens_name_id, total, positive) SELECT hour, metric, ens_name_id, total, positive FROM b
      ON CONFLICT (hour, metric, ens_name_id) DO UPDATE SET total = t.total + excluded.total, positive = t.positive + excluded.positive
    )
    INSERT INTO trend_totals AS t (metric, period_hours, ens_name_id, total, positive)
    SELECT b.metric, w.period_hours, b.ens_name_id, sum(b.total), sum(b.positive)
    FROM b JOIN trend_windows w ON b.hour >= w.start_hour
    GROUP BY 1, 2, 3
    ON CONFLICT (metric, period_hours, ens_name_id) DO UPDATE SET total = t.total + excluded.total, positive = t.positive + excluded.positive
  `.execute(trx);
}

/** One event (or, with a negative delta, one taken back); see `bumpTrends`. */
export function bumpTrend(trx: Transaction<Database>, metric: Exclude<TrendMetric, 'composite'>, nameId: number, at: Date, delta: number, positiveDelta = 0): Promise<void> {
  return bumpTrends(trx, [{ metric, nameId, at, delta, positiveDelta }]);
}

/**
 * Moves each period's first hour to where it belongs at `now`, subtracting the hours that left,
 * and deletes buckets older than every period. Cheap when nothing is due (one small read).
 * Returns whether anything moved.
 */
export async function rollTrendWindows(db: Db, now = new Date()): Promise<boolean> {
  const windows = await db.selectFrom('trend_windows').select(['period_hours', 'start_hour']).execute();
  if (windows.every((w) => w.start_hour >= windowStart(w.period_hours, now))) return false;
  return db.transaction().execute(async (trx) => {
    // Upkeep: at a million names an hour that leaves the 24-hour period is some 9,000 buckets, and
    // after a pause there may be many hours to take out; bounded by the server, not the request timeout.
    await sql`SET LOCAL statement_timeout = '5min'`.execute(trx);
    await sql`SELECT pg_advisory_xact_lock(${LOCK})`.execute(trx);
    let moved = false;
    for (const w of await trx.selectFrom('trend_windows').select(['period_hours', 'start_hour']).execute()) {
      const start = windowStart(w.period_hours, now);
      if (w.start_hour >= start) continue;
      moved = true;
      const gone = sql`
        SELECT metric, ens_name_id, sum(total)::int AS total, sum(positive)::int AS positive FROM trend_buckets
        WHERE hour >= ${w.start_hour} AND hour < ${start} GROUP BY 1, 2`;
      await sql`
        UPDATE trend_totals t SET total = t.total - gone.total, positive = t.positive - gone.positive FROM (${gone}) gone
        WHERE t.metric = gone.metric AND t.period_hours = ${w.period_hours} AND t.ens_name_id = gone.ens_name_id`.execute(trx);
      await sql`
        DELETE FROM trend_totals t USING (${gone}) gone
        WHERE t.metric = gone.metric AND t.period_hours = ${w.period_hours} AND t.ens_name_id = gone.ens_name_id AND t.total = 0 AND t.positive = 0`.execute(trx);
      await trx.updateTable('trend_windows').set({ start_hour: start }).where('period_hours', '=', w.period_hours).execute();
    }
    await sql`DELETE FROM trend_buckets WHERE hour < (SELECT min(start_hour) FROM trend_windows)`.execute(trx);
    return moved;
  });
}

/** How long a ranking waits for a roll it started before it reads the totals as they are. */
export const ROLL_WAIT_MS = 250;

/** The roll started for this UTC hour, per database: a read starts at most one an hour. */
const rollOfHour = new WeakMap<Db, { hour: number; done: Promise<void>; settled: boolean }>();

/**
 * Rolls the windows when the hour changed, so the figures do not wait for the hourly job. The
 * first read of an hour starts the roll (one per process) and waits for it up to ROLL_WAIT_MS:
 * a small roll is done by then; a big one (many buckets, a busy server) goes on alone and the
 * read answers from the totals as they are, the hour that just left still counted until the
 * roll commits. A read never fails because of a roll; a roll that failed is started again by a
 * later read (and by the hourly job, which logs).
 */
async function rollIfDue(db: Db): Promise<void> {
  const hour = hourOf(new Date()).getTime();
  let roll = rollOfHour.get(db);
  if (roll?.hour !== hour) {
    const started = { hour, done: Promise.resolve(), settled: false };
    started.done = rollTrendWindows(db).then(() => { started.settled = true; }, () => {
      if (rollOfHour.get(db) === started) rollOfHour.delete(db);
    });
    rollOfHour.set(db, (roll = started));
  }
  if (roll.settled) return; // every read of the hour after the roll: no timer
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([roll.done, new Promise<void>((resolve) => { timer = setTimeout(resolve, ROLL_WAIT_MS); })]);
  clearTimeout(timer);
}

/** The ranking: by total, then positive (both descending), then name id; from trend_totals_rank_idx. */
const topOf = (metric: TrendMetric, periodHours: TrendPeriodHours, limit: number) => sql`
  SELECT ens_name_id, total, positive FROM trend_totals
  WHERE metric = ${metric} AND period_hours = ${periodHours} AND total > 0
  ORDER BY total DESC, positive DESC, ens_name_id ASC LIMIT ${limit}`;

/**
 * The top names of a metric over a period: by total, then positive (both descending), then name
 * id; names with a total of 0 are left out.
 */
export async function topTrending(db: Db, metric: TrendMetric, periodHours: TrendPeriodHours, limit: number): Promise<TrendEntry[]> {
  await rollIfDue(db);
  return (await sql<TrendEntry>`${topOf(metric, periodHours, limit)}`.execute(db)).rows;
}

/**
 * The same top as a subquery `p(id, ord, total, positive)` (`ord`: the rank, from 1) for a
 * statement that reads the ranked names with it.
 */
export async function topTrendingSource(db: Db, metric: TrendMetric, periodHours: TrendPeriodHours, limit: number): Promise<RawBuilder<unknown>> {
  await rollIfDue(db);
  return sql`(SELECT ens_name_id AS id, row_number() OVER (ORDER BY total DESC, positive DESC, ens_name_id) AS ord, total, positive
    FROM (${topOf(metric, periodHours, limit)}) t) p`;
}

/**
 * How to recompute a metric's buckets since `since` from the events it counts, for bulk loaders
 * and repairs. A metric without a source keeps its buckets through a rebuild. Every rebuild insert
 * comes in its key's order (ORDER BY): each row lands beside the one before in the primary key,
 * not on a page of its own; the rebuild of a million names' counters took half the time (14.5 s →
 * 7.8 s, the totals 8.2 → 3.6).
 */
const SOURCES: Partial<Record<TrendMetric, (trx: Transaction<Database>, since: Date) => Promise<unknown>>> = {
  // Each user's latest cast on a name counts once, in the hour it was cast; a removal not at all.
  votes: (trx, since) => sql`
    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT date_trunc('hour', cast_at, 'UTC'), 'votes', ens_name_id, count(*), count(*) FILTER (WHERE vote = 1)
    FROM (
      SELECT DISTINCT ON (user_id, ens_name_id) ens_name_id, vote, cast_at FROM vote_events
      WHERE cast_at >= ${since} ORDER BY user_id, ens_name_id, cast_at DESC, id DESC
    ) latest
    WHERE vote <> 0
    GROUP BY 1, 3 ORDER BY 1, 3`.execute(trx),
  sales: (trx, since) => sql`
    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT date_trunc('hour', sold_at, 'UTC'), 'sales', ens_name_id, count(*), 0 FROM sales WHERE sold_at >= ${since} GROUP BY 1, 3 ORDER BY 1, 3`.execute(trx),
  offers: (trx, since) => sql`
    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT date_trunc('hour', created_at, 'UTC'), 'offers', ens_name_id, count(*), 0 FROM offers WHERE created_at >= ${since} GROUP BY 1, 3 ORDER BY 1, 3`.execute(trx),
  listings: (trx, since) => sql`
    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT date_trunc('hour', created_at, 'UTC'), 'listings', ens_name_id, count(*), 0 FROM listings WHERE created_at >= ${since} GROUP BY 1, 3 ORDER BY 1, 3`.execute(trx),
  // each watchlist entry still held counts in the hour it was added (a removal takes it back)
  watchlist: (trx, since) => sql`
    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT date_trunc('hour', created_at, 'UTC'), 'watchlist', ens_name_id, count(*), 0 FROM watchlist_items WHERE created_at >= ${since} GROUP BY 1, 3 ORDER BY 1, 3`.execute(trx),
  // after every other source (object order): the weighted sum of the other metrics' buckets
  composite: (trx, since) => sql`
    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT hour, 'composite', ens_name_id, sum(CASE metric
        WHEN 'votes' THEN ${COMPOSITE_WEIGHTS.upvotes} * positive + ${COMPOSITE_WEIGHTS.downvotes} * (total - positive)
        WHEN 'views' THEN ${COMPOSITE_WEIGHTS.views} * total
        WHEN 'offers' THEN ${COMPOSITE_WEIGHTS.offers} * total
        WHEN 'listings' THEN ${COMPOSITE_WEIGHTS.listings} * total
        WHEN 'sales' THEN ${COMPOSITE_WEIGHTS.sales} * total
        WHEN 'watchlist' THEN ${COMPOSITE_WEIGHTS.watchlist_adds} * total
      END), 0
    FROM trend_buckets WHERE hour >= ${since} AND metric <> 'composite'
    GROUP BY 1, 3 ORDER BY 1, 3`.execute(trx),
};

/** Recomputes the counters as of `now`: windows, the buckets of every metric with a source, all totals. */
export async function rebuildTrends(db: Db, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK})`.execute(trx);
    // whole-table groupings: sorted in memory rather than through temporary files at a million names
    await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
    for (const p of TREND_PERIOD_HOURS) {
      await trx.updateTable('trend_windows').set({ start_hour: windowStart(p, now) }).where('period_hours', '=', p).execute();
    }
    const since = windowStart(Math.max(...TREND_PERIOD_HOURS), now);
    await trx.deleteFrom('trend_buckets').where((eb) => eb.or([eb('hour', '<', since), eb('metric', 'in', Object.keys(SOURCES))])).execute();
    for (const source of Object.values(SOURCES)) await source(trx, since);
    await trx.deleteFrom('trend_totals').execute();
    await sql`
      INSERT INTO trend_totals (metric, period_hours, ens_name_id, total, positive)
      SELECT b.metric, w.period_hours, b.ens_name_id, sum(b.total), sum(b.positive)
      FROM trend_buckets b JOIN trend_windows w ON b.hour >= w.start_hour
      GROUP BY 1, 2, 3
      HAVING sum(b.total) <> 0 OR sum(b.positive) <> 0
      ORDER BY 1, 2, 3`.execute(trx);
  });
  rollOfHour.delete(db);
}
