import { sql, type Kysely } from 'kysely';

/**
 * A club's names by id (`sortBy=view_count`, which orders by id until names carry view counts) as
 * one range of the club's own rows: through the names' rows, club 999's first page walked the
 * primary key from the lowest id and read 137,000 rows of other names before its own (100 ms at a
 * million names; the 100k club's 80 ms). With it every id-ordered page of a club (search/query.ts,
 * CLUB_ROW_SORTS) is a range, several clubs' a range each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`CREATE INDEX club_names_id_idx ON club_names (club, ens_name_id) INCLUDE (label_length, char_class, listing_created_at) WHERE searchable`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS club_names_id_idx`.execute(db);
}
