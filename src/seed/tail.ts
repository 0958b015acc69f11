import type pg from 'pg';
import { restoreParked } from './bulk.js';

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
 * Adds the parked keys again, checking all rows at once (only those of `tables` when given). A
 * foreign key takes the names in SHARE ROW EXCLUSIVE mode: only while nothing writes them, builds
 * their indexes or analyzes them.
 */
export function attachParked(pool: pg.Pool, tables?: readonly string[]): Promise<void> {
  return inTransaction(pool, (client) => restoreParked(client, tables));
}
