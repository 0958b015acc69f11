import { sql, type Kysely } from 'kysely';

/**
 * Community: indexes behind the vote leaderboard's other two sorts (0001 has the net-score one)
 * and behind trending (an index-only range scan of the period's vote events).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX ens_names_upvotes_idx ON ens_names (upvotes DESC, id) WHERE upvotes + downvotes > 0;
    CREATE INDEX ens_names_downvotes_idx ON ens_names (downvotes DESC, id) WHERE upvotes + downvotes > 0;
    CREATE INDEX vote_events_period_idx ON vote_events (cast_at) INCLUDE (ens_name_id, user_id, vote, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS vote_events_period_idx;
    DROP INDEX IF EXISTS ens_names_downvotes_idx;
    DROP INDEX IF EXISTS ens_names_upvotes_idx;
  `.execute(db);
}
