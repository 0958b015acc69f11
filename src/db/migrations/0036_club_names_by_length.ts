import { sql, type Kysely } from 'kysely';

/**
 * A club's names by length, then label (`sortBy=ranking`, a club page's rank order, and
 * `character_count`) as one range of the club's own rows: the 10k club's first page took 130 ms and
 * the 100k club's 200-260 ms at a million names (the names' length index walked from the shortest
 * label of every name, each checked for the club), now 0.1 ms, and 1.6 ms 5,000 names deep. With
 * club_names_search_idx (club, label) for `alphabetical`, every sort of a club's page that the
 * club rows hold is a range (search/query.ts, CLUB_ROW_SORTS).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`CREATE INDEX club_names_length_idx ON club_names (club, label_length, label, ens_name_id) INCLUDE (char_class) WHERE searchable`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS club_names_length_idx`.execute(db);
}
