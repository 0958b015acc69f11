import { sql, type Kysely } from 'kysely';

/**
 * The clubs_count sort and club-count filters of the reference's search walk an index like the
 * other sorts (0005), instead of sorting every searchable name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS ens_names_s_clubs_count_idx ON ens_names (cardinality(clubs), id) WHERE searchable;`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS ens_names_s_clubs_count_idx;`.execute(db);
}
