import { sql, type Kysely } from 'kysely';

/**
 * Notification preferences the web app edits on the profile page (PATCH /users/me). The
 * threshold is in ETH as the app sends it (a preference shown to people, not an amount that
 * moves money); NULL means every offer counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE users
      ADD COLUMN notify_on_offer_received boolean NOT NULL DEFAULT true,
      ADD COLUMN notify_on_listing_sold boolean NOT NULL DEFAULT true,
      ADD COLUMN min_offer_threshold numeric(40,18) CHECK (min_offer_threshold >= 0);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE users
      DROP COLUMN IF EXISTS notify_on_offer_received,
      DROP COLUMN IF EXISTS notify_on_listing_sold,
      DROP COLUMN IF EXISTS min_offer_threshold;
  `.execute(db);
}
