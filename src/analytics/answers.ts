import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db, Executor } from '../db/client.js';

/**
 * The computed answers of the analytics and charts reads, kept in process per normalized query
 * (the period's current bucket included) for as long as the rollups and snapshots they come from
 * have not changed. Each refresh that changes them bumps one generation number in its own
 * transaction (`sync_state`, key `analytics.generation`); a process answers from a generation read
 * less than a second ago (one primary-key read, every half second in the background while it is
 * asked) and reads it at once after a refresh it ran itself. An answer kept under an older
 * generation is computed again, so a reader gets what a fresh computation gives: at once in the
 * process that ran the refresh, within a second in any other worker or process (WEB_CONCURRENCY
 * workers each keep their own). Pages of raw rows (the sales and registrations feeds) are kept at
 * most FEED_MS on top of that. An answer past half its time is computed again in the background,
 * so under steady load no request waits for a computation. Redis (REDIS_URL) is not used: a
 * shared entry would need the same check of the generation, and each worker computes an answer
 * once per refresh (a few milliseconds a minute).
 */
const GENERATION_KEY = 'analytics.generation';
const POLL_MS = 1000;
/** A guard against a writer that forgets the bump: no answer is older than this. */
const MAX_AGE_MS = 60_000;
export const FEED_MS = 2000;

/**
 * Marks the rollups or snapshots as changed: the last statement of the refresh's transaction (the
 * row lock is then held only until its commit).
 */
export async function bumpGeneration(trx: Executor): Promise<void> {
  await sql`
    INSERT INTO sync_state (key, value, updated_at) VALUES (${GENERATION_KEY}, '1'::jsonb, now())
    ON CONFLICT (key) DO UPDATE SET value = to_jsonb((sync_state.value #>> '{}')::bigint + 1), updated_at = now()
  `.execute(trx);
}

interface Entry {
  generation: number;
  /** when its computation started, and how long it may be kept from then */
  startedAt: number;
  maxAgeMs: number;
  value: Promise<unknown>;
  settled: boolean;
  refreshing: boolean;
}

class Answers {
  /** bumps this process committed through this database: the generation is read again before the next answer */
  private localBumps = 0;
  private generation = -1;
  /** when the read that gave `generation` started, and the local bumps it had seen */
  private checkedAt = -Infinity;
  private checkedBumps = -1;
  private reading: { bumps: number; value: Promise<number> } | undefined;
  private readonly kept = new LRUCache<string, Entry>({ max: 2_000 });

  constructor(private readonly db: Db) {}

  changed(): void {
    this.localBumps++;
  }

  /**
   * The generation, read at most POLL_MS ago. Past half of that a read starts in the background
   * and the answers go on with the generation in hand, so under steady load no request waits for it.
   */
  private current(): number | Promise<number> {
    const age = Date.now() - this.checkedAt;
    if (this.checkedBumps === this.localBumps && age < POLL_MS) {
      if (age >= POLL_MS / 2 && this.reading === undefined) this.startReading();
      return this.generation;
    }
    // a read started before a local bump may have missed it: such a read is not joined
    if (this.reading?.bumps !== this.localBumps) this.startReading();
    return (this.reading as { value: Promise<number> }).value;
  }

  private startReading(): void {
    const value = this.read();
    value.catch(() => {}); // a background read's failure is the next waiting reader's
    this.reading = { bumps: this.localBumps, value };
  }

  private async read(): Promise<number> {
    const startedAt = Date.now();
    const bumps = this.localBumps;
    try {
      const row = await sql<{ n: string | null }>`SELECT value #>> '{}' AS n FROM sync_state WHERE key = ${GENERATION_KEY}`.execute(this.db);
      const generation = Number(row.rows[0]?.n ?? 0);
      if (startedAt >= this.checkedAt) {
        this.generation = generation;
        this.checkedAt = startedAt;
        this.checkedBumps = bumps;
      }
      return generation;
    } finally {
      if (this.reading?.bumps === bumps) this.reading = undefined;
    }
  }

  private compute<T>(key: string, generation: number, maxAgeMs: number, compute: () => Promise<T>): Entry {
    const entry: Entry = { generation, startedAt: Date.now(), maxAgeMs: Math.min(maxAgeMs, MAX_AGE_MS), value: compute(), settled: false, refreshing: false };
    entry.value.then(() => {
      entry.settled = true;
    }, () => {
      // a failure is not kept: the next request computes again
      if (this.kept.peek(key) === entry) this.kept.delete(key);
    });
    return entry;
  }

  private lookup<T>(generation: number, key: string, maxAgeMs: number, compute: () => Promise<T>): Promise<T> {
    const hit = this.kept.get(key);
    if (hit !== undefined && hit.generation === generation) {
      const age = Date.now() - hit.startedAt;
      if (age < hit.maxAgeMs) {
        // past half its time, the next one is computed in the background and replaces it when ready
        if (age >= hit.maxAgeMs / 2 && hit.settled && !hit.refreshing) {
          hit.refreshing = true;
          const next = this.compute(key, generation, maxAgeMs, compute);
          next.value.then(() => {
            if (this.kept.peek(key) === hit) this.kept.set(key, next);
          }, () => {
            hit.refreshing = false;
          });
        }
        return hit.value as Promise<T>;
      }
    }
    const entry = this.compute(key, generation, maxAgeMs, compute);
    this.kept.set(key, entry);
    return entry.value as Promise<T>;
  }

  /** The answer of `key` at the current generation; concurrent askers share one computation. */
  get<T>(key: string, compute: () => Promise<T>, maxAgeMs = MAX_AGE_MS): Promise<T> {
    const generation = this.current();
    return typeof generation === 'number'
      ? this.lookup(generation, key, maxAgeMs, compute)
      : generation.then((g) => this.lookup(g, key, maxAgeMs, compute));
  }
}

const byDb = new WeakMap<Db, Answers>();

/** Call after a transaction that bumped the generation committed: this process's answers are checked at once. */
export function generationChanged(db: Db): void {
  byDb.get(db)?.changed();
}

/** The answers kept for a database (one set per process and database, shared by its services). */
export function answersOf(db: Db): Answers {
  let answers = byDb.get(db);
  if (answers === undefined) {
    answers = new Answers(db);
    byDb.set(db, answers);
  }
  return answers;
}
