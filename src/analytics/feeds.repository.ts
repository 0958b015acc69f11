import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/client.js';
import { clubCondition, type ClubFilter } from './periods.js';

/**
 * The analytics feeds: raw sales, listings, offers and registrations of a period, one page at a
 * time. Each sort is an index in time or price order (0010), walked from the period's start;
 * totals come from the rollups or a bounded count, never from counting the table per request.
 */
export interface FeedQuery {
  start: Date | null;
  clubs: ClubFilter;
  source?: string;
  sortBy: 'date' | 'price';
  sortOrder: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const since = (q: { start: Date | null }) => q.start ?? new Date(0);

/** Clubs with at most this many names in all: a page starts from their names' rows. */
const SMALL_CLUBS = 20_000;

/**
 * A feed's club filter on its rows `alias` (joined to their names as `n`), as the SQL condition
 * that reads best for the clubs' size. Clubs of a few names (999: 1,000) give their names' ids as
 * an array, so the page reads those names' rows from the name index and sorts them (all-time sales
 * by price in the 999 club: 5 ms; 17 ms testing each name's clubs along the price index, 43 ms as a
 * semi-join the planner chose to answer with a scan of the table). Larger clubs are a semi-join on
 * club_names, whose statistics size them (all-time sales by price in the 100k club: 45 ms instead
 * of 146 ms testing each name's clubs).
 */
async function clubsOf(db: Executor, filter: ClubFilter, alias: 's' | 'r'): Promise<RawBuilder<boolean>> {
  if (filter.kind !== 'list') return clubCondition(filter, sql`n.clubs`);
  const column = sql.ref(`${alias}.ens_name_id`);
  const members = sql`SELECT ens_name_id FROM club_names WHERE club = ANY(${filter.clubs}::text[])`;
  const size = await db.selectFrom('clubs').select((eb) => eb.fn.sum<number>('member_count').as('n')).where('name', 'in', filter.clubs).executeTakeFirst();
  return Number(size?.n ?? 0) <= SMALL_CLUBS ? sql<boolean>`${column} = ANY(ARRAY(${members}))` : sql<boolean>`${column} IN (${members})`;
}

/** Whether a club filter reads the names' own clubs (then the name must be joined). */
const readsNames = (filter: ClubFilter) => filter.kind === 'any' || filter.kind === 'none';

export interface SaleFeedRow {
  id: number; name: string; token_id: string; price_wei: string; currency_address: string; buyer_address: string;
  seller_address: string; sold_at: Date; source: string; tx_hash: string | null; clubs: string[];
}

export async function salesFeed(db: Executor, q: FeedQuery): Promise<SaleFeedRow[]> {
  const key = q.sortBy === 'price' ? 's.price_wei' : 's.sold_at';
  const clubs = await clubsOf(db, q.clubs, 's');
  return db
    .selectFrom('sales as s')
    .innerJoin('ens_names as n', 'n.id', 's.ens_name_id')
    .select(['s.id', 'n.name', 'n.token_id', 's.price_wei', 's.currency_address', 's.buyer_address', 's.seller_address', 's.sold_at', 's.source', 's.tx_hash', 'n.clubs'])
    .where('s.sold_at', '>=', since(q))
    .$if(q.source !== undefined, (qb) => qb.where('s.source', '=', q.source!))
    .where(clubs)
    .orderBy(key, q.sortOrder)
    .orderBy('s.id', q.sortOrder)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
}

export interface ListingFeedRow {
  id: number; name: string; token_id: string; price_wei: string; currency_address: string; seller_address: string;
  status: string; expires_at: Date | null; source: string; created_at: Date; clubs: string[];
}

/**
 * A status as users see it: an active listing (pending offer) past its end time reads as expired
 * even before the expiry job writes it.
 */
function statusCondition(alias: 's', open: 'active' | 'pending', status: string | undefined) {
  if (status === undefined) return sql<boolean>`true`;
  if (status === open) return sql<boolean>`${sql.ref(`${alias}.status`)} = ${open} AND (${sql.ref(`${alias}.expires_at`)} IS NULL OR ${sql.ref(`${alias}.expires_at`)} > now())`;
  if (status === 'expired') return sql<boolean>`(${sql.ref(`${alias}.status`)} = 'expired' OR (${sql.ref(`${alias}.status`)} = ${open} AND ${sql.ref(`${alias}.expires_at`)} <= now()))`;
  return sql<boolean>`${sql.ref(`${alias}.status`)} = ${status}`;
}

export async function listingsFeed(db: Executor, q: FeedQuery & { status?: string }): Promise<ListingFeedRow[]> {
  return listingsQuery(db, q, await clubsOf(db, q.clubs, 's'))
    .select(['s.id', 'n.name', 'n.token_id', 's.price_wei', 's.currency_address', 's.seller_address', 's.status', 's.expires_at', 's.source', 's.created_at', 'n.clubs'])
    .orderBy(q.sortBy === 'price' ? 's.price_wei' : 's.created_at', q.sortOrder)
    .orderBy('s.id', q.sortOrder)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
}

function listingsQuery(db: Executor, q: FeedQuery & { status?: string }, clubs: RawBuilder<boolean>) {
  return db
    .selectFrom('listings as s')
    .innerJoin('ens_names as n', 'n.id', 's.ens_name_id')
    .where('s.created_at', '>=', since(q))
    .$if(q.source !== undefined, (qb) => qb.where('s.source', '=', q.source!))
    .where(statusCondition('s', 'active', q.status))
    .where(clubs);
}

export interface OfferFeedRow {
  id: number; name: string; token_id: string; offer_amount_wei: string; currency_address: string; buyer_address: string;
  status: string; expires_at: Date | null; source: string; created_at: Date; clubs: string[];
}

export async function offersFeed(db: Executor, q: FeedQuery & { status?: string }): Promise<OfferFeedRow[]> {
  return offersQuery(db, q, await clubsOf(db, q.clubs, 's'))
    .select(['s.id', 'n.name', 'n.token_id', 's.offer_amount_wei', 's.currency_address', 's.buyer_address', 's.status', 's.expires_at', 's.source', 's.created_at', 'n.clubs'])
    .orderBy(q.sortBy === 'price' ? 's.offer_amount_wei' : 's.created_at', q.sortOrder)
    .orderBy('s.id', q.sortOrder)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
}

function offersQuery(db: Executor, q: FeedQuery & { status?: string }, clubs: RawBuilder<boolean>) {
  return db
    .selectFrom('offers as s')
    .innerJoin('ens_names as n', 'n.id', 's.ens_name_id')
    .where('s.created_at', '>=', since(q))
    .$if(q.source !== undefined, (qb) => qb.where('s.source', '=', q.source!))
    .where(statusCondition('s', 'pending', q.status))
    .where(clubs);
}

/**
 * Counts of a status-filtered feed, at most `cap` + 1 rows read (status is not in the rollups). The
 * names are joined only when the club filter reads their clubs.
 */
export async function countFeed(db: Executor, kind: 'listings' | 'offers', q: FeedQuery & { status?: string }, cap: number): Promise<number> {
  const row = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM ${sql.table(kind)} s ${readsNames(q.clubs) ? sql`JOIN ens_names n ON n.id = s.ens_name_id` : sql``}
      WHERE s.created_at >= ${since(q)} ${q.source === undefined ? sql`` : sql`AND s.source = ${q.source}`}
        AND ${statusCondition('s', kind === 'listings' ? 'active' : 'pending', q.status)} AND ${await clubsOf(db, q.clubs, 's')}
      LIMIT ${cap + 1}
    ) x`.execute(db);
  return row.rows[0].n;
}

export interface RegistrationFeedRow {
  id: number; name: string; actor_address: string; owner_address: string | null; cost_wei: string; premium_wei: string;
  label_length: number; block_time: Date; clubs: string[]; referrer: string | null;
}

/** A period with more registrations than this is never read whole (see registrationsFeed). */
const SORTED_IN_MEMORY = 50_000;

/**
 * A page of the period's registrations. By date: the time index, from the period's start. By cost
 * or length, from the counts of the rollups (`periodCount` of the period, `allCount` of all time,
 * whatever the club filter): walking the cost index reads about (offset + limit) × all / period
 * rows to fill the page, reading the period by time and sorting it reads the period's; the smaller
 * wins. The planner cannot tell them apart (it took the last 24 hours for 41,000 of a million
 * registrations; there were none) and walked the whole cost index for a day: 3-5 s, past the
 * statement timeout, against 13 ms.
 */
export async function registrationsFeed(
  db: Executor, q: Omit<FeedQuery, 'sortBy' | 'source'> & { sortBy: 'date' | 'cost' | 'length'; periodCount?: number; allCount?: number },
): Promise<RegistrationFeedRow[]> {
  const key = q.sortBy === 'cost' ? sql.ref('r.cost_wei') : q.sortBy === 'length' ? sql.ref('n.label_length') : sql.ref('r.block_time');
  const clubs = await clubsOf(db, q.clubs, 'r');
  const { periodCount: period, allCount: all } = q;
  const small = q.sortBy !== 'date' && q.start !== null && period !== undefined && all !== undefined
    && period <= SORTED_IN_MEMORY && period * period <= (q.offset + q.limit) * all;
  // OFFSET 0: the period's rows are planned alone, as the time index's range
  const source = small
    ? sql`(SELECT * FROM registrations WHERE kind = 'registration' AND block_time >= ${since(q)} OFFSET 0)`
    : sql`registrations`;
  const rows = await sql<RegistrationFeedRow>`
    SELECT r.id, n.name, r.actor_address, n.owner_address, r.cost_wei::text AS cost_wei, r.premium_wei::text AS premium_wei,
           n.label_length, r.block_time, n.clubs, r.referrer
    FROM ${source} r JOIN ens_names n ON n.id = r.ens_name_id
    WHERE r.kind = 'registration' AND r.block_time >= ${since(q)} AND ${clubs}
    ORDER BY ${key} ${sql.raw(q.sortOrder)}, r.id ${sql.raw(q.sortOrder)}
    LIMIT ${q.limit} OFFSET ${q.offset}
  `.execute(db);
  return rows.rows;
}
