import { sql, type Kysely } from 'kysely';

/**
 * Each stored order's JSON as text, written once with the row (and again whenever `order_data`
 * changes: a generated column): every page of listings or offers, a name page and a sales page
 * show the signed order, and writing it from jsonb (jsonb_out) was 7–9 µs a row, a third of a
 * 20-listing page's database time. A `json` value is its text, so a response copies it as it is;
 * the text is jsonb's own output (keys in jsonb's order), the same bytes clients saw before.
 */
/** Both tables are rewritten: vacuumed after the commit (migrateToLatest). */
export const vacuumAfter = ['listings', 'offers'];

export async function up(db: Kysely<unknown>): Promise<void> {
  // rewrites both tables (some 10 s a table at a million names)
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE listings ADD COLUMN order_json json GENERATED ALWAYS AS (order_data::text::json) STORED;
    ALTER TABLE offers ADD COLUMN order_json json GENERATED ALWAYS AS (order_data::text::json) STORED;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE listings DROP COLUMN order_json; ALTER TABLE offers DROP COLUMN order_json`.execute(db);
}
