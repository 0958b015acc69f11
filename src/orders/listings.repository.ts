import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import { present, readBefore, rowTexts, statusMiddle } from '../db/row-texts.js';
import { runShaped } from '../db/shapes.js';
import { currencyJson, isoText, jsonObject, weiText } from '../db/json-rows.js';
import type { ListingStatus } from '../db/schema.js';
import { countOfParts, type PageRow, EXACT_COUNT_LIMIT, fewRowsPart, isPastEndPart, pageOfParts } from './status-parts.js';

/** What the rules read of a listing joined with its name (a response shows LISTING_JSON instead). */
export interface ListingRow {
  id: number;
  ens_name_id: number;
  seller_address: string;
  source: string;
  /** effective: a live listing past its end time reads as expired */
  status: ListingStatus;
  ens_name: string;
  token_id: string;
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
export const EFFECTIVE_STATUS_SQL = "CASE WHEN l.status IN ('active', 'unfunded') AND l.expires_at <= now() THEN 'expired' ELSE l.status END";
export const EFFECTIVE_STATUS = sql.raw<ListingStatus>(EFFECTIVE_STATUS_SQL);

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

/** The filters' values (the filters themselves, or a shape's slots for them: db/shapes.ts). */
type FilterValues = Pick<ListingFilters, 'graceDays' | 'seller' | 'minPrice' | 'maxPrice'>;

/** Listings of a status part that pass the filters `f` has, with the values of `v`. */
function filtered(db: Executor, f: ListingFilters, part: RawBuilder<SqlBool>, v: FilterValues = f) {
  return db
    .selectFrom('listings as l')
    .where(part)
    .where(sql<SqlBool>`(l.name_expiry_date IS NULL OR l.name_expiry_date > now() - make_interval(days => ${v.graceDays}))`)
    .$if(f.seller !== undefined, (qb) => qb.where('l.seller_address', '=', v.seller!))
    .$if(f.minPrice !== undefined, (qb) => qb.where('l.value_wei', '>=', v.minPrice!))
    .$if(f.maxPrice !== undefined, (qb) => qb.where('l.value_wei', '<=', v.maxPrice!));
}

function withName(db: Executor) {
  return db.selectFrom('listings as l').innerJoin('ens_names as n', 'n.id', 'l.ens_name_id');
}

/** What the rules read of a listing (not what a response shows: that is LISTING_JSON). */
const COLUMNS = ['l.id', 'l.ens_name_id', 'l.seller_address', 'l.source', 'n.name as ens_name', 'n.token_id'] as const;

/**
 * A listing as every response shows it (the `Listing` schema, field for field, in its order), as
 * JSON text written by PostgreSQL (db/json-rows.ts): the one mapping of a listing row to the API.
 * Amounts are decimal strings, times `iso()`'s form, the status the effective one. Its fields
 * before and after the status are two lists, so a kept text (db/row-texts.ts) takes a new status.
 */
const LISTING_HEAD = {
  id: 'l.id',
  ens_name_id: 'l.ens_name_id',
  seller_address: 'l.seller_address',
  price_wei: weiText('l.price_wei'),
  value_wei: weiText('l.value_wei'),
  currency_address: 'l.currency_address',
  ...currencyJson('l.currency_address'),
  order_hash: 'l.order_hash',
  order_data: 'l.order_json', // order_data's text, stored with it (0031)
};
const LISTING_TAIL = {
  source: 'l.source',
  created_at: isoText('l.created_at'),
  updated_at: isoText('l.updated_at'),
  expires_at: isoText('l.expires_at'),
  last_validated_at: isoText('l.last_validated_at'),
  unfunded_at: isoText('l.unfunded_at'),
  unfunded_reason: 'l.unfunded_reason',
  broker_address: 'l.broker_address',
  broker_fee_bps: 'l.broker_fee_bps',
  ens_name: 'n.name',
  token_id: weiText('n.token_id'),
  current_owner: 'n.owner_address',
  name_expiry_date: isoText('n.expiry_date'),
  registration_date: isoText('n.registration_date'),
  last_sale_date: isoText('n.last_sale_date'),
};
/** LISTING_JSON, as text: LISTING_HEAD's fields, the status, LISTING_TAIL's. */
export const LISTING_JSON = jsonObject({ ...LISTING_HEAD, status: EFFECTIVE_STATUS_SQL, ...LISTING_TAIL });

/**
 * A listing's row version for its kept text (db/row-texts.ts): the listing's and its name's, the
 * rows LISTING_JSON reads. A page read again returns PAGE_ROW (its texts come from
 * `listingTexts`), a page read first PAGE_ROW_WHOLE.
 */
const LISTING_VERSION = sql.raw<string>("l.xmin::text || ':' || n.xmin::text");
const PAGE_ROW = [sql<number>`l.id`.as('id'), LISTING_VERSION.as('v'), EFFECTIVE_STATUS.as('status')] as const;
const PAGE_ROW_WHOLE = [...PAGE_ROW, sql<string>`left(${jsonObject(LISTING_HEAD)}, -1)`.as('head'), sql<string>`substr(${jsonObject(LISTING_TAIL)}, 2)`.as('tail')] as const;

/** The listings of a page (PAGE_ROW or PAGE_ROW_WHOLE) as LISTING_JSON texts, in their order (db/row-texts.ts). */
function listingTexts(db: Executor, rows: PageRow[], page: string): Promise<string[]> {
  return rowTexts<PageRow>(db, 'listings', rows, (ids) => withName(db)
    .modifyFront(GENERIC_PLAN)
    .select(PAGE_ROW_WHOLE)
    .where(sql<SqlBool>`l.id = ANY(${ids}::bigint[])`)
    .execute(), { middle: statusMiddle, page }).then(present);
}

/**
 * Whether a page's plan is the same whatever the values (GENERIC_PLAN, planned once per connection:
 * planning was 1.5 ms of a page's 3 ms in PostgreSQL): each status part is an ordered range of its
 * sort's index, a seller's an ordered range of theirs. A price range under another sort is not: a
 * narrow range is best read by price and sorted, a wide one in the sort's order (a generic plan
 * walked every active listing for an empty range: 260 ms against 0.08). The caller knows which
 * when it counted the range first (`priceRangeCounted`): a range of at most FEW_IN_RANGE listings is
 * read whole by price and sorted, under one plan; a wider one is planned with its values.
 */
function planIsGeneric(f: ListingFilters, sort: ListingSort, matching: number | undefined): boolean {
  if (sort === 'price' || (f.minPrice === undefined && f.maxPrice === undefined)) return true;
  return priceRangeCounted(f, sort) && matching !== undefined && matching <= FEW_IN_RANGE;
}

/** Listings in a price range few enough to read whole by price and sort: as many as are counted exactly. */
const FEW_IN_RANGE = EXACT_COUNT_LIMIT;

/**
 * Whether a page is read by how many listings match (`listListings`' `matching`, counted first): a
 * price range under another sort than price, of any seller (a seller's listings are a range of
 * their own index, planned with the values as before).
 */
export function priceRangeCounted(f: ListingFilters, sort: ListingSort): boolean {
  return sort !== 'price' && f.seller === undefined && (f.minPrice !== undefined || f.maxPrice !== undefined);
}

/**
 * One page of listings. Sorts break ties on id in the same direction, so pages never overlap. A
 * status made of several parts reads the first `offset + limit` of each part in order and merges
 * them, so every part stays an ordered index scan. `matching`: how many listings pass the filters
 * (counted up to FEW_IN_RANGE + 1), for a price range under another sort (`priceRangeCounted`).
 * Compiled once per shape (db/shapes.ts).
 */
export async function listListings(db: Executor, f: ListingFilters, sort: ListingSort, order: 'asc' | 'desc', limit: number, offset: number, matching?: number): Promise<string[]> {
  const generic = planIsGeneric(f, sort, matching);
  const few = priceRangeCounted(f, sort) && generic;
  const shape = `listings:page:${f.status}:${sort}:${order}:${limit}:${f.seller !== undefined}:${f.minPrice !== undefined}:${f.maxPrice !== undefined}:${few}`;
  const values = { graceDays: f.graceDays, seller: f.seller, minPrice: f.minPrice, maxPrice: f.maxPrice, offset, reach: offset + limit };
  const page = `${shape}:${JSON.stringify(values)}`;
  const whole = !readBefore(db, page);
  const rows = await runShaped(db, `${shape}:${whole}`, values, (v) => {
    // price: the value in wei of ETH (0020), so listings in different currencies compare.
    const column = { price: 'l.value_wei', created: 'l.created_at', expiry: 'l.expires_at', name: 'l.ens_name' } as const;
    const idsOf = (part: RawBuilder<SqlBool>) => filtered(db, f, part, v).select('l.id');
    const dense = (part: RawBuilder<SqlBool>) =>
      filtered(db, f, part, v).select(['l.id', sql.ref(column[sort]).as('k')]).orderBy(column[sort], order).orderBy('l.id', order);
    const fewRows = (ids: ReturnType<typeof idsOf>) =>
      fewRowsPart(db, ids, 'listings', column[sort].slice(2), order) as unknown as ReturnType<typeof dense>;
    // A counted price range: its ids in price order from the price index alone (twice the counted
    // limit, so rows added since the count still fit), then each one's sort key.
    const range = (part: RawBuilder<SqlBool>) => fewRows(idsOf(part).orderBy('l.value_wei').limit(sql.lit(2 * (FEW_IN_RANGE + 1))));
    const parts = statusParts(f.status).map((part, i) => (isPastEndPart(f.status, i) ? fewRows(idsOf(part)) : few ? range(part) : dense(part)));
    const page = pageOfParts(db, parts, order, limit, v.offset, v.reach).as('pg');
    return withName(db).innerJoin(page, 'pg.id', 'l.id')
      .$if(generic, (qb) => qb.modifyFront(GENERIC_PLAN))
      .select(whole ? PAGE_ROW_WHOLE : PAGE_ROW)
      .orderBy('pg.k', order).orderBy('pg.id', order);
  });
  return listingTexts(db, rows, page);
}

/**
 * How many listings match, counting at most `cap` (+1 tells "more than cap") per status part; one
 * plan for all values (a count reads a seller's range, else a price range or the status's range).
 */
export async function countListings(db: Executor, f: ListingFilters, cap?: number): Promise<number> {
  return countOfParts(db, statusParts(f.status).map((part) => filtered(db, f, part)), cap);
}

export async function findListingById(db: Executor, id: number): Promise<ListingRow | undefined> {
  const row = await withName(db).select([...COLUMNS, EFFECTIVE_STATUS.as('status')]).where('l.id', '=', id).executeTakeFirst();
  return row as ListingRow | undefined;
}

/** The listing as a response shows it (LISTING_JSON), undefined when there is none. */
export async function listingJsonById(db: Executor, id: number): Promise<string | undefined> {
  const row = await withName(db).select(LISTING_JSON.as('json')).where('l.id', '=', id).executeTakeFirst();
  return row?.json;
}

export async function findActiveListingsOfName(db: Executor, ensNameId: number): Promise<string[]> {
  const page = `listings:of-name:${ensNameId}`;
  const rows = await withName(db)
    .select(readBefore(db, page) ? PAGE_ROW : PAGE_ROW_WHOLE)
    .where('l.ens_name_id', '=', ensNameId)
    .where(statusParts('active')[0])
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .execute();
  return listingTexts(db, rows, page);
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
