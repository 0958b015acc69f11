import { sql, type Kysely } from 'kysely';

/**
 * What the collaborative recommendations walk, each a bounded index range:
 * - a viewer's recent name views (the names other viewers of a name also viewed);
 * - a name's recent upvoters and a user's recent upvotes (names liked by people who like yours).
 * The watchlist side uses the watchlist tables' own indexes (by name, by user and time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS name_views_daily_viewer_idx ON name_views_daily (viewer, day DESC) INCLUDE (ens_name_id);
    CREATE INDEX IF NOT EXISTS votes_name_up_idx ON votes (ens_name_id, updated_at DESC) INCLUDE (user_id) WHERE vote = 1;
    CREATE INDEX IF NOT EXISTS votes_user_up_idx ON votes (user_id, updated_at DESC) INCLUDE (ens_name_id) WHERE vote = 1;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS votes_user_up_idx;
    DROP INDEX IF EXISTS votes_name_up_idx;
    DROP INDEX IF EXISTS name_views_daily_viewer_idx;
  `.execute(db);
}
