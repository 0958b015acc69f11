import { sql, type Kysely } from 'kysely';

/**
 * Monthly rows in the market rollups (grain `month`, the sums of a month's daily rows, kept by the
 * same refresh): a period of a year or all time sums its whole months from them and only the days
 * outside whole months from the daily rows. At a million names all-time registrations by label
 * length summed 54,630 daily rows (57 ms per uncached request); the monthly rows of every kind
 * are 7,114 in all. Filled here from the daily rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE market_rollups DROP CONSTRAINT market_rollups_grain_check;
    ALTER TABLE market_rollups ADD CONSTRAINT market_rollups_grain_check CHECK (grain IN ('hour', 'day', 'month'));
    INSERT INTO market_rollups (grain, kind, bucket, source, clubs, band, name_length, count, eth_count, volume_wei, max_wei, min_wei,
                                base_cost_wei, premium_wei, premium_count)
    SELECT 'month', kind, date_trunc('month', bucket, 'UTC'), source, clubs, band, name_length, sum(count), sum(eth_count), sum(volume_wei),
           max(max_wei), min(min_wei), sum(base_cost_wei), sum(premium_wei), sum(premium_count)
    FROM market_rollups WHERE grain = 'day'
    GROUP BY kind, date_trunc('month', bucket, 'UTC'), source, clubs, band, name_length;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DELETE FROM market_rollups WHERE grain = 'month';
    ALTER TABLE market_rollups DROP CONSTRAINT market_rollups_grain_check;
    ALTER TABLE market_rollups ADD CONSTRAINT market_rollups_grain_check CHECK (grain IN ('hour', 'day'));
  `.execute(db);
}
