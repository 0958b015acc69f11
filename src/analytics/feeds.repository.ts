import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/client.js';
import { clubCondition, type ClubFilter } from './periods.js';

/**
 * The analytics feeds: raw sales, listings, offers and registrations of a period, one page at a
 * time. Each sort is an index carrying what the filters read (0048, 0049), walked in its order or,
 * for a short period, the period read by time and sorted (readsPeriodByTime); totals come from the
 * rollups or a bounded count, never from counting the table per request.
 */
export interface FeedQuery {
  start: Date | null;
  clubs: ClubFilter;
  source?: string;
  sortBy: 'date' | 'price';
  sortOrder: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** rows of the kind in the period and in all time, and rows matching every filter: how a page sorted by other than time is read (readsPeriodByTime) */
  periodCount?: number;
  allCount?: number;
  matchCount?: number;
}

const since = (q: { start: Date | null }) => q.start ?? new Date(0);

/** At most this many rows of a page's period are sorted in memory (readsPeriodByTime). */
const SORTED_IN_MEMORY = 50_000;

/**
 * A feed of market rows (0048): the rows carry their names' clubs, and each sort is an index that
 * carries every column the filters read (time, status, end, source, clubs). A status is one range
 * of its status's index, or two (expired: the expired rows and the open ones past their end),
 * merged; so a page is the first `offset + limit` entries of each range that pass the filters, and
 * no table is read until the page's own rows.
 */
interface MarketFeed {
  table: 'listings' | 'offers' | 'sales';
  time: string;
  price: string;
  /** the open status (active, pending), or none (sales) */
  open?: 'active' | 'pending';
}

const FEEDS = {
  listings: { table: 'listings', time: 'created_at', price: 'price_wei', open: 'active' },
  offers: { table: 'offers', time: 'created_at', price: 'offer_amount_wei', open: 'pending' },
  sales: { table: 'sales', time: 'sold_at', price: 'price_wei' },
} as const satisfies Record<string, MarketFeed>;

/**
 * The ranges of a status, as users see it: an open row past its end time reads as expired even
 * before the expiry job writes it. Those are few (the job ends them every few minutes) and read
 * from the status's end-time index, never by walking every open row in the sort's order (12 ms for
 * the 39,000 active listings, to find none).
 */
function statusRanges(open: 'active' | 'pending' | undefined, status: string | undefined): { where: RawBuilder<boolean>; few?: true }[] {
  if (status === undefined || open === undefined) return [{ where: sql<boolean>`true` }];
  if (status === open) return [{ where: sql<boolean>`status = ${open} AND (expires_at IS NULL OR expires_at > now())` }];
  if (status === 'expired') return [{ where: sql<boolean>`status = 'expired'` }, { where: sql<boolean>`status = ${open} AND expires_at <= now()`, few: true }];
  return [{ where: sql<boolean>`status = ${status}` }];
}

/**
 * Whether a page sorted by other than time (price, cost, length) reads its period by time and
 * sorts it rather than walking the sort's index. Walking finds a match every all / match rows (the
 * filters taken as independent of the sort), so it reads about (offset + limit) × all / match
 * entries; by time it reads the period's rows. The planner cannot tell (a club's or a status's
 * share of a week is a guess): it walked the whole price index for 11 listings of the 999 club in
 * a week, 40 ms, against 2 ms by time.
 */
function readsPeriodByTime(q: Omit<FeedQuery, 'sortBy'> & { sortBy: string }): boolean {
  const { periodCount: period, allCount: all, matchCount: match } = q;
  if (q.sortBy === 'date' || q.start === null || period === undefined || all === undefined || match === undefined) return false;
  return match <= SORTED_IN_MEMORY && period * match <= (q.offset + q.limit) * all;
}

/** The feed's rows passing the filters, one SELECT per status range, each as `id` and `key` (the sort's column). */
function feedRanges(feed: MarketFeed, q: FeedQuery & { status?: string }, limit: number): RawBuilder<unknown> {
  const key = sql.ref(q.sortBy === 'price' ? feed.price : feed.time);
  const dir = sql.raw(q.sortOrder);
  const byTime = readsPeriodByTime(q);
  const ranges = statusRanges(feed.open, q.status).map((range) => {
    const rows = sql`SELECT id, ${key} AS key FROM ${sql.table(feed.table)}
      WHERE ${range.where} AND ${sql.ref(feed.time)} >= ${since(q)} ${q.source === undefined ? sql`` : sql`AND source = ${q.source}`} AND ${clubCondition(q.clubs)}`;
    // OFFSET 0: the rows are planned alone (the period's as the time index's range; a few rows as
    // theirs), then sorted
    return sql`(SELECT id, key FROM (${rows}${byTime || range.few ? sql` OFFSET 0` : sql``}) r ORDER BY key ${dir}, id ${dir} LIMIT ${limit})`;
  });
  return sql.join(ranges, sql` UNION ALL `);
}

/** The ids of one page of a feed, in its order. */
function feedPage(feed: MarketFeed, q: FeedQuery & { status?: string }): RawBuilder<unknown> {
  const dir = sql.raw(q.sortOrder);
  return sql`SELECT id, key FROM (${feedRanges(feed, q, q.offset + q.limit)}) u ORDER BY key ${dir}, id ${dir} OFFSET ${q.offset} LIMIT ${q.limit}`;
}

export interface SaleFeedRow {
  id: number; name: string; token_id: string; price_wei: string; currency_address: string; buyer_address: string;
  seller_address: string; sold_at: Date; source: string; tx_hash: string | null; clubs: string[];
}

