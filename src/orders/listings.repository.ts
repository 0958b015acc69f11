import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import type { ListingStatus } from '../db/schema.js';
import { countOfParts, fewRowsPart, isPastEndPart, pageOfParts } from './status-parts.js';

/** A listing joined with its name, as the API shows it (status already accounts for the end time). */
export interface ListingRow {
  id: number;
  ens_name_id: number;
  seller_address: string;
  price_wei: string;
  /** The price in wei of ETH (0020); null while the currency's value is unknown. */
  value_wei: string | null;
  currency_address: string;
  order_hash: string;
  /** The signed order as its stored JSON text (a page writes it as it is: lib/raw-json.ts). */
  order_data: string;
  status: ListingStatus;
  source: string;
  created_at: Date;
  updated_at: Date;
  expires_at: Date | null;
  last_validated_at: Date | null;
  unfunded_at: Date | null;
  unfunded_reason: string | null;
  broker_address: string | null;
  broker_fee_bps: number | null;
  ens_name: string;
  token_id: string;
  current_owner: string | null;
  name_expiry_date: Date | null;
  registration_date: Date | null;
  last_sale_date: Date | null;
}

export type ListingSort = 'price' | 'created' | 'expiry' | 'name';

export interface ListingFilters {
  status: ListingStatus;
  seller?: string;
  minPrice?: string;
  maxPrice?: string;
  /** Names whose expiry is older than this many days are left out (the grace period). */
  graceDays: number;
}

/**
 * A listing in a live status (active, unfunded) whose end time has passed reads as expired until
 * the sweep writes it, so a reader never sees an expired order as active.
 */
export const EFFECTIVE_STATUS = sql<ListingStatus>`CASE WHEN l.status IN ('active', 'unfunded') AND l.expires_at <= now() THEN 'expired' ELSE l.status END`;

/**
 * The status filter as index-friendly parts, each an equality on status (so each part is one
 * ordered index range). `expired` is three: written expired, and active or unfunded past the end.
 */
export function statusParts(status: ListingStatus): RawBuilder<SqlBool>[] {
  switch (status) {
    case 'active':
    case 'unfunded':
      return [sql<SqlBool>`(l.status = ${status} AND (l.expires_at IS NULL OR l.expires_at > now()))`];
    case 'expired':
      return [sql<SqlBool>`l.status = 'expired'`, sql<SqlBool>`(l.status = 'active' AND l.expires_at <= now())`, sql<SqlBool>`(l.status = 'unfunded' AND l.expires_at <= now())`];
    case 'sold':
    case 'cancelled':
      return [sql<SqlBool>`l.status = ${status}`];
  }
}

function filtered(db: Executor, f: ListingFilters, part: RawBuilder<SqlBool>) {
  return db
    .selectFrom('listings as l')
    .where(part)
    .where(sql<SqlBool>`(l.name_expiry_date IS NULL OR l.name_expiry_date > now() - make_interval(days => ${f.graceDays}))`)
    .$if(f.seller !== undefined, (qb) => qb.where('l.seller_address', '=', f.seller!))
    .$if(f.minPrice !== undefined, (qb) => qb.where('l.value_wei', '>=', f.minPrice!))
    .$if(f.maxPrice !== undefined, (qb) => qb.where('l.value_wei', '<=', f.maxPrice!));
}

function withName(db: Executor) {
  return db.selectFrom('listings as l').innerJoin('ens_names as n', 'n.id', 'l.ens_name_id');
}

const COLUMNS = [
  'l.id', 'l.ens_name_id', 'l.seller_address', 'l.price_wei', 'l.value_wei', 'l.currency_address', 'l.order_hash', sql<string>`l.order_data::text`.as('order_data'),
  'l.source', 'l.created_at', 'l.updated_at', 'l.expires_at', 'l.last_validated_at', 'l.unfunded_at', 'l.unfunded_reason',
  'l.broker_address', 'l.broker_fee_bps', 'n.name as ens_name', 'n.token_id', 'n.owner_address as current_owner',
  'n.expiry_date as name_expiry_date', 'n.registration_date', 'n.last_sale_date',
] as const;

/**
 * Whether a page's plan is the same whatever the values (GENERIC_PLAN, planned once per connection:
 * planning was 1.5 ms of a page's 3 ms in PostgreSQL): each status part is an ordered range of its
 * sort's index, a seller's an ordered range of theirs. A price range under another sort is not: a
 * narrow range is best read by price and sorted, a wide one in the sort's order (a generic plan
 * walked every active listing for an empty range: 260 ms against 0.08).
 */
