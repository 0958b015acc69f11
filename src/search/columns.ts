import type { ColumnType } from 'kysely';

/** Character class of a label (generated column `char_class`). */
export type CharClass = 'digits' | 'letters' | 'emoji' | 'mixed';
/** Consecutive repeats in a label (generated column `repeating`): `all` for 000 or aaaa, `some` for apple. */
export type Repeating = 'all' | 'some' | 'none';

type Generated<T> = ColumnType<T, never, never>;

// The generated columns of migration 0005 (read-only: PostgreSQL computes them from the label).
declare module '../db/schema.js' {
  interface EnsNamesTable {
    searchable: Generated<boolean>;
    label_length: Generated<number>;
    char_class: Generated<CharClass>;
    has_numbers: Generated<boolean>;
    has_letters: Generated<boolean>;
    repeating: Generated<Repeating>;
  }
}
