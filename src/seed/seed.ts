import { sql } from 'kysely';
import type pg from 'pg';
import { MAINNET, type Config } from '../config.js';
import type { Db } from '../db/client.js';
import { builtInClubsOf } from '../lib/clubs.js';
import { DAY, HOUR } from '../lib/time.js';
import { blockAt, ethUsdOnDay, PERMANENT_REGISTRAR, PRICES_FROM, registrationCostWei } from './chain.js';
import { writeUsers, writeVotes } from './community.js';
import { park, restoreParked } from './bulk.js';
import { seedActivity } from './activity.js';
import { CopyWriter, textArray } from './copy.js';
import { refreshDerived } from './derived.js';
import { loadKeccak } from './keccak.js';
import { hashLabel } from './labels.js';
import { MarketGenerator, priceOf, type Currencies } from './market.js';
import { buildPopulation, PROGRAM_START, type DemoName } from './model.js';
import { demoAccounts, OrderHasher, OrderSigner } from './orders.js';
import { fakeHash, Rng } from './random.js';
import { bucketViews, writeViews } from './views.js';

export interface SeedOptions {
  /** About this many names (default 10,000). */
  names?: number;
  /** The pool of `db`: rows are loaded with COPY on connections of their own. */
  pool: pg.Pool;
  /** The data set's "now" (default: the start of the current UTC hour, so an hour's runs agree). */
  now?: Date;
  /** Our referral code (bytes32), config `referrerCode`; a share of recent events carry it. */
  referrerCode: string;
  chainId?: number;
  seaportAddress?: string;
  baseRegistrarAddress?: string;
  nameWrapperAddress?: string;
  wethAddress?: string;
  gracePeriodDays?: number;
  premiumPeriodDays?: number;
  /** Called as each table is loaded (rows, milliseconds since the start). */
  onProgress?: (table: string, rows: number, ms: number) => void;
}

/** The tables the seed owns; re-seeding empties them (and, by CASCADE, what refers to them). */
const TABLES = ['users', 'ens_names', 'registrations', 'sales', 'listings', 'offers', 'votes', 'vote_events', 'notifications', 'eth_usd_prices',
  'name_views_daily', 'name_view_counts'];
const WITH_ID = ['users', 'ens_names', 'registrations', 'sales', 'listings', 'offers', 'vote_events', 'notifications'];
const COLUMNS = {
  users: ['id', 'address', 'email', 'email_verified_at', 'telegram', 'discord', 'created_at', 'updated_at'],
  ens_names: ['id', 'name', 'label', 'labelhash', 'namehash', 'token_id', 'wrapped', 'owner_address', 'registrant_address', 'registration_date',
    'expiry_date', 'has_emoji', 'clubs', 'last_sale_date', 'last_sale_price_wei', 'last_sale_currency', 'created_at', 'updated_at'],
  registrations: ['id', 'ens_name_id', 'kind', 'actor_address', 'tx_hash', 'log_index', 'block_number', 'block_time', 'duration_seconds', 'cost_wei', 'referrer', 'expiry_date'],
  listings: ['id', 'ens_name_id', 'seller_address', 'price_wei', 'currency_address', 'order_hash', 'order_data', 'status', 'source', 'created_at', 'updated_at',
    'expires_at', 'last_validated_at', 'unfunded_at', 'unfunded_reason', 'broker_address', 'broker_fee_bps'],
  offers: ['id', 'ens_name_id', 'buyer_address', 'offer_amount_wei', 'currency_address', 'order_hash', 'order_data', 'status', 'source', 'created_at', 'updated_at',
    'expires_at', 'last_validated_at', 'unfunded_at', 'unfunded_reason'],
  sales: ['id', 'ens_name_id', 'seller_address', 'buyer_address', 'price_wei', 'currency_address', 'order_hash', 'listing_id', 'offer_id', 'tx_hash', 'log_index', 'source', 'sold_at'],
  notifications: ['id', 'recipient_address', 'type', 'ens_name_id', 'title', 'message', 'metadata', 'created_at', 'sent_at', 'read_at'],
  votes: ['user_id', 'ens_name_id', 'vote', 'created_at', 'updated_at'],
  vote_events: ['id', 'user_id', 'ens_name_id', 'vote', 'previous_vote', 'cast_at'],
  eth_usd_prices: ['day', 'price_usd'],
  name_views_daily: ['ens_name_id', 'day', 'viewer', 'seen_at'],
  name_view_counts: ['ens_name_id', 'views'],
} as const;
type Table = keyof typeof COLUMNS;

