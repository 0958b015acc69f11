import { sql, type Kysely } from 'kysely';

/**
 * When a verification token's mail was handed to the mail server: a mail job that pg-boss runs
 * again after a crash (it delivers at least once) sees the mail already went and does not send it
 * twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE email_verification_tokens ADD COLUMN IF NOT EXISTS mailed_at timestamptz;`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE email_verification_tokens DROP COLUMN IF EXISTS mailed_at;`.execute(db);
}
