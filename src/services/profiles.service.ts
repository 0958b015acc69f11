import { sql, type RawBuilder } from 'kysely';
import { GENERIC_PLAN } from '../db/client.js';
import { formatUnits, type Hex } from 'viem';
import type { Deps } from '../deps.js';
import { cached } from '../infra/cache.js';
import { AppError } from '../errors.js';
import { knownCurrencies } from '../db/repositories/currencies.repository.js';
import { isAddress, normalizeAddress, ZERO_ADDRESS } from '../lib/address.js';
import { InvalidNameError, normalizeEthName } from '../lib/ens.js';
import { DAY, HOUR, iso } from '../lib/time.js';
import { weiString } from '../lib/wei.js';
import { readBalances, readPrimaryName } from '../providers/rpc/ens-reads.js';
import type { Profile } from '../contracts/profiles.js';
import { LegendsService } from './legends.service.js';
import { currencyFields } from '../lib/currencies.js';

/** A primary name read from the chain is used for this long before it is read again. */
export const PRIMARY_NAME_TTL_MS = HOUR;
/** A profile waits this long for a chain read of the primary name before answering with the stored one. */
export const PRIMARY_NAME_BUDGET_MS = 2_000;
const OWNED_NAMES_SHOWN = 50;
/** The figures of a profile (not its primary name) are shared for this long per address. */
export const PROFILE_FIGURES_CACHE_SECONDS = 15;
/** Counts of an address's own rows (purchases, activity) stop here: a profile never counts a big range. */
const COUNT_CAP = 10_000;

export interface PrimaryName {
  name: string | null;
  source: 'rpc' | 'cache' | null;
  checkedAt: Date | null;
}

export type BalancesReason = 'rpc_not_configured' | 'rpc_failed';

export interface Balance {
  symbol: string;
  address: string | null;
  wei: string | null;
  formatted: string | null;
  decimals: number;
}

/**
 * Profiles of addresses: the primary name (reverse record through ETH_RPC_URL, kept in
 * `primary_names`), holdings and club counts from the holder roll-up and `club_holders`, the
 * owner's first names and their listings, sales, votes and activity from indexed counts bounded
 * by the address, and legends. Never an e-mail address: the response shape has no field for one.
 */
export class ProfileService {
  private readonly legends: LegendsService;

  constructor(private readonly deps: Pick<Deps, 'db' | 'cache' | 'rpc' | 'config' | 'logger'>) {
    this.legends = new LegendsService(deps);
  }

  /** The address a profile key names: an address as given, or the current owner of a stored name. */
  async resolveKey(key: string): Promise<string> {
    if (/^0x[0-9a-f]*$/i.test(key)) {
      if (isAddress(key)) return normalizeAddress(key);
      throw new AppError('VALIDATION_ERROR', 'An address is 0x followed by 40 hex characters', { field: 'params.addressOrName' });
    }
    let name: string;
    try {
      name = normalizeEthName(key);
    } catch (e) {
      if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', `Invalid name: ${e.message}`, { field: 'params.addressOrName' });
      throw e;
    }
    const row = await this.deps.db.selectFrom('ens_names').select('owner_address').where('name', '=', name).executeTakeFirst();
    if (!row) throw new AppError('PROFILE_NOT_FOUND', `${name} is not in the marketplace`);
    if (!row.owner_address) throw new AppError('PROFILE_NOT_FOUND', `${name} has no owner`);
    return row.owner_address;
  }

  async profile(key: string): Promise<Profile> {
    const address = await this.resolveKey(key);
    const [primary, figures] = await Promise.all([
      this.primaryName(address),
      cached(this.deps.cache, `profile:figures:${address}`, PROFILE_FIGURES_CACHE_SECONDS, () => this.figures(address)),
    ]);
    return {
      address,
      primaryName: primary.name,
      primaryNameSource: primary.source,
      primaryNameCheckedAt: iso(primary.checkedAt),
      ensRecords: null,
      persona: null,
      ...figures,
    };
  }