const iso = (ms: number) => new Date(ms).toISOString();

/** The options that come from configuration: referral code, chain, contracts, expiry periods. */
export function seedOptionsFrom(config: Config) {
  return {
    referrerCode: config.referrerCode,
    chainId: config.chainId,
    seaportAddress: config.seaportAddress,
    baseRegistrarAddress: config.baseRegistrarAddress,
    nameWrapperAddress: config.nameWrapperAddress,
    wethAddress: config.wethAddress,
    gracePeriodDays: config.gracePeriodDays,
    premiumPeriodDays: config.premiumPeriodDays,
  } satisfies Partial<SeedOptions>;
}

/** Start of the current UTC day. */
export function startOfUtcDay(at = new Date()): Date {
  return new Date(Math.floor(at.getTime() / DAY) * DAY);
}

/** The default "now": recent enough that the last-24-hours figures (trending) are alive, stable within the hour. */
export function startOfUtcHour(at = new Date()): Date {
  return new Date(Math.floor(at.getTime() / HOUR) * HOUR);
}

/**
 * (Re)creates the deterministic demo data set: the same options give the same rows. Every row is
 * generated in memory from seeded random streams and loaded with COPY, several tables at once;
 * the denormalized columns are then computed set-based in SQL and the derived data refreshed.
 */
export async function seedDemoData(db: Db, options: SeedOptions): Promise<Record<string, number>> {
  try {
    return await seed(db, options);
  } catch (err) {
    // Put back the names' indexes if the failure came while they were parked.
    await healInterruptedSeed(options.pool).catch(() => undefined);
    throw err;
  }
}

