import { sql } from 'kysely';
import type pg from 'pg';
import { MAINNET, type Config } from '../config.js';
import type { Db } from '../db/client.js';
import { DAY, HOUR } from '../lib/time.js';
import { ACTIVITY_COLUMNS, ActivityLog, CLUB_ACTIVITY_COLUMNS } from './activity.js';
import { ethUsdOnDay, PRICES_FROM, type Currencies } from './chain.js';
import { writeUsers, writeVotes } from './community.js';
import { park, restoreParked } from './bulk.js';
import { ethValuer, NAME_COLUMNS, NameClubs, NameHashes, NameSummaries, writeName } from './names.js';
import { CopyWriter, type ReplacedTriggers } from './copy.js';
import { refreshDerived } from './derived.js';
import { loadKeccak } from './keccak.js';
import { MarketGenerator } from './market.js';
import { buildPopulation } from './model.js';
import { demoAccounts, OrderHasher, OrderSigner } from './orders.js';
import { Rng } from './random.js';
import { RegistrationWriter } from './registrations.js';
import { analyze, attachParked, sequencesAndStatistics } from './tail.js';
import { bucketViews, ViewGenerator } from './views.js';
import { iso } from './iso.js';

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
/**
 * The tables a seed writes with foreign keys (to the names, votes' to users, trend totals' to their
 * windows): the seeded tables, the activity log and the derived rows it writes most of.
 */
const REFERRING = ['registrations', 'sales', 'listings', 'offers', 'votes', 'vote_events', 'notifications', 'name_views_daily', 'name_view_counts', 'activity_events',
  'club_names', 'search_labels', 'trend_buckets', 'trend_totals', 'name_viewer_latest', 'name_viewers_by_day'];
/**
 * What a re-seed empties: the seeded tables, those whose keys to them it parks, and the market
 * rollups (derived from the seeded tables; their refresh rebuilds them all). The mints and the
 * clubs' activity are emptied by their tables' truncate triggers (named here too, they would be
 * truncated twice in one statement, which PostgreSQL refuses).
 */
const EMPTIED = [...new Set([...TABLES, ...REFERRING, 'market_rollups', 'market_rollup_dirty'])].join(', ');
/** What the derived refreshes write. */
const DERIVED_TABLES = ['name_viewer_latest', 'name_viewers_by_day', 'clubs', 'club_names', 'club_members', 'club_holders', 'club_stats', 'market_rollups', 'trend_buckets', 'trend_totals', 'analytics_snapshots',
  'awards_leaderboard', 'holder_leaderboard', 'sync_state'];
const WITH_ID = ['users', 'ens_names', 'registrations', 'sales', 'listings', 'offers', 'vote_events', 'notifications'];
const COLUMNS = {
  activity_events: ACTIVITY_COLUMNS,
  club_activity: CLUB_ACTIVITY_COLUMNS,
  users: ['id', 'address', 'email', 'email_verified_at', 'telegram', 'discord', 'created_at', 'updated_at'],
  ens_names: NAME_COLUMNS,
  registrations: ['id', 'ens_name_id', 'kind', 'actor_address', 'tx_hash', 'log_index', 'block_number', 'block_time', 'duration_seconds', 'cost_wei', 'referrer', 'expiry_date'],
  registration_feed: ['registration_id', 'block_time', 'cost_wei', 'label', 'clubs'],
  listings: ['id', 'ens_name_id', 'seller_address', 'price_wei', 'currency_address', 'order_hash', 'order_data', 'status', 'source', 'created_at', 'updated_at',
    'expires_at', 'last_validated_at', 'unfunded_at', 'unfunded_reason', 'broker_address', 'broker_fee_bps', 'ens_name', 'name_expiry_date', 'value_wei', 'clubs'],
  offers: ['id', 'ens_name_id', 'buyer_address', 'offer_amount_wei', 'currency_address', 'order_hash', 'order_data', 'status', 'source', 'created_at', 'updated_at',
    'expires_at', 'last_validated_at', 'unfunded_at', 'unfunded_reason', 'name_owner_address', 'clubs'],
  sales: ['id', 'ens_name_id', 'seller_address', 'buyer_address', 'price_wei', 'currency_address', 'order_hash', 'listing_id', 'offer_id', 'tx_hash', 'log_index', 'source', 'sold_at', 'clubs'],
  notifications: ['id', 'recipient_address', 'type', 'ens_name_id', 'title', 'message', 'metadata', 'created_at', 'sent_at', 'read_at'],
  votes: ['user_id', 'ens_name_id', 'vote', 'created_at', 'updated_at'],
  vote_events: ['id', 'user_id', 'ens_name_id', 'vote', 'previous_vote', 'cast_at'],
  eth_usd_prices: ['day', 'price_usd'],
  name_views_daily: ['ens_name_id', 'day', 'viewer', 'seen_at'],
  name_view_counts: ['ens_name_id', 'views'],
} as const;
type Table = keyof typeof COLUMNS;
/**
 * The market rollups' dirty marks (statement triggers of migrations 0010 and 0021, each keeping all
 * rows of a load in a transition table): the seed's full rollup refresh recomputes every hour.
 */