  /** Everything of a profile but its address and primary name (cached 15 seconds per address). */
  private async figures(address: string): Promise<Omit<Profile, 'address' | 'primaryName' | 'primaryNameSource' | 'primaryNameCheckedAt' | 'ensRecords' | 'persona'>> {
    const db = this.deps.db;
    const cutoff = new Date(Date.now() - this.deps.config.gracePeriodDays * DAY);
    const saleCurrencies = [ZERO_ADDRESS, this.deps.config.wethAddress.toLowerCase()];
    const [user, holdings, clubs, owned, sold, purchases, activity, legends] = await Promise.all([
      db.selectFrom('users').select(['id', 'created_at']).where('address', '=', address).executeTakeFirst(),
      db.selectFrom('holder_leaderboard').select(['names_owned', 'names_listed', 'expired_names', 'names_in_clubs']).where('address', '=', address).executeTakeFirst(),
      db.selectFrom('club_holders').select(['club', 'name_count']).where('address', '=', address).where('club', '<>', '*').where('name_count', '>', 0)
        .orderBy('name_count', 'desc').orderBy('club').execute(),
      this.ownedNames(address, cutoff),
      db.selectFrom('sales').select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(sum(price_wei), 0)::text`.as('volume')])
        .where('seller_address', '=', address).where('currency_address', 'in', saleCurrencies).executeTakeFirstOrThrow(),
      this.cappedCount(sql`SELECT 1 FROM sales WHERE buyer_address = ${address}`),
      this.cappedCount(sql`SELECT 1 FROM activity_events WHERE actor_address = ${address}`),
      this.legends.summary(address),
    ]);

    const [listings, votes] = await Promise.all([
      owned.length === 0 ? Promise.resolve([]) : db.selectFrom('listings')
        .select(['id', 'ens_name_id', 'price_wei', 'currency_address', 'source', 'created_at'])
        .where('ens_name_id', 'in', owned.map((n) => n.id))
        .where('seller_address', '=', address)
        .where('status', '=', 'active')
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .orderBy('created_at', 'desc').execute(),
      user === undefined ? Promise.resolve({ up: 0, down: 0 }) : db.selectFrom('votes')
        .select([sql<number>`count(*) FILTER (WHERE vote = 1)::int`.as('up'), sql<number>`count(*) FILTER (WHERE vote = -1)::int`.as('down')])
        .where('user_id', '=', user.id).executeTakeFirstOrThrow(),
    ]);
    const listingOf = new Map<number, (typeof listings)[number]>();
    for (const l of listings) if (!listingOf.has(l.ens_name_id)) listingOf.set(l.ens_name_id, l);

    return {
      memberSince: iso(user?.created_at ?? null),
      ownedNames: owned.map((n) => {
        const l = listingOf.get(n.id);
        return {
          id: n.id,
          token_id: n.token_id,
          name: n.name,
          expiry_date: iso(n.expiry_date),
          registration_date: iso(n.registration_date),
          created_at: iso(n.created_at),
          is_listed: l !== undefined,
          active_listing: l ? { id: l.id, price_wei: weiString(l.price_wei), currency_address: l.currency_address, ...currencyFields(l.currency_address), source: l.source, created_at: iso(l.created_at) } : null,
        };
      }),
      clubs: clubs.map((c) => ({ club: c.club, count: c.name_count })),
      legends: legends.legends,
      stats: {
        totalNames: holdings?.names_owned ?? 0,
        listedNames: holdings?.names_listed ?? 0,
        expiredNames: holdings?.expired_names ?? 0,
        namesInClubs: holdings?.names_in_clubs ?? 0,
        namesSold: sold.n,
        salesVolumeWei: weiString(sold.volume),
        purchases,
        totalActivity: activity,
        votes: { cast: votes.up + votes.down, up: votes.up, down: votes.down },
      },
    };
  }

  /**
   * The owner's first names by expiry (those without one last) that are not past their grace
   * period: the names expiring after `cutoff` as one range of the owner index, then those without
   * an expiry. As one condition (`expiry IS NULL OR expiry > cutoff`) the index was read from the
   * owner's first name on, every expired name's row included: the largest holder's 50 names read
   * 1,600 pages (6 ms warm, 30 ms cold).
   */
  private async ownedNames(address: string, cutoff: Date) {
    const columns = sql`id, token_id, name, expiry_date, registration_date, created_at`;
    const { rows } = await sql<{ id: number; token_id: string; name: string; expiry_date: Date | null; registration_date: Date | null; created_at: Date }>`
      SELECT ${GENERIC_PLAN} * FROM (
        (SELECT ${columns} FROM ens_names WHERE owner_address = ${address} AND expiry_date > ${cutoff} ORDER BY expiry_date, id LIMIT ${OWNED_NAMES_SHOWN})
        UNION ALL
        (SELECT ${columns} FROM ens_names WHERE owner_address = ${address} AND expiry_date IS NULL ORDER BY id LIMIT ${OWNED_NAMES_SHOWN})
      ) owned ORDER BY expiry_date NULLS LAST, id LIMIT ${OWNED_NAMES_SHOWN}`.execute(this.deps.db);
    return rows;
  }

  private async cappedCount(rows: RawBuilder<unknown>): Promise<number> {
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${rows} LIMIT ${COUNT_CAP}) capped`.execute(this.deps.db);
    return r.rows[0].n;
  }

  /**
   * The primary name: the stored one while it is under an hour old; else read through the RPC
   * and stored. Without an RPC, when the read fails, or when it takes over PRIMARY_NAME_BUDGET_MS
   * (it then finishes in the background and stores its answer for the next request), the last
   * one stored answers (source `cache`).
   */
  async primaryName(address: string): Promise<PrimaryName> {
    const db = this.deps.db;
    const stored = await db.selectFrom('primary_names').modifyFront(GENERIC_PLAN).select(['name', 'checked_at']).where('address', '=', address).executeTakeFirst();
    const fromStore: PrimaryName = stored ? { name: stored.name, source: 'cache', checkedAt: stored.checked_at } : { name: null, source: null, checkedAt: null };
    const rpc = this.deps.rpc;
    if (!rpc || (stored && Date.now() - stored.checked_at.getTime() < PRIMARY_NAME_TTL_MS)) return fromStore;
    const read = (async (): Promise<PrimaryName> => {
      const name = (await readPrimaryName(rpc, this.deps.config.ensRegistryAddress, address as Hex)) ?? null;
      const checkedAt = new Date();
      await db.insertInto('primary_names').values({ address, name, checked_at: checkedAt })
        .onConflict((oc) => oc.column('address').doUpdateSet({ name, checked_at: checkedAt }))
        .execute();
      return { name, source: 'rpc', checkedAt };
    })().catch((err: unknown) => {
      this.deps.logger.warn({ err, address }, 'primary name not read; the last one seen stands');
      return fromStore;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<PrimaryName>((resolve) => {
      timer = setTimeout(() => resolve(fromStore), PRIMARY_NAME_BUDGET_MS);
    });
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** ETH and the known ERC-20 currencies (WETH, USDC) through the RPC; without one, nulls and a reason. */
  async balances(rawAddress: string): Promise<{ address: string; balances: Record<string, Balance>; reason: BalancesReason | null }> {
    const address = normalizeAddress(rawAddress);
    const currencies = knownCurrencies(this.deps.config);
    const tokens = currencies.filter((c) => c.address !== ZERO_ADDRESS);
    const shape = (values: (bigint | null)[]): Record<string, Balance> => Object.fromEntries(currencies.map((c, i) => [c.symbol.toLowerCase(), {
      symbol: c.symbol,
      address: c.address === ZERO_ADDRESS ? null : c.address,
      wei: values[i] === null ? null : values[i].toString(),
      formatted: values[i] === null ? null : formatUnits(values[i], c.decimals),
      decimals: c.decimals,
    }]));
    const none = currencies.map(() => null);
    if (!this.deps.rpc) return { address, balances: shape(none), reason: 'rpc_not_configured' };
    try {
      const read = await readBalances(this.deps.rpc, address, tokens.map((t) => t.address as Hex));
      const byToken = new Map(tokens.map((t, i) => [t.address, read.tokens[i]]));
      return { address, balances: shape(currencies.map((c) => (c.address === ZERO_ADDRESS ? read.native : byToken.get(c.address) ?? null))), reason: null };
    } catch (err) {
      this.deps.logger.warn({ err, address }, 'balances not read');
      return { address, balances: shape(none), reason: 'rpc_failed' };
    }
  }

  /** Badges the address earned: one per legend type it qualifies for, dated by its first such mint. */
  async badges(rawAddress: string) {
    const address = normalizeAddress(rawAddress);
    const [summary, types] = await Promise.all([
      this.legends.summary(address),
      this.deps.db.selectFrom('legend_types').select(['type', 'description']).execute(),
    ]);
    const describe = new Map(types.map((t) => [t.type, t.description]));
    return {
      address,
      badges: Object.entries(summary.legends).map(([type, entry]) => ({
        event: { id: `legend:${type}`, name: type, description: describe.get(type) ?? '' },
        tokenId: null,
        owner: address,
        created: entry.firstMint,
      })),
    };
  }
}
