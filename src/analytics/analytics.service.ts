import { sql } from 'kysely';
import { GENERIC_PLAN } from '../db/client.js';
import { ethValue } from '../db/eth-value.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { cached } from '../infra/cache.js';
import { DAY } from '../lib/time.js';
import { offsetOf, pageB } from '../lib/pagination.js';
import { weiString } from '../lib/wei.js';
import { userViewer } from '../history/index.js';
import { answersOf, FEED_MS } from './answers.js';
import { ANY_CLUB } from './club-stats.js';
import { parseClubFilter, truncate, windowOf, type AnalyticsPeriod, type ClubFilter, type Window } from './periods.js';
import { PRICE_BANDS, type RollupKind } from './rollups.js';
import { averageWei, sumRollups, type RollupSums } from './rollups.repository.js';
import { readCurrentFigures, readPeriodFigures } from './snapshots.js';
import { countFeed, listingsFeed, offersFeed, registrationsFeed, salesFeed, type FeedQuery } from './feeds.repository.js';

/**
 * Market analytics from the rollups (sums per bucket: sales, listings, offers, registrations, votes,
 * name page views, watchlist additions), the snapshots (distinct counts, medians, current totals)
 * and, for the feeds, one index-ordered page of the raw rows.
 */
const CACHE_SECONDS = 15;
const FEED_COUNT_CAP = 100_000;
/** The longest a page of listings or offers is kept (marketFeedMemo). */
const MARKET_FEED_MS = 1000;

/** A feed's query as the repository reads it, with its window and status. */
type FeedQ = FeedQuery & { window: Window; status?: string };

export interface FeedParams {
  period: AnalyticsPeriod;
  source?: string;
  sortBy: 'date' | 'price';
  sortOrder: 'asc' | 'desc';
  page: number;
  limit: number;
  clubs: readonly string[];
  status?: string;
}

/** The reference's offer statuses next to ours: `active` is pending, `cancelled` is rejected. */
const OFFER_STATUS_ALIAS: Record<string, string> = { active: 'pending', cancelled: 'rejected' };

