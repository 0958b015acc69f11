import type { ColumnType } from 'kysely';

/**
 * The column types that PostgreSQL's catalogue cannot tell the generator (types.generated.ts is
 * built from the migrated schema with these; see src/db/codegen.ts): numeric (wei, token ids)
 * read as decimal strings, JSON written as text, and the closed sets of values of text columns
 * that a CHECK constraint guards.
 */
export type Wei = ColumnType<string, string | bigint, string | bigint>;
export type JsonText<T = unknown> = ColumnType<T, string, string>;

export type ListingStatus = 'active' | 'sold' | 'cancelled' | 'expired' | 'unfunded';
export type OfferStatus = 'pending' | 'accepted' | 'rejected' | 'expired' | 'unfunded';
/** Character class of a label (generated column `char_class`, 0005). */
export type CharClass = 'digits' | 'letters' | 'emoji' | 'mixed';
/** Consecutive repeats in a label (generated column `repeating`, 0005): `all` for 000 or aaaa, `some` for apple. */
export type Repeating = 'all' | 'some' | 'none';
/** How a club's members are found: a rule on the label, or an imported list. */
export type ClubSource = 'rule' | 'csv';