function planIsGeneric(f: ListingFilters, sort: ListingSort): boolean {
  return sort === 'price' || (f.minPrice === undefined && f.maxPrice === undefined);
}

/**
 * One page of listings. Sorts break ties on id in the same direction, so pages never overlap. A
 * status made of several parts reads the first `offset + limit` of each part in order and merges
 * them, so every part stays an ordered index scan.
 */
export async function listListings(db: Executor, f: ListingFilters, sort: ListingSort, order: 'asc' | 'desc', limit: number, offset: number): Promise<ListingRow[]> {
  // price: the value in wei of ETH (0020), so listings in different currencies compare.
  const column = { price: 'l.value_wei', created: 'l.created_at', expiry: 'l.expires_at', name: 'l.ens_name' } as const;
  const dense = (part: RawBuilder<SqlBool>) =>
    filtered(db, f, part).select(['l.id', sql.ref(column[sort]).as('k')]).orderBy(column[sort], order).orderBy('l.id', order);
  const few = (part: RawBuilder<SqlBool>) =>
    fewRowsPart(db, filtered(db, f, part).select('l.id'), 'listings', column[sort].slice(2), order) as unknown as ReturnType<typeof dense>;
  const parts = statusParts(f.status).map((part, i) => (isPastEndPart(f.status, i) ? few(part) : dense(part)));
  const page = pageOfParts(db, parts, order, limit, offset).as('pg');
  const rows = await withName(db).innerJoin(page, 'pg.id', 'l.id')
    .$if(planIsGeneric(f, sort), (qb) => qb.modifyFront(GENERIC_PLAN))
    .select([...COLUMNS, EFFECTIVE_STATUS.as('status')])
    .orderBy('pg.k', order).orderBy('pg.id', order)
    .execute();
  return rows as ListingRow[];
}

/**
 * How many listings match, counting at most `cap` (+1 tells "more than cap") per status part; one
 * plan for all values (a count reads a seller's range, else a price range or the status's range).
 */
export async function countListings(db: Executor, f: ListingFilters, cap?: number): Promise<number> {
  return countOfParts(db, statusParts(f.status).map((part) => filtered(db, f, part)), cap);
}

export async function findListingsByIds(db: Executor, ids: readonly number[]): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
  const rows = await withName(db).select([...COLUMNS, EFFECTIVE_STATUS.as('status')]).where('l.id', 'in', ids).execute();
  return rows as ListingRow[];
}

export async function findListingById(db: Executor, id: number): Promise<ListingRow | undefined> {
  return (await findListingsByIds(db, [id]))[0];
}

/** The name's active listings that have not passed their end time, newest first. */
export async function findActiveListingsOfName(db: Executor, ensNameId: number): Promise<ListingRow[]> {
  const rows = await withName(db)
    .select([...COLUMNS, EFFECTIVE_STATUS.as('status')])
    .where('l.ens_name_id', '=', ensNameId)
    .where(statusParts('active')[0])
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .execute();
  return rows as ListingRow[];
}

export interface NewListing {
  ensNameId: number;
  seller: string;
  priceWei: string;
  currency: string;
  orderHash: string;
  orderData: Record<string, unknown>;
  source: string;
  expiresAt: Date | null;
  brokerAddress: string | null;
  brokerFeeBps: number | null;
}

export async function insertListing(trx: Executor, l: NewListing): Promise<number> {
  const row = await trx
    .insertInto('listings')
    .values({
      ens_name_id: l.ensNameId,
      seller_address: l.seller,
      price_wei: l.priceWei,
      currency_address: l.currency,
      order_hash: l.orderHash,
      order_data: JSON.stringify(l.orderData),
      source: l.source,
      expires_at: l.expiresAt,
      broker_address: l.brokerAddress,
      broker_fee_bps: l.brokerFeeBps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function orderHashExists(db: Executor, orderHash: string): Promise<boolean> {
  const [l, o] = await Promise.all([
    db.selectFrom('listings').select('id').where('order_hash', '=', orderHash).executeTakeFirst(),
    db.selectFrom('offers').select('id').where('order_hash', '=', orderHash).executeTakeFirst(),
  ]);
  return l !== undefined || o !== undefined;
}

/** The listing with this order hash (unique), if any. */
export async function findListingIdByHash(db: Executor, orderHash: string): Promise<number | undefined> {
  return (await db.selectFrom('listings').select('id').where('order_hash', '=', orderHash).executeTakeFirst())?.id;
}
