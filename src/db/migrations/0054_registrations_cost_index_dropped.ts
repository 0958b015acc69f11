import { sql, type Kysely } from 'kysely';

/**
 * The registrations' cost index (0010) served the registrations feed sorted by cost; since 0049
 * that feed reads registration_feed's own indexes and no statement orders or ranges registrations
 * by cost. It cost every registration insert a write and a million-name seed its build (33 MB).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS registrations_cost_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS registrations_cost_idx ON registrations (cost_wei, id) WHERE kind = 'registration'`.execute(db);
}
