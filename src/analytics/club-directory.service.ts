import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { cached } from '../infra/cache.js';
import { isAddress, normalizeAddress } from '../lib/address.js';
import { BUILT_IN_CLUBS, isClubName } from '../lib/clubs.js';
import { DAY, iso } from '../lib/time.js';
import { offsetOf, pageA, pageB, type PageA, type PageB } from '../lib/pagination.js';
import { weiString } from '../lib/wei.js';
import type { SearchResult } from '../contracts/search-result.js';
import type { CLUB_SORT_FIELDS } from '../contracts/clubs.js';
import { loadSearchResults } from '../search/results.js';
import { ANY_CLUB, type ClubStatsRow } from './club-stats.js';
import { parseClubFilter } from './periods.js';

/**
 * What the club pages read: the catalogue joined with the precomputed `club_stats`, holders from
 * `club_holders`, member names through the GIN index on `ens_names.clubs`. Percentages are of the
 * member count, to two decimals; a club without members reads as zeros.
 */
export type ClubSort = (typeof CLUB_SORT_FIELDS)[number];

type StatFields = Omit<ClubStatsRow, 'club' | 'offers_count' | 'last_floor_update' | 'last_sales_update' | 'updated_at'>;

export type ClubView = StatFields & {
  name: string;
  display_name: string;
  description: string;
  source: 'rule' | 'csv';
  member_count: number;
  classifications: string[];
  registered_percent: number;
  grace_percent: number;
  premium_percent: number;
  available_percent: number;
  listings_percent: number;
  holders_ratio: number;
  avatar_url: string | null;
  header_url: string | null;
  last_floor_update: string | null;
  last_sales_update: string | null;
  created_at: string;
  updated_at: string;
};

export interface ClubListQuery {
  sortBy: ClubSort;
  sortOrder: 'asc' | 'desc';
  classes: readonly string[];
  search?: string;
}

export interface HoldersPage {
  data: { clubs: string[]; unique_holders: number; holders: { address: string; name_count: number }[] };
  pagination: PageA;
}

export const CLUB_LIST_CACHE_SECONDS = 300;
export const CLUB_CACHE_SECONDS = 15;
const CATALOGUE_ORDER = new Map<string, number>(BUILT_IN_CLUBS.map((c, i) => [c.name, i]));
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);
const ZERO_STATS = { registered_count: 0, grace_count: 0, premium_count: 0, available_count: 0, listings_count: 0, holders_count: 0 };

export class ClubDirectory {
  constructor(private readonly deps: Pick<Deps, 'db' | 'cache' | 'config'>) {}