async function seed(db: Db, options: SeedOptions): Promise<Record<string, number>> {
  const started = Date.now();
  const now = (options.now ?? startOfUtcHour()).getTime();
  const names = options.names ?? 10_000;
  const counts: Record<string, number> = {};
  const pool = options.pool;
  const open = (table: Table) => CopyWriter.open(pool, table, COLUMNS[table]);
  const finish = async (writers: CopyWriter[]) => {
    const results = await Promise.allSettled(writers.map(async (w) => {
      counts[w.table] = await w.end();
      options.onProgress?.(w.table, counts[w.table], Date.now() - started);
    }));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  /** Runs a loading step; when it throws, every writer it opened is aborted. */
  const load = async (tables: Table[], fill: (w: CopyWriter[]) => Promise<void>) => {
    const writers: CopyWriter[] = [];
    try {
      for (const t of tables) writers.push(await open(t));
      await fill(writers);
    } catch (err) {
      for (const w of writers) w.abort();
      throw err;
    }
    await finish(writers);
  };

  const keccak = await loadKeccak();
  const accounts = demoAccounts(10);
  const demo = accounts.map((a) => a.address.toLowerCase());
  const population = buildPopulation({ names, now, demoAddresses: demo, gracePeriodDays: options.gracePeriodDays ?? 90, premiumPeriodDays: options.premiumPeriodDays ?? 21 });
  options.onProgress?.('(generated in memory)', population.names.length, Date.now() - started);
  const currencies: Currencies = { eth: '0x0000000000000000000000000000000000000000', weth: (options.wethAddress ?? MAINNET.weth).toLowerCase(), usdc: MAINNET.usdc };

  await healInterruptedSeed(pool);
  await sql`TRUNCATE ${sql.raw(TABLES.join(', '))} RESTART IDENTITY CASCADE`.execute(db);
  // The names' indexes and unique keys stay off until their summary columns are written (denormalize).
  await park(pool, 'ens_names');

  const voters = population.others.slice(0, Math.min(20_000, Math.max(300, Math.round(names / 25))));
  const userAddresses = [...demo, ...voters];
  await load(['users', 'ens_names', 'eth_usd_prices'], async ([users, ensNames, prices]) => {
    await writeUsers(new Rng('ens-market demo v1 users'), now, userAddresses, demo.length, users);
    for (const n of population.names) await writeName(ensNames, n, keccak, currencies, now);
    for (let day = PRICES_FROM / DAY; day <= Math.floor(now / DAY); day++) {
      await prices.add([new Date(day * DAY).toISOString().slice(0, 10), ethUsdOnDay(day).toFixed(2)]);
    }
  });

  const hasher = new OrderHasher(keccak);
  const signer = new OrderSigner(accounts, { chainId: options.chainId ?? 1, seaportAddress: options.seaportAddress ?? MAINNET.seaport });
  const contracts = { baseRegistrarAddress: options.baseRegistrarAddress ?? MAINNET.baseRegistrar, nameWrapperAddress: options.nameWrapperAddress ?? MAINNET.nameWrapper };
  await load(['registrations', 'listings', 'offers', 'sales', 'notifications'], async ([registrations, listings, offers, sales, notifications]) => {
    const market = new MarketGenerator(new Rng('ens-market demo v1 market'), now, { listings, offers, sales, notifications }, hasher, signer, contracts,
      currencies, demo, pickOther(population.others));
    const rng = new Rng('ens-market demo v1 registrations');
    const referrer = options.referrerCode.toLowerCase();
    let id = 0;
    for (const n of population.names) {
      for (const e of n.events) {
        const cost = e.bidEth !== undefined ? BigInt(Math.round(e.bidEth * 1e6)) * 1_000_000_000_000n : e.at < PERMANENT_REGISTRAR ? 0n : registrationCostWei(n.label, e.durationSeconds, e.at);
        const ref = e.at >= PROGRAM_START ? rng.weighted({ ours: 45, other: 15, none: 40 }) : rng.weighted({ other: 5, none: 95 });
        id++;
        await registrations.add([id, n.id, e.kind, e.actor, fakeHash(`ens-market demo registration ${id}`), rng.int(0, 400), blockAt(e.at), iso(e.at),
          e.durationSeconds, cost.toString(), ref === 'ours' ? referrer : ref === 'other' ? OTHER_REFERRER : null, iso(e.expiry)]);
      }
      await market.name(n);
    }
  });

  await load(['votes', 'vote_events', 'name_views_daily', 'name_view_counts'], async ([votes, events, views, viewCounts]) => {
    await writeVotes(new Rng('ens-market demo v1 votes'), now, userAddresses.length, demo.length, population.names, votes, events);
    await writeViews(new Rng('ens-market demo v1 views'), now, population.names, userAddresses.length, demo.length, { views, counts: viewCounts });
  });

  await denormalize(pool, now);
  options.onProgress?.('(denormalized columns)', 0, Date.now() - started);
  // The activity log of every seeded row, at every size (3.56 million events at a million names:
  // 224 s on this 2-core machine under a load of 11).
  counts.activity_events = await seedActivity(db, pool);
  options.onProgress?.('activity_events', counts.activity_events, Date.now() - started);
  await bucketViews(db, now);
  await refreshDerived(db, (step) => options.onProgress?.(`(refreshed: ${step})`, 0, Date.now() - started));
  options.onProgress?.('(derived data refreshed)', 0, Date.now() - started);
  return Object.fromEntries([...TABLES, 'activity_events'].map((t) => [t, counts[t] ?? 0]));
}

/**
 * Builds again the names' indexes and unique keys that a seed which died half-way left parked.
 * Should the half-loaded rows not satisfy them, the seeded tables are emptied first.
 */
export async function healInterruptedSeed(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  const attempt = async (truncate: boolean) => {
    await client.query('BEGIN');
    await client.query('SET LOCAL statement_timeout = 0');
    if (truncate) await client.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`);
    await restoreParked(client);
    await client.query('COMMIT');
  };
  try {
    try {
      await attempt(false);
    } catch {
      await client.query('ROLLBACK');
      await attempt(true);
    }
    client.release();
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
}

/** bytes32 of another front end's referral code, so that ours is not the only one. */
const OTHER_REFERRER = `0x${Buffer.from('ens.vision').toString('hex').padEnd(64, '0')}`;

function pickOther(others: readonly string[]) {
  const rng = new Rng('ens-market demo v1 counterparties');
  return () => others[Math.floor(others.length * rng.next() ** 2)];
}

async function writeName(w: CopyWriter, n: DemoName, keccak: Parameters<typeof hashLabel>[0], currencies: Currencies, now: number): Promise<void> {
  const h = hashLabel(keccak, n.label);
  n.orderTokenId = n.wrapped ? h.wrappedTokenId : h.tokenId;
  const last = n.sales.at(-1);
  await w.add([n.id, `${n.label}.eth`, n.label, h.labelhash, h.namehash, h.tokenId, n.wrapped, n.owner, n.owner, iso(n.registeredAt), iso(n.expiry),
    h.hasEmoji, textArray(builtInClubsOf(n.label)), last ? iso(last.at) : null, last ? priceOf(last.eth, last.currency, last.at).toString() : null,
    last ? currencies[last.currency] : null, iso(n.registeredAt), iso(now)]);
}

/**
 * Sequences past the explicit ids, then the summaries kept on each name, in one UPDATE of the
 * names that have any: the highest pending, unexpired offer, the cheapest active, unexpired
 * listing (and when the newest was listed), and the vote counts. The names' parked indexes and
 * unique keys are built after it, in the same transaction.
 */
async function denormalize(pool: pg.Pool, now: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL statement_timeout = 0');
    for (const t of WITH_ID) await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST(1, (SELECT max(id) FROM ${t})), (SELECT count(*) > 0 FROM ${t}))`, [t]);
    await client.query(`
      WITH o AS (
        SELECT DISTINCT ON (ens_name_id) ens_name_id, id, offer_amount_wei, currency_address FROM offers
        WHERE status = 'pending' AND (expires_at IS NULL OR expires_at > $1)
        ORDER BY ens_name_id, offer_amount_wei DESC, created_at, id
      ), l AS (
        SELECT DISTINCT ON (ens_name_id) ens_name_id, price_wei, currency_address, max(created_at) OVER (PARTITION BY ens_name_id) AS newest,
          COALESCE(expires_at, 'infinity') AS expires_at
        FROM listings WHERE status = 'active' AND (expires_at IS NULL OR expires_at > $1)
        ORDER BY ens_name_id, price_wei, id
      ), v AS (
        SELECT ens_name_id, count(*) FILTER (WHERE vote = 1)::int AS up, count(*) FILTER (WHERE vote = -1)::int AS down
        FROM votes GROUP BY ens_name_id
      ), s AS (
        SELECT coalesce(o.ens_name_id, l.ens_name_id, v.ens_name_id) AS id, o.id AS offer_id, o.offer_amount_wei, o.currency_address AS offer_currency,
               l.price_wei, l.currency_address AS listing_currency, l.newest, l.expires_at, v.up, v.down
        FROM o FULL JOIN l ON l.ens_name_id = o.ens_name_id FULL JOIN v ON v.ens_name_id = coalesce(o.ens_name_id, l.ens_name_id)
      )
      UPDATE ens_names n SET highest_offer_wei = s.offer_amount_wei, highest_offer_currency = s.offer_currency, highest_offer_id = s.offer_id,
        listing_price_wei = s.price_wei, listing_currency = s.listing_currency, listing_created_at = s.newest, listing_expires_at = s.expires_at,
        upvotes = coalesce(s.up, 0), downvotes = coalesce(s.down, 0)
      FROM s WHERE n.id = s.id`, [new Date(now)]);
    await restoreParked(client);
    await client.query('COMMIT');
    await client.query('SET statement_timeout = 0');
    await client.query(`ANALYZE ${TABLES.join(', ')}`);
    await client.query('RESET statement_timeout');
    client.release();
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
}
