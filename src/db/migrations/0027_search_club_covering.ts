import { sql, type Kysely } from 'kysely';

/**
 * Search pages filtered by club read the club list from the index that orders them instead of
 * each name's row: a text's prefix range in ens_names_s_alpha_idx (`q=ab&clubs[]=100k`: 3,459
 * labels starting with `ab`, each a table row to check for the club, 6-190 ms at a million names)
 * and the listed names newest first in ens_names_s_listed_idx (`clubs[]=999&minLength=3&maxLength=5`
 * sorted by listing date: 6-30 ms walking listed rows, 0.7 ms from the index), with the length and
 * character class the same filters ask.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX IF EXISTS ens_names_s_alpha_idx;
    CREATE INDEX ens_names_s_alpha_idx ON ens_names ((label COLLATE "C"), id) INCLUDE (label_length, clubs) WHERE searchable;
    DROP INDEX IF EXISTS ens_names_s_listed_idx;
    CREATE INDEX ens_names_s_listed_idx ON ens_names (listing_created_at, id) INCLUDE (clubs, label_length, char_class)
      WHERE searchable AND listing_created_at IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX IF EXISTS ens_names_s_alpha_idx;
    CREATE INDEX ens_names_s_alpha_idx ON ens_names ((label COLLATE "C"), id) INCLUDE (label_length) WHERE searchable;
    DROP INDEX IF EXISTS ens_names_s_listed_idx;
    CREATE INDEX ens_names_s_listed_idx ON ens_names (listing_created_at, id) WHERE searchable AND listing_created_at IS NOT NULL;
  `.execute(db);
}
