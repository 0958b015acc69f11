import { sql, type Kysely } from 'kysely';

/**
 * A name's listing summary is one listing's (orders/summaries.ts): its price and its creation time
 * are set and cleared together. Search relies on it (a listed walk reads `listed` from
 * listing_created_at, which the listed-names index holds, instead of listing_price_wei); the
 * constraint keeps it so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE ens_names ADD CONSTRAINT ens_names_listing_summary_whole
      CHECK ((listing_price_wei IS NULL) = (listing_created_at IS NULL)) NOT VALID;
    ALTER TABLE ens_names VALIDATE CONSTRAINT ens_names_listing_summary_whole;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ens_names DROP CONSTRAINT IF EXISTS ens_names_listing_summary_whole`.execute(db);
}
