import { sql } from 'kysely';
import { MAINNET } from '../config.js';
import type { Deps } from '../deps.js';
import type { Db, Executor } from '../db/client.js';
import { AppError } from '../errors.js';
import { cached } from '../infra/cache.js';
import { ZERO_ADDRESS } from '../lib/address.js';
import { isClubName } from '../lib/clubs.js';
import { offsetOf, pageA, type PageA } from '../lib/pagination.js';
import { weiString } from '../lib/wei.js';
import { type HOLDER_SORTS, MAX_CLUB_FILTERS } from '../contracts/leaderboard.js';

/**
 * The holder leaderboard. Requests read `holder_leaderboard`, one precomputed row per owner
 * with at least one active name, indexed for every sort and (GIN) for the clubs filter. The
 * `leaderboard.refresh` job rebuilds it; a response is as fresh as the last refresh.
 */
export interface HolderLeaderboardTable {
  address: string;
  names_owned: number;
  names_in_clubs: number;
  expired_names: number;
  names_listed: number;
  names_sold: number;
  sales_volume: string;
  clubs: string[];
}

export type HolderSort = (typeof HOLDER_SORTS)[number];
export type SortDirection = 'asc' | 'desc';

export const HOLDER_CACHE_SECONDS = 12 * 60 * 60;
const STATE_KEY = 'standings.holder_leaderboard';

export interface HolderQuery {
  page: number;
  limit: number;
  sortBy: HolderSort;
  sortOrder: SortDirection;
  /** Raw values of `clubs[]` and `clubs` (each may hold a comma-separated list). */
  clubs: readonly string[];
}

export interface HolderUser {
  address: string;
  names_owned: number;
  names_in_clubs: number;
  expired_names: number;
  names_listed: number;
  names_sold: number;
  sales_volume: string;
  clubs: string[];
}

export interface HolderPage {
  users: HolderUser[];
  pagination: PageA;
  sort: { by: HolderSort; order: SortDirection };
}

interface RefreshState {
  /** Changes only when the aggregate changed; part of every response-cache key. */
  generation: string;
  refreshedAt: string;
  total: number;
  /** Owners per club, so that the total of a one-club filter costs nothing. */
  clubTotals?: Record<string, number>;
}

/** `clubs[]=a&clubs=b,c` → `['a', 'b', 'c']`, deduplicated and sorted (also the cache key). */
export function normalizeClubFilter(values: readonly string[]): string[] {
  const clubs = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''))].sort();
  const bad = clubs.find((c) => !isClubName(c));
  if (bad !== undefined) throw new AppError('VALIDATION_ERROR', `query.clubs has "${bad}", not a club identifier`, { field: 'query.clubs' });
  if (clubs.length > MAX_CLUB_FILTERS) throw new AppError('VALIDATION_ERROR', `query.clubs may name at most ${MAX_CLUB_FILTERS} clubs`, { field: 'query.clubs' });
  return clubs;
}

export class LeaderboardService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'cache'>) {}

  async holders(query: HolderQuery): Promise<HolderPage> {
    const clubs = normalizeClubFilter(query.clubs);
    const { page, limit, sortBy, sortOrder } = query;
    const state = await readState(this.deps.db);
    const key = `leaderboard:holders:${state?.generation ?? 'none'}:${sortBy}:${sortOrder}:${page}:${limit}:${clubs.join(',')}`;
    // On a miss, the total and the rows are read in one snapshot, so a refresh that commits in
    // between cannot pair the rows of one version with the total of another.
    return cached(this.deps.cache, key, HOLDER_CACHE_SECONDS, () => this.deps.db.transaction().setIsolationLevel('repeatable read').execute(async (db) => {
      const state = await readState(db);
      const total = clubs.length === 0
        ? state?.total ?? 0
        : clubs.length === 1 && state?.clubTotals
          ? state.clubTotals[clubs[0]] ?? 0
          : (await db.selectFrom('holder_leaderboard').select(sql<number>`count(*)::int`.as('n')).where(sql<boolean>`clubs && ${clubs}::text[]`).executeTakeFirstOrThrow()).n;
      const offset = offsetOf(page, limit);
      let rows = db
        .selectFrom('holder_leaderboard')
        .select(['address', 'names_owned', 'names_in_clubs', 'expired_names', 'names_listed', 'names_sold', 'sales_volume', 'clubs']);
      if (clubs.length > 0) rows = rows.where(sql<boolean>`clubs && ${clubs}::text[]`);
      const users = offset >= total ? [] : await rows.orderBy(sortBy, sortOrder).orderBy('address', sortOrder).limit(limit).offset(offset).execute();
      return {
        users: users.map(toHolderUser),
        pagination: pageA(page, limit, total),
        sort: { by: sortBy, order: sortOrder },
      };
    }));
  }
}

