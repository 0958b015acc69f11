import { sql, type Kysely } from 'kysely';

/**
 * The open listings and offers past their end time (the analytics feeds' `expired` status reads
 * them beside the expired rows, feeds.repository statusRanges) from the status's end-time index
 * alone: it carries what the feeds filter and sort on. Without it the planner, guessing that most
 * open rows have ended (the column's statistics mix every status), read all 39,000 active
 * listings' entries of the price index to find none: 4-7 ms a page, at every request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX listings_status_expires_idx;
    CREATE INDEX listings_status_expires_idx ON listings (status, expires_at, id) INCLUDE (name_expiry_date, created_at, source, clubs, price_wei);
    DROP INDEX offers_status_expires_idx;
    CREATE INDEX offers_status_expires_idx ON offers (status, expires_at, id) INCLUDE (created_at, source, clubs, offer_amount_wei);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX listings_status_expires_idx;
    CREATE INDEX listings_status_expires_idx ON listings (status, expires_at, id) INCLUDE (name_expiry_date);
    DROP INDEX offers_status_expires_idx;
    CREATE INDEX offers_status_expires_idx ON offers (status, expires_at, id);
  `.execute(db);
}
