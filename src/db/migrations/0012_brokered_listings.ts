import { sql, type Kysely } from 'kysely';

/**
 * Brokered listings (a listing whose order pays a broker's fee): one partial index over them, by
 * broker and newest first, carrying what GET /brokered-listings/broker/:address filters on and
 * what /brokered-listings/stats sums, so both read only brokered listings, never the whole table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS listings_broker_idx ON listings (broker_address, created_at DESC, id DESC)
    INCLUDE (ens_name_id, status, expires_at, broker_fee_bps) WHERE broker_address IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS listings_broker_idx`.execute(db);
}
