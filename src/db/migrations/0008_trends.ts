import { sql, type Kysely } from 'kysely';

/**
 * Trend counters (src/trends): per metric, name and UTC hour, kept by the writes themselves, and
 * per metric, period and name the sum over the period's hours, so a trending page is an index
 * scan of `trend_totals` instead of an aggregate over raw events. `trend_windows` holds the first
 * hour each period still counts; rolling it forward subtracts the hours that left the period.
 *
 * The backfill repeats `rebuildTrends` (src/trends/trend-counters.ts) as of this migration, so a
 * database with votes has its trending figures at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The backfill reads a week of casts: longer than the API's statement timeout on a big database.
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE trend_windows (
      period_hours integer PRIMARY KEY CHECK (period_hours > 0),
      start_hour timestamptz NOT NULL
    );
    INSERT INTO trend_windows (period_hours, start_hour)
    SELECT p, date_trunc('hour', now(), 'UTC') - make_interval(hours => p) FROM unnest(ARRAY[24, 168]) AS p;

    CREATE TABLE trend_buckets (
      hour timestamptz NOT NULL,
      metric text NOT NULL,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      total integer NOT NULL,
      positive integer NOT NULL DEFAULT 0,
      PRIMARY KEY (hour, metric, ens_name_id)
    );

    CREATE TABLE trend_totals (
      metric text NOT NULL,
      period_hours integer NOT NULL REFERENCES trend_windows(period_hours) ON DELETE CASCADE,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      total integer NOT NULL,
      positive integer NOT NULL DEFAULT 0,
      PRIMARY KEY (metric, period_hours, ens_name_id)
    );
    CREATE INDEX trend_totals_rank_idx ON trend_totals (metric, period_hours, total DESC, positive DESC, ens_name_id) WHERE total > 0;

    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT date_trunc('hour', cast_at, 'UTC'), 'votes', ens_name_id, count(*), count(*) FILTER (WHERE vote = 1)
    FROM (
      SELECT DISTINCT ON (user_id, ens_name_id) ens_name_id, vote, cast_at FROM vote_events
      WHERE cast_at >= (SELECT min(start_hour) FROM trend_windows)
      ORDER BY user_id, ens_name_id, cast_at DESC, id DESC
    ) latest
    WHERE vote <> 0
    GROUP BY 1, 3;

    INSERT INTO trend_totals (metric, period_hours, ens_name_id, total, positive)
    SELECT b.metric, w.period_hours, b.ens_name_id, sum(b.total), sum(b.positive)
    FROM trend_buckets b JOIN trend_windows w ON b.hour >= w.start_hour
    GROUP BY 1, 2, 3;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS trend_totals; DROP TABLE IF EXISTS trend_buckets; DROP TABLE IF EXISTS trend_windows;`.execute(db);
}
