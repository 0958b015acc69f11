import { sql, type Kysely } from 'kysely';

/**
 * A signed-in user's history (GET /user/history/*) reads only that user's rows, newest first:
 * their votes (up or down) and the offers they made in any status. Name views by viewer
 * (name_views_daily_viewer_idx, 0015) and sales by buyer and seller (0009) have such indexes already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS votes_user_updated_idx ON votes (user_id, updated_at DESC, ens_name_id);
    CREATE INDEX IF NOT EXISTS offers_buyer_created_idx ON offers (buyer_address, created_at DESC, id DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS votes_user_updated_idx, offers_buyer_created_idx;`.execute(db);
}
