import { sql, type Kysely } from 'kysely';

/**
 * The index of each label's pairs of characters (0029) keyed byte by byte (`COLLATE "C"`): the
 * pairs' text took the database's collation, so under a libc one (`C.UTF-8`, `en_US.UTF-8`) every
 * comparison of the GIN build and of each name written went through `strcoll`. At a million names
 * the build took 20.6 s and takes 10.3 s now (the seed builds it on every run, the largest of the
 * names' 38 indexes). A pair is in a label or not under either collation (equality is byte
 * equality under every collation a database can have), so the same labels match; the search asks
 * for the pairs in "C" (src/search/query.ts), the form this index answers. The statistics on the
 * expression (0029) stay: the planner matches them through the collation, and sizes a rare pair
 * and a common one as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(db);
  await sql`
    DROP INDEX IF EXISTS ens_names_s_bigram_idx;
    CREATE INDEX ens_names_s_bigram_idx ON ens_names USING gin ((label_bigrams(label) COLLATE "C")) WHERE searchable;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX IF EXISTS ens_names_s_bigram_idx;
    CREATE INDEX ens_names_s_bigram_idx ON ens_names USING gin (label_bigrams(label)) WHERE searchable;
  `.execute(db);
}
