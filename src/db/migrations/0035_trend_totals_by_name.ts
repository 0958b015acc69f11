import { sql, type Kysely } from 'kysely';

/**
 * A name's trend totals of one period, every metric, in one range: the composite ranking shows each
 * of its names' figures (views, watchlist adds, votes, offers, listings, sales), which the primary
 * key (metric first) read in six descents a name; a 20-name page read 400 index pages, 0.74 ms of
 * its statement's 1.1 at a million names (now 164 pages, 0.39 ms). It also serves the foreign key
 * to the names (a name's deletion found its totals by a scan of the table).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`CREATE INDEX trend_totals_name_idx ON trend_totals (ens_name_id, period_hours) INCLUDE (metric, total, positive)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS trend_totals_name_idx`.execute(db);
}