export interface ListingFeedRow {
  id: number; name: string; token_id: string; price_wei: string; currency_address: string; seller_address: string;
  status: string; expires_at: Date | null; source: string; created_at: Date; clubs: string[];
}

export interface OfferFeedRow {
  id: number; name: string; token_id: string; offer_amount_wei: string; currency_address: string; buyer_address: string;
  status: string; expires_at: Date | null; source: string; created_at: Date; clubs: string[];
}

/** The columns of a feed's rows `s` beside their names' (`n.name`, `n.token_id`, `n.clubs`). */
const FEED_COLUMNS = {
  sales: sql`s.price_wei, s.currency_address, s.buyer_address, s.seller_address, s.sold_at, s.source, s.tx_hash`,
  listings: sql`s.price_wei, s.currency_address, s.seller_address, s.status, s.expires_at, s.source, s.created_at`,
  offers: sql`s.offer_amount_wei, s.currency_address, s.buyer_address, s.status, s.expires_at, s.source, s.created_at`,
};

/** One page of a feed: its ids (feedPage), then their rows and names, in the page's order. */
async function feedRows<R>(db: Executor, kind: keyof typeof FEEDS, q: FeedQuery & { status?: string }): Promise<R[]> {
  const dir = sql.raw(q.sortOrder);
  const { rows } = await sql<R>`
    SELECT s.id, n.name, n.token_id, ${FEED_COLUMNS[kind]}, n.clubs
    FROM (${feedPage(FEEDS[kind], q)}) p JOIN ${sql.table(kind)} s ON s.id = p.id JOIN ens_names n ON n.id = s.ens_name_id
    ORDER BY p.key ${dir}, p.id ${dir}`.execute(db);
  return rows;
}

export const salesFeed = (db: Executor, q: FeedQuery) => feedRows<SaleFeedRow>(db, 'sales', q);
export const listingsFeed = (db: Executor, q: FeedQuery & { status?: string }) => feedRows<ListingFeedRow>(db, 'listings', q);
export const offersFeed = (db: Executor, q: FeedQuery & { status?: string }) => feedRows<OfferFeedRow>(db, 'offers', q);

/** Counts of a status-filtered feed, at most `cap` + 1 entries of each status range read (status is not in the rollups). */
export async function countFeed(db: Executor, kind: 'listings' | 'offers', q: FeedQuery & { status?: string }, cap: number): Promise<number> {
  const feed = FEEDS[kind];
  const ranges = statusRanges(feed.open, q.status).map((range) => sql`(SELECT count(*)::int AS n FROM (SELECT 1 FROM ${sql.table(feed.table)}
    WHERE ${range.where} AND ${sql.ref(feed.time)} >= ${since(q)} ${q.source === undefined ? sql`` : sql`AND source = ${q.source}`} AND ${clubCondition(q.clubs)}
    LIMIT ${cap + 1}) x)`);
  const row = await sql<{ n: number }>`SELECT least(sum(n), ${cap + 1})::int AS n FROM (${sql.join(ranges, sql` UNION ALL `)}) c`.execute(db);
  return row.rows[0].n;
}

export interface RegistrationFeedRow {
  id: number; name: string; actor_address: string; owner_address: string | null; cost_wei: string; premium_wei: string;
  label_length: number; block_time: Date; clubs: string[]; referrer: string | null;
}

/**
 * A page of the period's registrations, from registration_feed (0049): by date its time index from
 * the period's start; by cost or length their index, or the period read by time and sorted, as
 * readsPeriodByTime decides from the counts of the rollups (the planner cannot tell them apart: it
 * took the last 24 hours for 41,000 of a million registrations, there were none, and walked the
 * whole cost index: 3-5 s). The registrations and names of the page's rows only are read.
 */
export async function registrationsFeed(db: Executor, q: Omit<FeedQuery, 'sortBy' | 'source'> & { sortBy: 'date' | 'cost' | 'length' }): Promise<RegistrationFeedRow[]> {
  const key = sql.ref(q.sortBy === 'cost' ? 'cost_wei' : q.sortBy === 'length' ? 'label_length' : 'block_time');
  const dir = sql.raw(q.sortOrder);
  // names in some club: said apart too, so that the clubs' own length index (0049) serves
  const inClubs = q.clubs.kind === 'list' || q.clubs.kind === 'any' ? sql`AND clubs <> '{}'` : sql``;
  const rows = sql`SELECT registration_id AS id, ${key} AS key FROM registration_feed WHERE block_time >= ${since(q)} AND ${clubCondition(q.clubs)} ${inClubs}`;
  // OFFSET 0: the period's rows are planned alone, as the time index's range, then sorted
  const page = sql`SELECT id, key FROM (${rows}${readsPeriodByTime(q) ? sql` OFFSET 0` : sql``}) f ORDER BY key ${dir}, id ${dir} OFFSET ${q.offset} LIMIT ${q.limit}`;
  const result = await sql<RegistrationFeedRow>`
    SELECT r.id, n.name, r.actor_address, n.owner_address, r.cost_wei::text AS cost_wei, r.premium_wei::text AS premium_wei,
           n.label_length, r.block_time, n.clubs, r.referrer
    FROM (${page}) p JOIN registrations r ON r.id = p.id JOIN ens_names n ON n.id = r.ens_name_id
    ORDER BY p.key ${dir}, p.id ${dir}
  `.execute(db);
  return result.rows;
}
