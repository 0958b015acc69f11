import { sql, type Kysely } from 'kysely';

/**
 * Daily totals in the market rollups (grain `day_total`: a day's rows of one kind and source summed
 * over every club set, price band and label length; clubs `{}`, band -1, name length 0), kept by
 * the same refresh: a chart of every name (no club filter) reads one row per day and source. Its
 * all-time registrations summed 54,772 daily rows at a million names (137 ms, an external sort),
 * computed again after each refresh that bumps the answers' generation (every minute in a live
 * market). Filled here from the daily rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE market_rollups DROP CONSTRAINT market_rollups_grain_check;
    ALTER TABLE market_rollups ADD CONSTRAINT market_rollups_grain_check CHECK (grain IN ('hour', 'day', 'month', 'day_total'));
    INSERT INTO market_rollups (grain, kind, bucket, source, clubs, band, name_length, count, eth_count, volume_wei, max_wei, min_wei,
                                base_cost_wei, premium_wei, premium_count)
    SELECT 'day_total', kind, bucket, source, '{}', -1, 0, sum(count), sum(eth_count), sum(volume_wei),
           max(max_wei), min(min_wei), sum(base_cost_wei), sum(premium_wei), sum(premium_count)
    FROM market_rollups WHERE grain = 'day'
    GROUP BY kind, bucket, source
    ORDER BY kind, bucket, source;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DELETE FROM market_rollups WHERE grain = 'day_total';
    ALTER TABLE market_rollups DROP CONSTRAINT market_rollups_grain_check;
    ALTER TABLE market_rollups ADD CONSTRAINT market_rollups_grain_check CHECK (grain IN ('hour', 'day', 'month'));
  `.execute(db);
}
