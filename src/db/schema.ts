import type { Selectable } from 'kysely';
import type { DB, EnsNames, Users } from './types.generated.js';

/**
 * The database as Kysely sees it: generated from the migrated schema (types.generated.ts; after a
 * migration, `npm run db:types`), with the value sets of column-types.ts. Nothing else declares
 * or merges table types.
 */
export type Database = DB;
export type { CharClass, ListingStatus, OfferStatus, Repeating } from './column-types.js';
export type User = Selectable<Users>;
export type EnsNameRow = Selectable<EnsNames>;
