import { sql } from 'kysely';
import type { Db, Executor } from '../db/client.js';
import { bumpTrends } from '../trends/index.js';

/** The viewer key of a signed-in user's views (anonymous viewers are keyed by a hashed client address). */
export const userViewer = (userId: number): string => `u:${userId}`;

/** Longest time a counted view waits in memory before it is written. */
export const VIEW_FLUSH_MS = 10_000;
/** Views held before a flush is forced (bounds memory under a burst). */
const MAX_PENDING = 50_000;

interface PendingView {
  nameId: number;
  day: string;
  viewer: string;
  /** the first view of the viewer that day in this batch (the hour the market rollups count it in) */
  at: Date;
}

/**
 * Name page views, one per viewer and UTC day. A request only adds to an in-memory set (no write
 * on the hot path); `flush` writes the set to `name_views_daily` (with the time of the first view,
 * the hour the market rollups count it in) with ON CONFLICT DO NOTHING, and
 * only the rows it actually inserted raise `name_view_counts` and the `views` trend counter, in
 * the same transaction. Several instances may count the same viewer: the table's key keeps one.
 * Views still in memory when a process dies are lost (at most VIEW_FLUSH_MS of them).
 */
export class ViewCounter {
  private pending = new Map<string, PendingView>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<number> | undefined;

  constructor(private readonly db: Db, private readonly onError: (err: unknown) => void = () => {}) {}

  /** Counts a view of `nameId` by `viewer` (a user id or a hashed client address). */
  count(nameId: number, viewer: string, at = new Date()): void {
    const day = at.toISOString().slice(0, 10);
    const key = `${nameId}|${day}|${viewer}`;
    if (!this.pending.has(key)) this.pending.set(key, { nameId, day, viewer, at });
    if (this.pending.size >= MAX_PENDING) void this.flush().catch(this.onError);
    else this.timer ??= setTimeout(() => { this.timer = undefined; void this.flush().catch(this.onError); }, VIEW_FLUSH_MS).unref();
  }

