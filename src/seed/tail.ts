import type pg from 'pg';
import { addParkedKeysUnchecked, restoreParked, type SchemaItem } from './bulk.js';

/** Runs `work` in one transaction on a connection of its own, without statement timeout. */
export async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL statement_timeout = 0');
    await work(client);
    await client.query('COMMIT');
    client.release();
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
}

/**
 * Sequences past the explicit ids; then the tables not analyzed yet, so that the refreshes that
 * follow are planned on their real sizes (such as the two rows of the trend windows, never analyzed
 * otherwise, which the trend rebuild joins its buckets with).
 */
export async function sequencesAndStatistics(pool: pg.Pool, sequenced: readonly string[], analyzed: readonly string[]): Promise<void> {
  await inTransaction(pool, async (client) => {
    // max(id) is one probe of the primary key; whether there are rows is the first row, not a count of millions
    for (const t of sequenced) await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST(1, (SELECT max(id) FROM ${t})), EXISTS (SELECT FROM ${t}))`, [t]);
  });
  await analyze(pool, analyzed);
}

/** Statistics of freshly loaded tables (autovacuum may be off, and is late anyway). */
export function analyze(pool: pg.Pool, tables: readonly string[]): Promise<void> {
  return inTransaction(pool, async (client) => void (await client.query(`ANALYZE ${tables.join(', ')}`)));
}

/**
 * Adds the parked keys and indexes again, once nothing else is running. Adding a foreign key checks
 * all its rows in one join, under a SHARE ROW EXCLUSIVE lock of the names that a second one waits
 * for: one after another they were 8 seconds of a million-name seed on one core (5 s now). So the keys are
 * added unchecked (NOT VALID) in one short transaction, then validated on `lanes` connections side
 * by side, biggest table first (VALIDATE locks the names in ROW SHARE mode only); the rest (parked
 * indexes, unique keys) is built and the parked list forgotten last.
 */
export async function attachParked(pool: pg.Pool, lanes = 2): Promise<void> {
  let keys: SchemaItem[] = [];
  await inTransaction(pool, async (client) => {
    keys = await addParkedKeysUnchecked(client);
  });
  const { rows: sizes } = await pool.query<{ table: string; bytes: string }>(`SELECT t AS table, pg_relation_size(t::regclass) AS bytes FROM unnest($1::text[]) t`,
    [[...new Set(keys.map((k) => k.table))]]);
  const bySize = new Map(sizes.map((s) => [s.table, Number(s.bytes)]));
  const queue = [...keys].sort((a, b) => (bySize.get(b.table) ?? 0) - (bySize.get(a.table) ?? 0));
  const validated = await Promise.allSettled(Array.from({ length: lanes }, async () => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) {
      const key = k;
      await inTransaction(pool, async (client) => void (await client.query(`ALTER TABLE ${key.table} VALIDATE CONSTRAINT ${key.name}`)));
    }
  }));
  const failed = validated.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  await inTransaction(pool, (client) => restoreParked(client));
}
