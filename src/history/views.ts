import { sql } from 'kysely';
import type { Db } from '../db/client.js';
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
      const inserted = await sql<{ ens_name_id: number; day: string }>`
        INSERT INTO name_views_daily (ens_name_id, day, viewer, seen_at)
        SELECT v.id, v.day::date, v.viewer, v.at
        FROM unnest(${batch.map((v) => v.nameId)}::bigint[], ${batch.map((v) => v.day)}::text[], ${batch.map((v) => v.viewer)}::text[], ${batch.map((v) => v.at.toISOString())}::timestamptz[]) AS v(id, day, viewer, at)
        WHERE EXISTS (SELECT 1 FROM ens_names n WHERE n.id = v.id)
        ON CONFLICT DO NOTHING
        RETURNING ens_name_id, day::text AS day`.execute(trx);
      if (inserted.rows.length === 0) return 0;
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