  /** Writes what is pending; returns how many new viewer-days were stored. */
  async flush(): Promise<number> {
    if (this.flushing) await this.flushing.catch(() => 0);
    const batch = [...this.pending.values()];
    this.pending = new Map();
    if (batch.length === 0) return 0;
    this.flushing = this.write(batch);
    try {
      return await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  /** Flushes and stops the timer (shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(batch: PendingView[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await sql<{ ens_name_id: number; day: string; viewer: string }>`
        INSERT INTO name_views_daily (ens_name_id, day, viewer, seen_at)
        SELECT v.id, v.day::date, v.viewer, v.at
        FROM unnest(${batch.map((v) => v.nameId)}::bigint[], ${batch.map((v) => v.day)}::text[], ${batch.map((v) => v.viewer)}::text[], ${batch.map((v) => v.at.toISOString())}::timestamptz[]) AS v(id, day, viewer, at)
        WHERE EXISTS (SELECT 1 FROM ens_names n WHERE n.id = v.id)
        ON CONFLICT DO NOTHING
        RETURNING ens_name_id, day::text AS day, viewer`.execute(trx);
      if (inserted.rows.length === 0) return 0;
      await countViewers(trx, inserted.rows);
      const perName = new Map<number, number>();
      for (const r of inserted.rows) perName.set(r.ens_name_id, (perName.get(r.ens_name_id) ?? 0) + 1);
      await sql`
        INSERT INTO name_view_counts (ens_name_id, views)
        SELECT * FROM unnest(${[...perName.keys()]}::bigint[], ${[...perName.values()]}::bigint[])
        ORDER BY 1
        ON CONFLICT (ens_name_id) DO UPDATE SET views = name_view_counts.views + EXCLUDED.views`.execute(trx);
      // A view counts in the hour it was flushed; its day is kept above.
      const now = new Date();
      await bumpTrends(trx, inserted.rows.map((r) => ({ metric: 'views' as const, nameId: r.ens_name_id, at: now, delta: 1 })));
      return inserted.rows.length;
    });
  }
}

/** UTC days the distinct-viewer counters keep (a 7-day period touches 8; one more for the day's turn). */
export const VIEWER_DAYS_KEPT = 9;

/**
 * Keeps the distinct-viewer counters (migration 0030) for new viewer-days: a viewer new to a name
 * (or whose latest day is no longer kept) adds one to their day's count, a returning viewer moves
 * from their latest day to the new one, an older day changes nothing. Flushes take turns (a
 * transaction lock): two flushes of one viewer would otherwise both count them as new. Days past
 * the kept ones leave both tables in the same turn.
 */
async function countViewers(trx: Executor, rows: readonly { ens_name_id: number; day: string; viewer: string }[]): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('name_viewers'))`.execute(trx);
  const newest = new Map<string, { id: number; viewer: string; day: string }>();
  for (const r of rows) {
    const key = `${r.ens_name_id}|${r.viewer}`;
    const seen = newest.get(key);
    if (!seen || seen.day < r.day) newest.set(key, { id: r.ens_name_id, viewer: r.viewer, day: r.day });
  }
  const pairs = [...newest.values()];
  const { rows: before } = await sql<{ ens_name_id: number; viewer: string; day: string }>`
    SELECT l.ens_name_id, l.viewer, l.day::text AS day FROM unnest(${pairs.map((p) => p.id)}::bigint[], ${pairs.map((p) => p.viewer)}::text[]) AS v(id, viewer)
    JOIN name_viewer_latest l ON l.ens_name_id = v.id AND l.viewer = v.viewer`.execute(trx);
  const latest = new Map(before.map((b) => [`${b.ens_name_id}|${b.viewer}`, b.day]));
  const moves = new Map<string, { id: number; day: string; delta: number }>();
  const move = (id: number, day: string, delta: number) => {
    const key = `${id}|${day}`;
    const m = moves.get(key) ?? { id, day, delta: 0 };
    m.delta += delta;
    moves.set(key, m);
  };
  const moved = pairs.filter((p) => {
    const was = latest.get(`${p.id}|${p.viewer}`);
    if (was !== undefined && was >= p.day) return false;
    if (was !== undefined) move(p.id, was, -1);
    move(p.id, p.day, 1);
    return true;
  });
  if (moved.length > 0) await sql`
    INSERT INTO name_viewer_latest (ens_name_id, viewer, day)
    SELECT * FROM unnest(${moved.map((p) => p.id)}::bigint[], ${moved.map((p) => p.viewer)}::text[], ${moved.map((p) => p.day)}::date[]) ORDER BY 1, 2
    ON CONFLICT (ens_name_id, viewer) DO UPDATE SET day = EXCLUDED.day`.execute(trx);
  // a day a viewer left has its row (they were counted there); a day they reached may not yet
  const left = [...moves.values()].filter((m) => m.delta < 0);
  const reached = [...moves.values()].filter((m) => m.delta > 0);
  if (left.length > 0) await sql`
    UPDATE name_viewers_by_day c SET viewers = c.viewers + m.delta
    FROM unnest(${left.map((m) => m.id)}::bigint[], ${left.map((m) => m.day)}::date[], ${left.map((m) => m.delta)}::int[]) AS m(id, day, delta)
    WHERE c.ens_name_id = m.id AND c.day = m.day`.execute(trx);
  if (reached.length > 0) await sql`
    INSERT INTO name_viewers_by_day (ens_name_id, day, viewers)
    SELECT * FROM unnest(${reached.map((m) => m.id)}::bigint[], ${reached.map((m) => m.day)}::date[], ${reached.map((m) => m.delta)}::int[]) ORDER BY 1, 2
    ON CONFLICT (ens_name_id, day) DO UPDATE SET viewers = name_viewers_by_day.viewers + EXCLUDED.viewers`.execute(trx);
  // last, so that no day before the kept ones outlives the turn (one just counted, one that aged)
  await sql`DELETE FROM name_viewer_latest WHERE day < current_date - ${VIEWER_DAYS_KEPT}::int`.execute(trx);
  await sql`DELETE FROM name_viewers_by_day WHERE day < current_date - ${VIEWER_DAYS_KEPT}::int`.execute(trx);
}

/** Rebuilds the distinct-viewer counters from the stored views (the seed, after loading them), in their keys' order (see trend-counters.ts's SOURCES). */
export async function rebuildViewerCounts(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // a grouping of every stored view: sorted in memory rather than through temporary files
    await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
    await sql`DELETE FROM name_viewers_by_day`.execute(trx);
    await sql`DELETE FROM name_viewer_latest`.execute(trx);
    await sql`
      INSERT INTO name_viewer_latest (ens_name_id, viewer, day)
      SELECT ens_name_id, viewer, max(day) FROM name_views_daily WHERE day >= current_date - ${VIEWER_DAYS_KEPT}::int GROUP BY 1, 2 ORDER BY 1, 2`.execute(trx);
    await sql`INSERT INTO name_viewers_by_day (ens_name_id, day, viewers) SELECT ens_name_id, day, count(*) FROM name_viewer_latest GROUP BY 1, 2 ORDER BY 1, 2`.execute(trx);
  });
}

const counters = new WeakMap<Db, ViewCounter>();

/** The process's one view counter for a database (routes count, shutdown and tests flush). */
export function viewCounterOf(db: Db, onError?: (err: unknown) => void): ViewCounter {
  let counter = counters.get(db);
  if (!counter) {
    counter = new ViewCounter(db, onError);
    counters.set(db, counter);
  }
  return counter;
}