export class AnalyticsService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'cache' | 'config'>) {}

  /** An answer computed from the rollups and snapshots only: kept until they change (answers.ts). */
  private memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return answersOf(this.deps.db).get(`analytics:${key}`, compute);
  }

  /** A page of raw rows (with a rollup total): kept until the rollups change, at most FEED_MS. */
  private feedMemo<T>(kind: string, p: object, compute: () => Promise<T>): Promise<T> {
    return answersOf(this.deps.db).get(`analytics:feed:${kind}:${JSON.stringify(p)}`, compute, FEED_MS);
  }

  /**
   * A page of listings or offers: kept while no statement has written either table since (the
   * `market_feed_changes` counter, read per request: a change committed before the request is in
   * its answer, in every worker) and until the rollups change, at most MARKET_FEED_MS (a page
   * computed while a change was being committed, or whose rows' end time passed).
   */
  private async marketFeedMemo<T>(kind: string, p: object, compute: () => Promise<T>): Promise<T> {
    // before its first nextval the sequence reads last_value 1 too, not yet called
    const changes = await sql<{ n: string }>`SELECT CASE WHEN is_called THEN last_value ELSE 0 END::text AS n FROM market_feed_changes`.execute(this.deps.db);
    return answersOf(this.deps.db).get(`analytics:feed:${kind}:${changes.rows[0].n}:${JSON.stringify(p)}`, compute, MARKET_FEED_MS);
  }

  /** Short-lived counts of current state (a feed's total by status). */
  private counted<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return cached(this.deps.cache, `analytics:${key}`, CACHE_SECONDS, compute);
  }

  private async saleSums(window: Window, clubs: ClubFilter): Promise<RollupSums> {
    return (await sumRollups(this.deps.db, { kind: 'sale', window, clubs, fields: ['count', 'eth_count', 'volume_wei', 'max_wei', 'min_wei'] }))[0];
  }

  private async count(kind: 'vote' | 'offer' | 'listing' | 'view' | 'watch', window: Window, clubs: ClubFilter): Promise<number> {
    return (await sumRollups(this.deps.db, { kind, window, clubs, fields: ['count'] }))[0].count;
  }

  async market(period: AnalyticsPeriod) {
    const window = windowOf(period);
    return this.memo(`market:${period}:${window.end.toISOString()}`, async () => {
      const all: ClubFilter = { kind: 'all' };
      const [sales, current, figures, votes, offers, listings, views, watchlistAdds, totalViews] = await Promise.all([
        this.saleSums(window, all), readCurrentFigures(this.deps.db), readPeriodFigures(this.deps.db, period),
        this.count('vote', window, all), this.count('offer', window, all), this.count('listing', window, all),
        this.count('view', window, all), this.count('watch', window, all), this.count('view', windowOf('all'), all),
      ]);
      return {
        period,
        overview: { ...current, total_views: totalViews },
        volume: {
          sales_count: sales.count,
          total_volume_wei: sales.volume_wei,
          avg_sale_price_wei: averageWei(sales.volume_wei, sales.eth_count),
          max_sale_price_wei: sales.max_wei ?? '0',
          min_sale_price_wei: sales.min_wei ?? '0',
          unique_names_sold: figures.unique_names_sold,
          unique_buyers: figures.unique_buyers,
          unique_sellers: figures.unique_sellers,
        },
        activity: { views, watchlist_adds: watchlistAdds, votes, offers, listings },
      };
    });
  }

  async club(club: string, period: AnalyticsPeriod) {
    const row = await this.deps.db
      .selectFrom('clubs as c')
      .leftJoin('club_stats as s', 's.club', 'c.name')
      .select(['c.name', 'c.member_count', 's.listings_count', 's.offers_count', 's.floor_price_wei'])
      .where('c.name', '=', club)
      .where('c.name', '<>', ANY_CLUB)
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `club "${club}" does not exist`, { field: 'params.club' });
    const window = windowOf(period);
    const filter: ClubFilter = { kind: 'list', clubs: [club] };
    // the period's figures come from the rollups: kept until they change; the current stats are read each time
    const [sales, votes, views, watchlistAdds, totalViews] = await this.memo(`club:${JSON.stringify([club, period, window.end])}`, () => Promise.all([
      this.saleSums(window, filter), this.count('vote', window, filter),
      this.count('view', window, filter), this.count('watch', window, filter), this.count('view', windowOf('all'), filter),
    ]));
    return {
      club,
      period,
      stats: {
        member_count: row.member_count,
        active_listings: row.listings_count ?? 0,
        active_offers: row.offers_count ?? 0,
        total_views: totalViews,
        floor_price_wei: weiString(row.floor_price_wei ?? null),
      },
      volume: { sales_count: sales.count, total_volume_wei: sales.volume_wei, avg_sale_price_wei: averageWei(sales.volume_wei, sales.eth_count) },
      activity: { views, watchlist_adds: watchlistAdds, votes },
    };
  }

  /** Days with at least one ETH or WETH sale in the period (a 24-hour period covers the days it touches). */
  async priceTrends(period: AnalyticsPeriod) {
    const w = windowOf(period);
    const window: Window = { grain: 'day', start: w.start === null ? null : truncate(w.start, 'day'), end: truncate(w.end, 'day') };
    return this.memo(`trends:${period}:${w.end.toISOString()}`, async () => {
      const days = await sumRollups(this.deps.db, { kind: 'sale', window, clubs: { kind: 'all' }, groupBy: 'bucket' });
      const trends = days.filter((d) => d.eth_count > 0).map((d) => ({
        date: d.key as string,
        sales_count: d.eth_count,
        volume_wei: d.volume_wei,
        avg_price_wei: averageWei(d.volume_wei, d.eth_count),
        max_price_wei: d.max_wei ?? '0',
        min_price_wei: d.min_wei ?? '0',
      }));
      return { period, trends };
    });
  }

  async volume(period: AnalyticsPeriod) {
    const window = windowOf(period);
    return this.memo(`volume:${period}:${window.end.toISOString()}`, async () => {
      const bands = await sumRollups(this.deps.db, { kind: 'sale', window, clubs: { kind: 'all' }, groupBy: 'band' });
      const byBand = new Map(bands.map((b) => [Number(b.key), b]));
      const distribution = PRICE_BANDS.map((band, i) => ({
        price_range: band.label,
        sales_count: byBand.get(i)?.eth_count ?? 0,
        total_volume_wei: byBand.get(i)?.volume_wei ?? '0',
      }));
      return { period, distribution };
    });
  }

  private async byLength(window: Window, clubs: ClubFilter) {
    return sumRollups(this.deps.db, { kind: 'registration', window, clubs, groupBy: 'name_length' });
  }

  async registrations(p: Omit<FeedParams, 'source' | 'status' | 'sortBy'> & { sortBy: 'date' | 'cost' | 'length' }) {
    const window = windowOf(p.period);
    const clubs = parseClubFilter(p.clubs, 'query.clubs');
    const key = { period: p.period, end: window.end, clubs, sortBy: p.sortBy, sortOrder: p.sortOrder, page: p.page, limit: p.limit };
    return this.feedMemo('registrations', key, () => this.computeRegistrations(p, window, clubs));
  }

  private async computeRegistrations(p: Omit<FeedParams, 'source' | 'status' | 'sortBy'> & { sortBy: 'date' | 'cost' | 'length' }, window: Window, clubs: ClubFilter) {
    // by cost or length, the counts of the period, of all time and of the matches first: they decide how the page is read (registrationsFeed)
    const count = async (w: Window) => (await sumRollups(this.deps.db, { kind: 'registration', window: w, clubs: { kind: 'all' }, fields: ['count'] }))[0].count;
    const [[periodCount, allCount], sums, lengths, figures] = await Promise.all([
      p.sortBy === 'date' || window.start === null ? [] : Promise.all([count(window), count(windowOf('all'))]),
      sumRollups(this.deps.db, { kind: 'registration', window, clubs }),
      this.byLength(window, clubs),
      readPeriodFigures(this.deps.db, p.period),
    ]);
    const rows = await registrationsFeed(this.deps.db, {
      start: window.start, clubs, sortBy: p.sortBy, sortOrder: p.sortOrder, limit: p.limit, offset: offsetOf(p.page, p.limit), periodCount, allCount, matchCount: sums[0].count,
    });
    const s = sums[0];
    const grails = this.deps.config.referrerCode.toLowerCase();
    return {
      period: p.period,
      summary: {
        registration_count: s.count,
        total_base_cost_wei: s.base_cost_wei,
        total_premium_wei: s.premium_wei,
        total_cost_wei: s.volume_wei,
        avg_base_cost_wei: averageWei(s.base_cost_wei, s.count),
        avg_premium_wei: averageWei(s.premium_wei, s.count),
        avg_cost_wei: averageWei(s.volume_wei, s.count),
        premium_registrations: s.premium_count,
        unique_registrants: figures.unique_registrants,
      },
      by_length: lengths.map((l) => ({
        name_length: Number(l.key),
        count: l.count,
        total_cost_wei: l.volume_wei,
        avg_cost_wei: averageWei(l.volume_wei, l.count),
        avg_base_cost_wei: averageWei(l.base_cost_wei, l.count),
        avg_premium_wei: averageWei(l.premium_wei, l.count),
      })),
      results: rows.map((r) => ({
        id: r.id,
        name: r.name,
        registrant_address: r.actor_address,
        owner_address: r.owner_address,
        base_cost_wei: (BigInt(r.cost_wei) - min(BigInt(r.premium_wei), BigInt(r.cost_wei))).toString(),
        premium_wei: min(BigInt(r.premium_wei), BigInt(r.cost_wei)).toString(),
        total_cost_wei: weiString(r.cost_wei),
        name_length: r.label_length,
        registration_date: r.block_time.toISOString(),
        clubs: r.clubs,
        source: r.referrer !== null && r.referrer.toLowerCase() === grails ? ('grails' as const) : null,
      })),
      pagination: pageB(p.page, p.limit, s.count),
    };
  }

  async registrationsByLength(period: AnalyticsPeriod) {
    const window = windowOf(period);
    return this.memo(`by-length:${period}:${window.end.toISOString()}`, async () => {
      const [lengths, figures] = await Promise.all([this.byLength(window, { kind: 'all' }), readPeriodFigures(this.deps.db, period)]);
      return {
        period,
        breakdown: lengths.map((l) => ({
          name_length: Number(l.key),
          count: l.count,
          total_cost_wei: l.volume_wei,
          avg_cost_wei: averageWei(l.volume_wei, l.count),
          avg_base_cost_wei: averageWei(l.base_cost_wei, l.count),
          avg_premium_wei: averageWei(l.premium_wei, l.count),
          min_cost_wei: l.min_wei ?? '0',
          max_cost_wei: l.max_wei ?? '0',
          median_cost_wei: figures.median_cost_by_length[String(l.key)] ?? '0',
          premium_count: l.premium_count,
        })),
      };
    });
  }

  private feedQuery(p: FeedParams): FeedQ {
    const window = windowOf(p.period);
    return {
      window, start: window.start, clubs: parseClubFilter(p.clubs, 'query.clubs'), source: p.source,
      sortBy: p.sortBy, sortOrder: p.sortOrder, limit: p.limit, offset: offsetOf(p.page, p.limit), status: p.status,
    };
  }

  /**
   * Sales and registrations are written by the chain sync only, so their pages are kept briefly
   * (feedMemo); listings and offers pages show statuses a user's own action changes, and are kept
   * only until either table changes (marketFeedMemo).
   */
  async salesFeed(p: FeedParams) {
    const q = this.feedQuery(p);
    return this.feedMemo('sales', q, async () => {
      const total = sumRollups(this.deps.db, { kind: 'sale', window: q.window, clubs: q.clubs, source: q.source }).then((sums) => sums[0].count);
      const [count, rows] = await this.feedPage('sale', q, total, (page) => salesFeed(this.deps.db, page));
      return {
        results: rows.map((r) => ({
          id: r.id, name: r.name, token_id: weiString(r.token_id), sale_price_wei: weiString(r.price_wei), currency_address: r.currency_address,
          buyer_address: r.buyer_address, seller_address: r.seller_address, sale_date: r.sold_at.toISOString(), source: r.source,
          transaction_hash: r.tx_hash, clubs: r.clubs,
        })),
        pagination: pageB(p.page, p.limit, count),
      };
    });
  }

  /**
   * A feed's total and page. Sorted by price over a period, the page is read once the counts that
   * decide how are known (feeds.repository: walked in price order, or the period read by time and
   * sorted): the matches (the total), and the rows of the kind in the period and in all time (from
   * the rollups, kept until they change); otherwise beside the total.
   */
  private async feedPage<R>(kind: RollupKind, q: FeedQ, total: Promise<number>, read: (q: FeedQ) => Promise<R[]>): Promise<[number, R[]]> {
    const start = q.window.start;
    if (q.sortBy !== 'price' || start === null) return Promise.all([total, read(q)]);
    const count = async (w: Window) => (await sumRollups(this.deps.db, { kind, window: w, clubs: { kind: 'all' }, fields: ['count'] }))[0].count;
    const [matchCount, [periodCount, allCount]] = await Promise.all([
      total,
      this.memo(`rows:${kind}:${start.toISOString()}:${q.window.end.toISOString()}`, () => Promise.all([count(q.window), count(windowOf('all'))])),
    ]);
    return [matchCount, await read({ ...q, periodCount, allCount, matchCount })];
  }

  /** Without a status the total is the rollup's; a status is current state, counted (bounded) per request. */
  private async feedTotal(kind: 'listings' | 'offers', q: FeedQ): Promise<number> {
    if (q.status === undefined) return (await sumRollups(this.deps.db, { kind: kind === 'listings' ? 'listing' : 'offer', window: q.window, clubs: q.clubs, source: q.source }))[0].count;
    const key = `feed-total:${kind}:${q.status}:${q.source ?? ''}:${JSON.stringify(q.clubs)}:${q.window.start?.toISOString() ?? 'all'}`;
    return this.counted(key, () => countFeed(this.deps.db, kind, q, FEED_COUNT_CAP));
  }

  async listingsFeed(p: FeedParams) {
    const q = this.feedQuery(p);
    return this.marketFeedMemo('listings', q, () => this.computeListingsFeed(p, q));
  }

  private async computeListingsFeed(p: FeedParams, q: FeedQ) {
    const [total, rows] = await this.feedPage('listing', q, this.feedTotal('listings', q), (page) => listingsFeed(this.deps.db, page));
    const now = Date.now();
    return {
      results: rows.map((r) => ({
        id: r.id, name: r.name, token_id: weiString(r.token_id), price_wei: weiString(r.price_wei), currency_address: r.currency_address,
        seller_address: r.seller_address, status: r.status === 'active' && r.expires_at !== null && r.expires_at.getTime() <= now ? 'expired' : r.status,
        source: r.source, created_at: r.created_at.toISOString(), clubs: r.clubs,
      })),
      pagination: pageB(p.page, p.limit, total),
    };
  }

  async offersFeed(p: FeedParams) {
    const q = this.feedQuery({ ...p, status: p.status === undefined ? undefined : (OFFER_STATUS_ALIAS[p.status] ?? p.status) });
    return this.marketFeedMemo('offers', q, () => this.computeOffersFeed(p, q));
  }

  private async computeOffersFeed(p: FeedParams, q: FeedQ) {
    const [total, rows] = await this.feedPage('offer', q, this.feedTotal('offers', q), (page) => offersFeed(this.deps.db, page));
    const now = Date.now();
    return {
      results: rows.map((r) => ({
        id: r.id, name: r.name, token_id: weiString(r.token_id), offer_amount_wei: weiString(r.offer_amount_wei), currency_address: r.currency_address,
        buyer_address: r.buyer_address, status: r.status === 'pending' && r.expires_at !== null && r.expires_at.getTime() <= now ? 'expired' : r.status,
        source: r.source, created_at: r.created_at.toISOString(), clubs: r.clubs,
      })),
      pagination: pageB(p.page, p.limit, total),
    };
  }

  /**
   * The caller's own figures: each one index range over the caller's rows, in one statement planned
   * once per connection (GENERIC_PLAN: every plan reads the same indexes whoever asks).
   */
  async me(user: { id: number; address: string }) {
    const address = user.address.toLowerCase();
    const graceStart = new Date(Date.now() - this.deps.config.gracePeriodDays * DAY);
    const row = await sql<{
      votes_cast: number; viewed: number; watching: number; offers_made: number; names_purchased: number; names_sold: number; owned: number; listed: number;
      listing_value: string; offer_value: string;
    }>`
      SELECT ${GENERIC_PLAN}
        (SELECT count(*) FROM votes WHERE user_id = ${user.id})::int AS votes_cast,
        (SELECT count(DISTINCT ens_name_id) FROM name_views_daily WHERE viewer = ${userViewer(user.id)})::int AS viewed,
        (SELECT count(DISTINCT ens_name_id) FROM watchlist_items WHERE user_id = ${user.id})::int AS watching,
        (SELECT count(*) FROM offers WHERE buyer_address = ${address})::int AS offers_made,
        (SELECT count(*) FROM sales WHERE buyer_address = ${address})::int AS names_purchased,
        (SELECT count(*) FROM sales WHERE seller_address = ${address})::int AS names_sold,
        (SELECT count(*) FROM ens_names WHERE owner_address = ${address} AND expiry_date > ${graceStart})::int AS owned,
        (SELECT count(DISTINCT ens_name_id) FROM listings WHERE seller_address = ${address} AND status = 'active' AND (expires_at IS NULL OR expires_at > now()))::int AS listed,
        (SELECT coalesce(sum(${ethValue(sql`l.price_wei`)}), 0)::numeric(78,0)::text FROM listings l LEFT JOIN currencies c ON c.address = l.currency_address
          WHERE l.seller_address = ${address} AND l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now())) AS listing_value,
        (SELECT coalesce(sum(${ethValue(sql`o.offer_amount_wei`)}), 0)::numeric(78,0)::text FROM offers o LEFT JOIN currencies c ON c.address = o.currency_address
          WHERE o.buyer_address = ${address} AND o.status = 'pending' AND (o.expires_at IS NULL OR o.expires_at > now())) AS offer_value
    `.execute(this.deps.db);
    const r = row.rows[0];
    return {
      activity: { names_viewed: r.viewed, names_watching: r.watching, votes_cast: r.votes_cast, offers_made: r.offers_made, names_purchased: r.names_purchased, names_sold: r.names_sold },
      portfolio: { owned_names_count: r.owned, listed_names_count: r.listed, total_listing_value_wei: r.listing_value, total_offer_value_wei: r.offer_value },
    };
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
