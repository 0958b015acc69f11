import { sql, type Kysely } from 'kysely';

/**
 * Chain sync. Each name remembers the chain position (block, log index) of the newest state the
 * sync wrote to it (owner, wrapped, registration and expiry dates), so that an older event or an
 * older subgraph page never overwrites newer state: the subgraph gives current state as of a
 * block, the event sync may replay history behind it, and either may run first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE ens_names
      ADD COLUMN synced_block bigint,
      ADD COLUMN synced_log_index integer;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE ens_names DROP COLUMN IF EXISTS synced_block, DROP COLUMN IF EXISTS synced_log_index;
  `.execute(db);
}
