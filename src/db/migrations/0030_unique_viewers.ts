import { sql, type Kysely } from 'kysely';

/**
 * Distinct viewers of a name since a day, from counters kept by the view counter's flush instead
 * of a distinct count over `name_views_daily` per request (the 7-day views trending page counted
 * some 10,000 viewer-days for its 20 names: 5 ms of its 6). `name_viewer_latest` holds each
 * viewer's latest viewing day of a name, `name_viewers_by_day` how many viewers of a name have
 * each day as their latest: the viewers since day D are the sum over the days from D. Only the
 * last days are kept (a viewer whose latest day is older counts as new when they return), which
 * covers every period asked (7 days touch 8 UTC days).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // the backfill reads the kept days of every name's views (a few seconds at a million names)
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE name_viewer_latest (
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      viewer text NOT NULL,
      day date NOT NULL,
      PRIMARY KEY (ens_name_id, viewer)
    );
    CREATE INDEX name_viewer_latest_day_idx ON name_viewer_latest (day);
    CREATE TABLE name_viewers_by_day (
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      day date NOT NULL,
      viewers integer NOT NULL CHECK (viewers >= 0),
      PRIMARY KEY (ens_name_id, day)
    );
    CREATE INDEX name_viewers_by_day_day_idx ON name_viewers_by_day (day);
    INSERT INTO name_viewer_latest (ens_name_id, viewer, day)
      SELECT ens_name_id, viewer, max(day) FROM name_views_daily WHERE day >= current_date - 9 GROUP BY 1, 2;
    INSERT INTO name_viewers_by_day (ens_name_id, day, viewers)
      SELECT ens_name_id, day, count(*) FROM name_viewer_latest GROUP BY 1, 2;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE name_viewers_by_day; DROP TABLE name_viewer_latest`.execute(db);
}
