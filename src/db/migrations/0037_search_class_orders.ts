import { sql, type Kysely } from 'kysely';

/**
 * A class filter (`digits=only`, `letters=only`, `emoji=only`) with a label or length order as one
 * range: the names of one class by label (`alphabetical`) and by length then label
 * (`character_count`). Before, such a page walked the label or length index of every name, reading
 * each row for its class: digits sort first, so `digits=only` by label descending (and `emoji=only`
 * ascending, emoji sorting last) walked nearly a million names, 3.4-3.6 s at a million; now
 * 0.04-0.5 ms, and `letters=only&maxLength=5` by label 335-509 ms → 17 ms. The length index by class
 * also answers what ens_names_s_class_idx (char_class, label_length) did, which it replaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE INDEX ens_names_s_class_alpha_idx ON ens_names (char_class, (label COLLATE "C"), id) WHERE searchable;
    CREATE INDEX ens_names_s_class_length_idx ON ens_names (char_class, label_length, (label COLLATE "C"), id) WHERE searchable;
    DROP INDEX ens_names_s_class_idx;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX IF NOT EXISTS ens_names_s_class_idx ON ens_names (char_class, label_length) WHERE searchable;
    DROP INDEX IF EXISTS ens_names_s_class_alpha_idx;
    DROP INDEX IF EXISTS ens_names_s_class_length_idx;
  `.execute(db);
}
