import { sql, type SelectQueryBuilder } from 'kysely';
import { cachedStale, heldStale, type Cache } from '../infra/cache.js';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import type { RowVersion } from '../db/row-texts.js';

/**
 * Lists filtered by a status that is several index ranges (e.g. `expired` = written expired, or
 * still active/pending past its end time) read each range in index order and merge them, so no
 * range needs a sort of the whole table. Shared by listings and offers.
 */

/** An order of a page: its id, row version (db/row-texts.ts) and effective status. */
export interface PageRow extends RowVersion {
  status: string;
}

/**
 * One page of `{id, k}` as a subquery, not run: each part selects `id` and its sort key `k`,
 * already ordered; of several parts each gives its first `reach` (offset + limit: a value of its
 * own, so a shape's slot can stand for it, db/shapes.ts). The caller joins its rows to the page
 * and orders by `k`, then `id`, so a page and its rows are one round trip. The page's size is written into the text (one text per size,
 * 1 to 100): a generic plan takes a parameter's LIMIT for a tenth of the rows, and joined 13,000
 * offers by hash to a sequential scan of them (135 ms) where the page's 20 need 20 key lookups.
 */
export function pageOfParts<DB, TB extends keyof DB>(
  db: Executor,
  parts: SelectQueryBuilder<DB, TB, { id: number; k: unknown }>[],
  order: 'asc' | 'desc',
  limit: number,
  offset: number,
  reach: number = offset + limit,
) {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`page size ${limit} is not a whole number`);
  const size = sql.lit(limit);
  if (parts.length === 1) return parts[0].limit(size).offset(offset);
  return db
    .selectFrom(parts.map((p, i) => db.selectFrom(p.limit(reach).as(`p${i}`)).select(['id', 'k'])).reduce((all, p) => all.unionAll(p)).as('u'))
    .select(['u.id', 'u.k'])
    .orderBy('u.k', order)
    .orderBy('u.id', order)
    .limit(size)
    .offset(offset) as unknown as SelectQueryBuilder<DB, TB, { id: number; k: unknown }>;
}

/**
 * Whether part `i` of a status is one of the few-row parts: `expired` is written-expired (part 0)
 * and live orders past their end time (the others), which the sweep writes expired within minutes.
 */
export function isPastEndPart(status: string | undefined, i: number): boolean {
  return status === 'expired' && i > 0;
}

/**
 * A few-row part as `{id, k}`, sorted: its ids by the part's own filter (OFFSET 0 keeps the
 * subquery planned alone, so by its own index range; the planner takes live orders past their end
 * for many and would walk every live order in the sort index), then each one's sort key `key`
 * (a column of `table`) by primary key.
 */
export function fewRowsPart<DB, TB extends keyof DB>(db: Executor, ids: SelectQueryBuilder<DB, TB, { id: number }>, table: 'listings' | 'offers', key: string, order: 'asc' | 'desc') {
  return db.selectFrom(ids.offset(0).as('s'))
    .select(['s.id', sql<unknown>`(SELECT ${sql.ref(`x.${key}`)} FROM ${sql.table(table)} AS x WHERE x.id = s.id)`.as('k')])
    .orderBy('k', order).orderBy('s.id', order);
}

/**
 * How many rows the parts match, counting at most `cap` (+1 tells "more than cap") per part. Each
 * count is planned once per connection (GENERIC_PLAN): every filter of listings and offers is a
 * range of one index whatever its values (a seller's, a buyer's, an owner's, a price range).
 */
export async function countOfParts<DB, TB extends keyof DB>(db: Executor, parts: SelectQueryBuilder<DB, TB, object>[], cap?: number): Promise<number> {
  let total = 0;
  for (const part of parts) {
    const inner = part.select(sql`1`.as('one')).$if(cap !== undefined, (qb) => qb.limit(cap! + 1));
    const row = await db.selectFrom(inner.as('s')).modifyFront(GENERIC_PLAN).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    total += Number(row.n);
  }
  return cap === undefined ? total : Math.min(total, cap + 1);
}

/** Totals up to this are counted exactly on every request; larger ones are cached briefly. */
export const EXACT_COUNT_LIMIT = 1_000;
const LARGE_COUNT_TTL_SECONDS = 30;
/** How long after that a large total still answers while it is recounted beside the request. */
const LARGE_COUNT_STALE_SECONDS = 60;

/**
 * The total of a list as its page tells it: a page shorter than `limit` that is not past the end
 * holds the last rows (what comes before it and its rows); undefined when the page is full or
 * past the end. The page of a small list (a seller's few listings, a buyer's offers) then costs
 * one statement, and only a full page asks `pagedTotal` after it.
 */
export function totalOfPage(offset: number, limit: number, rows: number): number | undefined {
  return rows < limit && (rows > 0 || offset === 0) ? offset + rows : undefined;
}

/**
 * The total of a paged list: counted exactly (an index-bounded count of at most 1,001 rows) while
 * small; above that, the full count is cached for 30 s per filter set, and requests that miss the
 * cache together wait for one count. A cached large total is answered before any counting, so a
 * page of a list of hundreds of thousands of orders costs no count at all on most requests; past
 * its 30 s it still answers for a minute while one recount runs beside (cachedStale), so no
 * request waits for a full count once the filter set has been counted.
 */
export async function pagedTotal(cache: Cache, key: string, count: (cap?: number) => Promise<number>): Promise<number> {
  const cacheKey = `market:count:${key}`;
  const full = () => count();
  const known = await heldStale(cache, cacheKey, LARGE_COUNT_TTL_SECONDS, LARGE_COUNT_STALE_SECONDS, full);
  if (known !== undefined) return known;
  const bounded = await count(EXACT_COUNT_LIMIT);
  return bounded <= EXACT_COUNT_LIMIT ? bounded : cachedStale(cache, cacheKey, LARGE_COUNT_TTL_SECONDS, LARGE_COUNT_STALE_SECONDS, full);
}
