import { sql, type Kysely } from 'kysely';

/**
 * An owner's names by name and by listing price (`GET /names?owner=&sort=name|price`, search with
 * `filters[owner]`), each one range of its own index, as by registration date (0042) and by expiry
 * (`ens_names_owner_idx`). Without them the largest holder's names (13,250 of a million) by name
 * walked every name's alphabetical index, reading each row for its owner: page 40 read 68,000 rows,
 * 1 s cold; by price the planner ANDed the holder's names with every listed name, 99 ms. The
 * price index holds listed names only (40,000 of a million).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE INDEX ens_names_s_owner_label_idx ON ens_names (owner_address, (label COLLATE "C"), id) INCLUDE (expiry_date) WHERE searchable;
    CREATE INDEX ens_names_s_owner_listed_idx ON ens_names (owner_address, listing_price_wei, id) INCLUDE (expiry_date) WHERE searchable AND listing_price_wei IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS ens_names_s_owner_label_idx;
    DROP INDEX IF EXISTS ens_names_s_owner_listed_idx;
  `.execute(db);
}
