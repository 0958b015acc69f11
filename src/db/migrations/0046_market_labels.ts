import { sql, type Kysely } from 'kysely';

/**
 * The indexes of the market's names (listed, offered on: a few percent of all names) carry each
 * name's label too, so a search text or a label filter among them (`q=a&filters[listed]=true`, `q=a`
 * by price) is checked on the index entries instead of on the rows. Without it the planner read the
 * labels starting with `a` from the label index and each row from the table to keep the listed
 * ones (55,469 rows, 36,000 pages: 100-145 ms at a million names); with it it walks the listed
 * names' price index, 0.05 ms for the first page by price and 3.7 ms for every match by length.
 * The listed names' index by listing time also carries the price, which the `listed` filter reads
 * (set and cleared with the listing time: 0033): listed emoji names by listing time walked the
 * 20,000 emoji names' rows (60 ms), now the listed index alone (0.2 ms).
 */
const INDEXES: readonly [name: string, keys: string, include: string, where: string, more?: string][] = [
  // before: 0027 (listed), 0038 (the others)
  ['ens_names_s_listed_idx', 'listing_created_at, id', 'clubs, label_length, char_class', 'listing_created_at IS NOT NULL', 'listing_price_wei'],
  ['ens_names_s_price_idx', 'listing_price_wei, id', 'label_length, char_class, clubs', 'listing_price_wei IS NOT NULL'],
  ['ens_names_s_offer_idx', 'highest_offer_wei, id', 'label_length, char_class, clubs', 'highest_offer_wei IS NOT NULL'],
  ['ens_names_s_listing_expiry_idx', 'listing_expires_at, id', 'label_length, char_class, clubs', 'listing_price_wei IS NOT NULL'],
  ['ens_names_s_listed_expiry_idx', 'expiry_date, id', 'label_length, char_class, clubs', 'listing_price_wei IS NOT NULL'],
  ['ens_names_s_offered_expiry_idx', 'expiry_date, id', 'label_length, char_class, clubs', 'highest_offer_wei IS NOT NULL'],
];

const create = (name: string, keys: string, include: string, where: string) =>
  sql.raw(`DROP INDEX IF EXISTS ${name}; CREATE INDEX ${name} ON ens_names (${keys}) INCLUDE (${include}) WHERE searchable AND ${where}`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  for (const [name, keys, include, where, more] of INDEXES) await create(name, keys, [include, 'label', more].filter(Boolean).join(', '), where).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, keys, include, where] of INDEXES) await create(name, keys, include, where).execute(db);
}