const rollupMarks = (table: Table) => ({ triggers: [`${table}_rollup_ins`] });
/** Triggers the loads do without, by table. */
const REPLACED: Partial<Record<Table, ReplacedTriggers>> = {
  // each club's names (migration 0018), the searchable labels (0040) and the vote board's count (0050),
  // row by row, written for all names at once
  ens_names: {
    triggers: ['ens_names_club_names', 'ens_names_search_labels', 'ens_names_vote_board_ins'],
    instead: `INSERT INTO club_names (club, label, ens_name_id, searchable, label_length, char_class, listing_created_at)
      SELECT DISTINCT c, n.label, n.id, n.searchable, n.label_length, n.char_class, n.listing_created_at FROM ens_names n CROSS JOIN LATERAL unnest(n.clubs) c WHERE n.clubs <> '{}';
      INSERT INTO search_labels (id, label, label_length) SELECT id, label, label_length FROM ens_names WHERE searchable ORDER BY id;
      SELECT vote_board_recount()`,
    fills: ['club_names', 'search_labels'],
  },
  // the listing's name, its expiry and clubs (migrations 0002, 0048: a read of the name per row) and its
  // value in ETH (0020, a read of its currency and the latest ETH/USD price per row): the rows carry them
  listings: { triggers: ['listings_copy_name', 'listings_value_in_eth', 'listings_rollup_ins'] },
  // each name's mint (0044), from all registrations at once; the feed's rows (0049) are copied beside them
  registrations: {
    triggers: ['registrations_rollup_ins', 'registrations_name_mints_ins', 'registrations_feed_ins'],
    instead: `INSERT INTO name_mints (ens_name_id, registration_id, actor_address, block_time, block_number, log_index)
      SELECT DISTINCT ON (ens_name_id) ens_name_id, id, actor_address, block_time, block_number, log_index FROM registrations
      WHERE kind = 'registration' ORDER BY ens_name_id, block_time, block_number, log_index, id`,
    fills: ['name_mints'],
  },
  // the name's clubs (0048, a read of the name per row): the rows carry them
  sales: { triggers: ['sales_rollup_ins', 'sales_copy_clubs'] },
  // the owner of the offer's name and its clubs (0028, 0048: a read of the name per row): the rows carry them
  offers: { triggers: ['offers_copy_owner', 'offers_rollup_ins'] },
  vote_events: rollupMarks('vote_events'),
  name_views_daily: rollupMarks('name_views_daily'),
  // each event under its name's clubs (0047, a read of the name per load): the log's writer copies them beside it
  activity_events: { triggers: ['activity_events_club_activity_ins'] },
};

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
 * each name's row carries what its orders and votes summarise, and the derived data is refreshed.
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
  const progress = (step: string, rows = 0) => options.onProgress?.(step, rows, Date.now() - started);
  const writers: CopyWriter[] = [];
  /** A COPY per table, each on a connection and in a transaction of its own. */
  const open = async (...tables: Table[]): Promise<CopyWriter[]> => {
    const opened: CopyWriter[] = [];
    for (const t of tables) opened.push(await CopyWriter.open(pool, t, COLUMNS[t], REPLACED[t]));
    writers.push(...opened);
    return opened;
  };
  /**
   * Ends the COPYs: each commits (indexes rebuilt) as soon as its rows are in and is analyzed then,
   * beside the generation that goes on rather than all at once before the refreshes; the promise of all.
   */
  const commit = (done: CopyWriter[]): Promise<void> => {
    const all = settleAll(done.map(async (w) => {
      counts[w.table] = await w.end();
      progress(w.table, counts[w.table]);
      await analyze(pool, [w.table]);
    }));
    all.catch(() => undefined); // awaited later; never unhandled meanwhile
    return all;
  };
  /** work running beside the main line (the activity log's load) */
  const beside: Promise<unknown>[] = [];
  try {
    return await load();
  } catch (err) {
    // Every COPY still open is rolled back, also one opened by work that was still running.
    for (const w of writers) w.abort();
    await Promise.allSettled(beside);
    for (const w of writers) w.abort();
    throw err;
  }

  async function load(): Promise<Record<string, number>> {
    const keccak = await loadKeccak();
    const accounts = demoAccounts(10);
    const demo = accounts.map((a) => a.address.toLowerCase());
    const population = buildPopulation({ names, now, demoAddresses: demo, gracePeriodDays: options.gracePeriodDays ?? 90, premiumPeriodDays: options.premiumPeriodDays ?? 21,
      keccak });
    progress('(generated in memory)', population.names.length);
    const clubs = new NameClubs(population.names);
    const currencies: Currencies = { eth: '0x0000000000000000000000000000000000000000', weth: (options.wethAddress ?? MAINNET.weth).toLowerCase(), usdc: MAINNET.usdc };

    await healInterruptedSeed(pool);
    await sql`TRUNCATE ${sql.raw(EMPTIED)} RESTART IDENTITY CASCADE`.execute(db);
    // The foreign keys to the names stay off until the end: the generator writes no row that refers to nothing.
    for (const t of REFERRING) await park(pool, t, 'foreign keys');

    // The passes run in the order that keeps both cores busy: generating rows is the seed's own
    // work (one core), loading and indexing them PostgreSQL's. The names' rows (their summaries from
    // the market and votes) are written before the registrations and views, so that their three
    // dozen indexes are built while the seed generates those; the activity log comes last.
    const voters = population.others.slice(0, Math.min(20_000, Math.max(300, Math.round(names / 25))));
    const userAddresses = [...demo, ...voters];
    const log = new ActivityLog();
    const [users, prices] = await open('users', 'eth_usd_prices');
    await writeUsers(new Rng('ens-market demo v1 users'), now, userAddresses, demo.length, users);
    for (let day = PRICES_FROM / DAY; day <= Math.floor(now / DAY); day++) await prices.add([iso(day * DAY).slice(0, 10), ethUsdOnDay(day).toFixed(2)]);
    const pricesLoaded = commit([users, prices]);
    // the orders need the token ids
    const hashes = new NameHashes(keccak, population.names.length);
    for (let i = 0; i < population.names.length; i++) hashes.add(i, population.names[i]);

    // The market and the votes, collecting what each name's row summarises; listings are valued in
    // ETH at the latest of the prices, as their trigger would once they are committed.
    await pricesLoaded;
    const hasher = new OrderHasher(keccak);
    const signer = new OrderSigner(accounts, { chainId: options.chainId ?? 1, seaportAddress: options.seaportAddress ?? MAINNET.seaport }, keccak);
    const contracts = { baseRegistrarAddress: options.baseRegistrarAddress ?? MAINNET.baseRegistrar, nameWrapperAddress: options.nameWrapperAddress ?? MAINNET.nameWrapper };
    const summaries = new NameSummaries(population.names.length, now, await ethValuer(db, now));
    const [listings, offers, sales, notifications, votes, voteEvents] = await open('listings', 'offers', 'sales', 'notifications', 'votes', 'vote_events');
    const market = new MarketGenerator(new Rng('ens-market demo v1 market'), now, { listings, offers, sales, notifications }, hasher, signer, contracts,
      currencies, demo, pickOther(population.others), log, Math.min(0.12, 1500 / names), summaries, clubs);
    for (const n of population.names) await market.name(n);
    await writeVotes(new Rng('ens-market demo v1 votes'), now, userAddresses, demo.length, population.names, votes, voteEvents, log, summaries);
    const marketLoaded = commit([listings, offers, sales, notifications, votes, voteEvents]);

    // The names' rows, summaries included (no update of a million rows after the load), their
    // indexes and unique keys built before they commit: beside the next pass.
    const [ensNames] = await open('ens_names');
    for (let i = 0; i < population.names.length; i++) await writeName(ensNames, i, population.names[i], hashes, clubs, summaries, currencies, now);
    const namesLoaded = commit([ensNames]);

    // The registrations and views, a COPY per table side by side (with the foreign keys parked,
    // nothing waits for the names); their events join the activity log.
    const [regs, regFeed, views, viewCounts] = await open('registrations', 'registration_feed', 'name_views_daily', 'name_view_counts');
    const registrations = new RegistrationWriter(new Rng('ens-market demo v1 registrations'), new Rng('ens-market demo v1 registration transactions'), regs, regFeed, log,
      population.names, clubs, options.referrerCode.toLowerCase());
    const viewer = new ViewGenerator(new Rng('ens-market demo v1 views'), now, population.names, userAddresses.length, demo.length, { views, counts: viewCounts });
    for (let i = 0; i < population.names.length; i++) {
      await registrations.name(i);
      await viewer.name(i);
    }
    const chainLoaded = commit([regs, regFeed, views, viewCounts]);
    progress('(generated rows)', log.size);

    // The activity log, oldest first, complete now, streams while the tables above commit and
    // build their indexes.
    const activityLoaded = (async () => {
      const [activityEvents, clubActivity] = await open('activity_events', 'club_activity');
      await log.write(activityEvents, registrations.activityLine, { writer: clubActivity, keysOf: (id) => clubs.activityKeys(id) });
      await commit([activityEvents, clubActivity]);
      // live events follow the seeded ones
      await pool.query(`SELECT setval(pg_get_serial_sequence('activity_events', 'id'), GREATEST(1, $1::bigint), $1::bigint > 0)`, [log.size]);
    })();
    activityLoaded.catch(() => undefined);
    beside.push(activityLoaded);

    await namesLoaded;
    await chainLoaded;
    await marketLoaded;
    await sequencesAndStatistics(pool, WITH_ID, ['trend_windows', 'search_labels', 'name_mints', 'vote_board_counts']);
    progress('(analyzed)');
    await refreshDerived(db, (step) => progress(`(refreshed: ${step})`), { 'trend counters': () => bucketViews(db, now) });
    // The refreshes' tables are planned on their real sizes from the first request, also where
    // autovacuum is off (without statistics a trending page read 40,000 rows to sort 20: 40 ms).
    await analyze(pool, DERIVED_TABLES);
    await activityLoaded;
    // the foreign keys, once nothing else is running
    await attachParked(pool);
    progress('(derived data refreshed)');
    return Object.fromEntries([...TABLES, 'activity_events'].map((t) => [t, counts[t] ?? 0]));
  }
}

/** Waits for every promise; throws the first failure once all have settled. */
async function settleAll(work: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Builds again the names' indexes and unique keys, and the foreign keys to them, that a seed which
 * died half-way left parked. Should the half-loaded rows not satisfy them, the seeded tables are
 * emptied first.
 */
export async function healInterruptedSeed(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  const attempt = async (truncate: boolean) => {
    await client.query('BEGIN');
    await client.query('SET LOCAL statement_timeout = 0');
    if (truncate) await client.query(`TRUNCATE ${EMPTIED} RESTART IDENTITY CASCADE`);
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

function pickOther(others: readonly string[]) {
  const rng = new Rng('ens-market demo v1 counterparties');
  return () => others[Math.floor(others.length * rng.next() ** 2)];
}