  /**
   * Every club with its figures. The catalogue (a few dozen rows, member counts kept by every name
   * write) is read live; the stats, which change only when the job runs, are cached briefly.
   */
  private async all(): Promise<ClubView[]> {
    const [clubs, stats] = await Promise.all([
      this.deps.db.selectFrom('clubs').select(['name', 'description', 'source', 'member_count', 'classifications', 'created_at']).execute(),
      cached(this.deps.cache, 'clubs:stats', CLUB_CACHE_SECONDS, () => this.deps.db.selectFrom('club_stats').selectAll().execute()),
    ]);
    const byClub = new Map(stats.map((s) => [s.club, s]));
    const rank = (name: string) => CATALOGUE_ORDER.get(name) ?? Number.MAX_SAFE_INTEGER;
    return clubs
      .map((c) => toClubView({ ...byClub.get(c.name), ...c }))
      .sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async list(q: ClubListQuery): Promise<{ clubs: ClubView[]; total: number }> {
    const classes = q.classes.flatMap((c) => c.split(',')).map((c) => c.trim()).filter((c) => c !== '');
    const search = q.search?.trim().toLowerCase();
    const clubs = (await this.all())
      .filter((c) => classes.length === 0 || c.classifications.some((k) => classes.includes(k)))
      .filter((c) => !search || [c.name, c.display_name, c.description].some((t) => t.toLowerCase().includes(search)));
    const dir = q.sortOrder === 'asc' ? 1 : -1;
    const value = (c: ClubView): bigint | number | string => {
      const v = c[q.sortBy];
      if (q.sortBy === 'name') return c.name;
      if (typeof v === 'string') return BigInt(v);
      return v ?? -1;
    };
    clubs.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      // ties keep the catalogue order of all() (the sort is stable)
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    return { clubs, total: clubs.length };
  }

  async get(club: string, page: number, limit: number, viewerId: number | undefined): Promise<{ club: ClubView; names: SearchResult[]; pagination: PageB }> {
    const view = await this.find(club);
    const offset = offsetOf(page, limit);
    // club_names (0018, kept by a trigger on ens_names.clubs): the page is an index range
    const ids = offset >= view.member_count ? [] : await this.deps.db
      .selectFrom('club_names')
      .select('ens_name_id as id')
      .where('club', '=', club)
      .orderBy('label')
      .orderBy('ens_name_id')
      .limit(limit)
      .offset(offset)
      .execute();
    const names = await loadSearchResults(this.deps.db, ids.map((r) => r.id), viewerId);
    return { club: view, names, pagination: pageB(page, limit, view.member_count) };
  }

  private async find(club: string): Promise<ClubView> {
    const view = isClubName(club) ? (await this.all()).find((c) => c.name === club) : undefined;
    if (!view) throw new AppError('NOT_FOUND', `club "${club}" does not exist`, { field: 'params.club' });
    return view;
  }

  async holders(club: string, page: number, limit: number, order: 'asc' | 'desc'): Promise<HoldersPage> {
    const view = await this.find(club);
    return this.holdersOf(club, [club], view.holders_count, page, limit, order);
  }

  /** Holders across clubs: one club or none from the table; several by one aggregate over their members, cached. */
  async allHolders(clubValues: readonly string[], page: number, limit: number, order: 'asc' | 'desc'): Promise<HoldersPage> {
    const filter = parseClubFilter(clubValues, 'query.clubs');
    if (filter.kind === 'all' || filter.kind === 'any') {
      const any = await this.deps.db.selectFrom('club_stats').select('holders_count').where('club', '=', ANY_CLUB).executeTakeFirst();
      const page_ = await this.holdersOf(ANY_CLUB, [], any?.holders_count ?? 0, page, limit, order);
      return page_;
    }
    if (filter.kind === 'none') return { data: { clubs: ['none'], unique_holders: 0, holders: [] }, pagination: pageA(page, limit, 0) };
    if (filter.clubs.length === 1) {
      const one = (await this.all()).find((c) => c.name === filter.clubs[0]);
      return this.holdersOf(filter.clubs[0], filter.clubs, one?.holders_count ?? 0, page, limit, order);
    }
    const key = `clubs:holders:${filter.clubs.join(',')}:${order}:${page}:${limit}`;
    return cached(this.deps.cache, key, CLUB_CACHE_SECONDS, async () => {
      const graceStart = new Date(Date.now() - this.deps.config.gracePeriodDays * DAY);
      const owners = sql`
        SELECT owner_address AS address, count(*)::int AS name_count FROM ens_names
        WHERE clubs && ${filter.clubs}::text[] AND owner_address IS NOT NULL AND expiry_date > ${graceStart}
        GROUP BY owner_address`;
      const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${owners}) o`.execute(this.deps.db)).rows[0].n;
      const rows = await sql<{ address: string; name_count: number }>`
        SELECT address, name_count FROM (${owners}) o
        ORDER BY name_count ${sql.raw(order)}, address ${sql.raw(order)} LIMIT ${limit} OFFSET ${offsetOf(page, limit)}
      `.execute(this.deps.db);
      return { data: { clubs: filter.clubs, unique_holders: total, holders: rows.rows }, pagination: pageA(page, limit, total) };
    });
  }

  private async holdersOf(key: string, clubs: string[], total: number, page: number, limit: number, order: 'asc' | 'desc'): Promise<HoldersPage> {
    const offset = offsetOf(page, limit);
    const holders = offset >= total ? [] : await this.deps.db
      .selectFrom('club_holders')
      .select(['address', 'name_count'])
      .where('club', '=', key)
      .orderBy('name_count', order)
      .orderBy('address', order)
      .limit(limit)
      .offset(offset)
      .execute();
    return { data: { clubs, unique_holders: total, holders }, pagination: pageA(page, limit, total) };
  }

  /** `/clubs/counts/:key`: names per club of an owner (active names), or of the premium or available status. */
  async counts(key: string): Promise<Record<string, number>> {
    const clubs = (await this.all()).map((c) => c.name);
    if (key === 'premium' || key === 'available') {
      const rows = await this.deps.db.selectFrom('club_stats').select(['club', 'premium_count', 'available_count']).execute();
      const byClub = new Map(rows.map((r) => [r.club, key === 'premium' ? r.premium_count : r.available_count]));
      return { any: byClub.get(ANY_CLUB) ?? 0, ...Object.fromEntries(clubs.map((c) => [c, byClub.get(c) ?? 0])) };
    }
    if (!isAddress(key)) throw new AppError('INVALID_ADDRESS', 'expected premium, available or an address (0x followed by 40 hex characters)', { field: 'params.key' });
    const graceStart = new Date(Date.now() - this.deps.config.gracePeriodDays * DAY);
    // ens_names_owner_clubs_idx: the owner's names in a club, with their clubs, from the index alone
    const rows = await sql<{ club: string; n: number }>`
      SELECT c.club, count(*)::int AS n
      FROM ens_names n CROSS JOIN LATERAL unnest(n.clubs) AS c(club)
      WHERE n.owner_address = ${normalizeAddress(key).toLowerCase()} AND n.clubs <> '{}' AND n.expiry_date > ${graceStart}
      GROUP BY c.club
    `.execute(this.deps.db);
    const any = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM ens_names
      WHERE owner_address = ${normalizeAddress(key).toLowerCase()} AND clubs <> '{}' AND expiry_date > ${graceStart}
    `.execute(this.deps.db);
    const byClub = new Map(rows.rows.map((r) => [r.club, r.n]));
    return { any: any.rows[0].n, ...Object.fromEntries(clubs.map((c) => [c, byClub.get(c) ?? 0])) };
  }
}

type ClubRow = { [K in keyof ClubStatsRow]?: ClubStatsRow[K] | null } & {
  name: string; description: string; source: 'rule' | 'csv'; member_count: number; classifications: string[]; created_at: Date;
};

function toClubView(r: ClubRow): ClubView {
  const s = { ...ZERO_STATS, ...stripNulls(r) };
  const members = r.member_count;
  return {
    name: r.name,
    display_name: `${r.name} Club`,
    description: r.description,
    source: r.source,
    classifications: r.classifications,
    member_count: members,
    floor_price_wei: weiString(r.floor_price_wei ?? null),
    floor_price_currency: r.floor_price_currency ?? null,
    total_sales_count: r.total_sales_count ?? 0,
    total_sales_volume_wei: weiString(r.total_sales_volume_wei ?? '0'),
    sales_count_1w: r.sales_count_1w ?? 0,
    sales_count_1mo: r.sales_count_1mo ?? 0,
    sales_count_1y: r.sales_count_1y ?? 0,
    sales_volume_wei_1w: weiString(r.sales_volume_wei_1w ?? '0'),
    sales_volume_wei_1mo: weiString(r.sales_volume_wei_1mo ?? '0'),
    sales_volume_wei_1y: weiString(r.sales_volume_wei_1y ?? '0'),
    total_reg_count: r.total_reg_count ?? 0,
    total_reg_volume_wei: weiString(r.total_reg_volume_wei ?? '0'),
    reg_count_1w: r.reg_count_1w ?? 0,
    reg_count_1mo: r.reg_count_1mo ?? 0,
    reg_count_1y: r.reg_count_1y ?? 0,
    reg_volume_wei_1w: weiString(r.reg_volume_wei_1w ?? '0'),
    reg_volume_wei_1mo: weiString(r.reg_volume_wei_1mo ?? '0'),
    reg_volume_wei_1y: weiString(r.reg_volume_wei_1y ?? '0'),
    registered_count: s.registered_count,
    grace_count: s.grace_count,
    premium_count: s.premium_count,
    available_count: s.available_count,
    listings_count: s.listings_count,
    holders_count: s.holders_count,
    registered_percent: percent(s.registered_count, members),
    grace_percent: percent(s.grace_count, members),
    premium_percent: percent(s.premium_count, members),
    available_percent: percent(s.available_count, members),
    listings_percent: percent(s.listings_count, members),
    holders_ratio: percent(s.holders_count, members),
    avatar_url: null,
    header_url: null,
    // stats rows come through the JSON cache: their times may be strings
    last_floor_update: iso(r.last_floor_update ?? null),
    last_sales_update: iso(r.last_sales_update ?? null),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at ?? r.created_at),
  };
}

function stripNulls<T extends object>(o: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };
}