function toHolderUser(row: HolderLeaderboardTable): HolderUser {
  return {
    address: row.address,
    names_owned: row.names_owned,
    names_in_clubs: row.names_in_clubs,
    expired_names: row.expired_names,
    names_listed: row.names_listed,
    names_sold: row.names_sold,
    sales_volume: weiString(row.sales_volume),
    clubs: row.clubs,
  };
}

async function readState(db: Executor): Promise<RefreshState | undefined> {
  const row = await db.selectFrom('sync_state').select('value').where('key', '=', STATE_KEY).executeTakeFirst();
  return row?.value as RefreshState | undefined;
}

export interface HolderRefreshParams {
  gracePeriodDays: number;
  /** Sales in these currencies count towards names_sold and sales_volume (ETH and WETH). */
  wethAddress: string;
}

/** The defaults of GRACE_PERIOD_DAYS and WETH_ADDRESS, for loaders that run without a config. */
export const DEFAULT_HOLDER_PARAMS: HolderRefreshParams = { gracePeriodDays: 90, wethAddress: MAINNET.weth };

export interface HolderRefreshResult {
  owners: number;
  upserted: number;
  removed: number;
  generation: string;
}

/**
 * Rebuilds the holder leaderboard in one transaction: computes every owner's row into a
 * temporary table, then deletes the owners that left and writes only the rows that changed, so
 * readers keep reading the previous ranking until the commit. Concurrent refreshes queue on an
 * advisory lock. Definitions (interface document, "Holder leaderboard user"):
 * - a name is active while `expiry_date` is within the grace period (null expiry counts as active);
 * - names_listed: active names of the owner with an active, unexpired listing by the owner;
 * - names_sold / sales_volume: sales by the address as seller, in ETH or WETH only;
 * - clubs: distinct clubs of active names, alphabetically.
 */
