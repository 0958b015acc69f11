import { sql, type Kysely } from 'kysely';

/**
 * Comments on names and each user's block list.
 *
 * - `comments`: plain text as the author sent it (trimmed), never HTML; ids grow with time, so
 *   "newest first" is `id DESC` and a page cursor is the last id seen. A name's page walks
 *   `comments_name_idx`, an author's `comments_user_idx`, the feed the primary key: every page is
 *   a bounded index range at any table size.
 * - `user_blocks`: whom a user blocked; their comments are left out of what the blocker reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS comments (
      id bigserial PRIMARY KEY,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS comments_name_idx ON comments (ens_name_id, id DESC);
    CREATE INDEX IF NOT EXISTS comments_user_idx ON comments (user_id, id DESC);

    CREATE TABLE IF NOT EXISTS user_blocks (
      blocker_user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      blocked_user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (blocker_user_id, blocked_user_id),
      CHECK (blocker_user_id <> blocked_user_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS user_blocks; DROP TABLE IF EXISTS comments;`.execute(db);
}
