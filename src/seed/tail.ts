import type pg from 'pg';
import { prebuildParked, restoreParked } from './bulk.js';

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
 * Sequences past the explicit ids, then the summaries kept on each name, in one UPDATE of the
 * names that have any: the highest pending, unexpired offer, the cheapest active, unexpired
 * listing (and when the newest was listed), and the vote counts. The names' parked indexes, and
 * the indexes of their unique keys, are built after it in the same transaction; the keys
 * themselves are attached by `attachParked` once nothing else reads the names. Then the loaded
 * tables are analyzed, so that the refreshes that follow are planned on their real sizes.
 */
export async function denormalize(pool: pg.Pool, now: number, sequenced: readonly string[], analyzed: readonly string[]): Promise<void> {
  await inTransaction(pool, async (client) => {
    for (const t of sequenced) await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST(1, (SELECT max(id) FROM ${t})), (SELECT count(*) > 0 FROM ${t}))`, [t]);
    await client.query(`
      WITH o AS (
        SELECT DISTINCT ON (ens_name_id) ens_name_id, id, offer_amount_wei, currency_address FROM offers
        WHERE status = 'pending' AND (expires_at IS NULL OR expires_at > $1)
        ORDER BY ens_name_id, offer_amount_wei DESC, created_at, id
      ), l AS (
        SELECT DISTINCT ON (ens_name_id) ens_name_id, price_wei, currency_address, max(created_at) OVER (PARTITION BY ens_name_id) AS newest,
          COALESCE(expires_at, 'infinity') AS expires_at
        FROM listings WHERE status = 'active' AND (expires_at IS NULL OR expires_at > $1)
        ORDER BY ens_name_id, price_wei, id
      ), v AS (
        SELECT ens_name_id, count(*) FILTER (WHERE vote = 1)::int AS up, count(*) FILTER (WHERE vote = -1)::int AS down
        FROM votes GROUP BY ens_name_id
      ), s AS (
        SELECT coalesce(o.ens_name_id, l.ens_name_id, v.ens_name_id) AS id, o.id AS offer_id, o.offer_amount_wei, o.currency_address AS offer_currency,
               l.price_wei, l.currency_address AS listing_currency, l.newest, l.expires_at, v.up, v.down
        FROM o FULL JOIN l ON l.ens_name_id = o.ens_name_id FULL JOIN v ON v.ens_name_id = coalesce(o.ens_name_id, l.ens_name_id)
      )
      UPDATE ens_names n SET highest_offer_wei = s.offer_amount_wei, highest_offer_currency = s.offer_currency, highest_offer_id = s.offer_id,
        listing_price_wei = s.price_wei, listing_currency = s.listing_currency, listing_created_at = s.newest, listing_expires_at = s.expires_at,
        upvotes = coalesce(s.up, 0), downvotes = coalesce(s.down, 0)
      FROM s WHERE n.id = s.id`, [new Date(now)]);
    await prebuildParked(client);
  });
  await analyze(pool, analyzed);
}

/** Statistics of freshly loaded tables (autovacuum may be off, and is late anyway). */
export function analyze(pool: pg.Pool, tables: readonly string[]): Promise<void> {
  return inTransaction(pool, async (client) => void (await client.query(`ANALYZE ${tables.join(', ')}`)));
}

/**
 * Adds the parked keys again, checking all rows at once (only those of `tables` when given), and
 * attaches the parked unique keys to the indexes `denormalize` built. A foreign key takes the
 * names in SHARE ROW EXCLUSIVE mode: only while nothing writes them, builds their indexes or
 * analyzes them.
 */
export function attachParked(pool: pg.Pool, tables?: readonly string[]): Promise<void> {
  return inTransaction(pool, (client) => restoreParked(client, tables));
}