export async function refreshHolderLeaderboard(db: Db, params: HolderRefreshParams): Promise<HolderRefreshResult> {
  const currencies = [ZERO_ADDRESS, params.wethAddress.toLowerCase()];
  // names whose expiry is at or before this are past their grace period
  const cutoff = sql`(now() - make_interval(days => ${params.gracePeriodDays}))`;
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = '15min'`.execute(trx);
    await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
    // The join estimates are far off (a CTE per figure); compiling the plan would cost more than running it.
    await sql`SET LOCAL jit = off`.execute(trx);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${STATE_KEY}))`.execute(trx);
    await sql`
      CREATE TEMP TABLE holder_leaderboard_next ON COMMIT DROP AS
      WITH owned AS (
        SELECT n.owner_address AS address,
               count(*) FILTER (WHERE n.expiry_date IS NULL OR n.expiry_date > ${cutoff}) AS names_owned,
               count(*) FILTER (WHERE n.expiry_date <= ${cutoff}) AS expired_names
        FROM ens_names n
        WHERE n.owner_address IS NOT NULL
        GROUP BY n.owner_address
      ),
      in_clubs AS (
        SELECT n.owner_address AS address, count(*) AS names_in_clubs
        FROM ens_names n
        WHERE n.owner_address IS NOT NULL AND n.clubs <> '{}' AND (n.expiry_date IS NULL OR n.expiry_date > ${cutoff})
        GROUP BY n.owner_address
      ),
      club_sets AS (
        SELECT n.owner_address AS address, array_agg(DISTINCT c.club COLLATE "C" ORDER BY c.club COLLATE "C") AS clubs
        FROM ens_names n CROSS JOIN LATERAL unnest(n.clubs) AS c(club)
        WHERE n.owner_address IS NOT NULL AND n.clubs <> '{}' AND (n.expiry_date IS NULL OR n.expiry_date > ${cutoff})
        GROUP BY n.owner_address
      ),
      listed AS (
        SELECT n.owner_address AS address, count(DISTINCT l.ens_name_id) AS names_listed
        FROM listings l
        JOIN ens_names n ON n.id = l.ens_name_id AND n.owner_address = l.seller_address
        WHERE l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now())
          AND (n.expiry_date IS NULL OR n.expiry_date > ${cutoff})
        GROUP BY n.owner_address
      ),
      sold AS (
        SELECT seller_address AS address, count(*) AS names_sold, sum(price_wei) AS sales_volume
        FROM sales
        WHERE currency_address = ANY(${currencies}::text[])
        GROUP BY seller_address
      )
      SELECT o.address,
             o.names_owned::int AS names_owned,
             coalesce(i.names_in_clubs, 0)::int AS names_in_clubs,
             o.expired_names::int AS expired_names,
             coalesce(l.names_listed, 0)::int AS names_listed,
             coalesce(s.names_sold, 0)::int AS names_sold,
             coalesce(s.sales_volume, 0)::numeric(78,0) AS sales_volume,
             coalesce(c.clubs, '{}') AS clubs
      FROM owned o
      LEFT JOIN in_clubs i ON i.address = o.address
      LEFT JOIN club_sets c ON c.address = o.address
      LEFT JOIN listed l ON l.address = o.address
      LEFT JOIN sold s ON s.address = o.address
      WHERE o.names_owned > 0
    `.execute(trx);
    await sql`ANALYZE holder_leaderboard_next`.execute(trx);

    const removed = await sql`
      DELETE FROM holder_leaderboard h
      WHERE NOT EXISTS (SELECT 1 FROM holder_leaderboard_next x WHERE x.address = h.address)
    `.execute(trx);
    const upserted = await sql`
      INSERT INTO holder_leaderboard AS h (address, names_owned, names_in_clubs, expired_names, names_listed, names_sold, sales_volume, clubs)
      SELECT address, names_owned, names_in_clubs, expired_names, names_listed, names_sold, sales_volume, clubs FROM holder_leaderboard_next
      ON CONFLICT (address) DO UPDATE SET
        names_owned = EXCLUDED.names_owned, names_in_clubs = EXCLUDED.names_in_clubs, expired_names = EXCLUDED.expired_names,
        names_listed = EXCLUDED.names_listed, names_sold = EXCLUDED.names_sold, sales_volume = EXCLUDED.sales_volume, clubs = EXCLUDED.clubs
      WHERE (h.names_owned, h.names_in_clubs, h.expired_names, h.names_listed, h.names_sold, h.sales_volume, h.clubs)
        IS DISTINCT FROM (EXCLUDED.names_owned, EXCLUDED.names_in_clubs, EXCLUDED.expired_names, EXCLUDED.names_listed, EXCLUDED.names_sold, EXCLUDED.sales_volume, EXCLUDED.clubs)
    `.execute(trx);
    const owners = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM holder_leaderboard_next`.execute(trx)).rows[0].n;
    const clubTotals = Object.fromEntries((await sql<{ club: string; n: number }>`
      SELECT c.club, count(*)::int AS n FROM holder_leaderboard_next x CROSS JOIN LATERAL unnest(x.clubs) AS c(club) GROUP BY c.club
    `.execute(trx)).rows.map((r) => [r.club, r.n]));
    const changedRows = Number(removed.numAffectedRows ?? 0n) + Number(upserted.numAffectedRows ?? 0n);
    // A large change leaves the planner's statistics behind (the first fill above all).
    if (changedRows > Math.max(1000, owners / 10)) await sql`ANALYZE holder_leaderboard`.execute(trx);

    const previous = await readState(trx);
    const now = new Date().toISOString();
    const state: RefreshState = {
      generation: changedRows > 0 || !previous ? now : previous.generation,
      refreshedAt: now,
      total: owners,
      clubTotals,
    };
    await sql`
      INSERT INTO sync_state (key, value, updated_at) VALUES (${STATE_KEY}, ${JSON.stringify(state)}::jsonb, now())
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
    `.execute(trx);
    return { owners, upserted: Number(upserted.numAffectedRows ?? 0n), removed: Number(removed.numAffectedRows ?? 0n), generation: state.generation };
  });
}
