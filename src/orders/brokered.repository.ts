import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import type { ListingStatus } from '../db/schema.js';
import { EFFECTIVE_STATUS_SQL, statusParts } from './listings.repository.js';
import { listingsWithStatus, resultJsonRowsWith, type ResultJsonRow } from '../search/results.js';

/**
 * Reads of brokered listings, all over the partial index `listings_broker_idx` (0012): one broker's
 * listings, or every brokered listing for the stats; never the rest of the listings table. A
 * broker's reads are one range of that index whatever the broker: each is planned once per
 * connection (GENERIC_PLAN).
 */

function ofBroker(db: Executor, broker: string, status: ListingStatus | undefined) {
  return db
    .selectFrom('listings as l')
    .modifyFront(GENERIC_PLAN)
    .where('l.broker_address', '=', broker)
    .$if(status !== undefined, (qb) => qb.where((eb) => eb.or(statusParts(status!))));
}

/** The broker's listings in `status` (all when not given), as conditions on listing `l`. */
function brokerListings(broker: string, status: ListingStatus | undefined): RawBuilder<unknown> {
  const inStatus = status === undefined ? sql`true` : sql.join(statusParts(status), sql` OR `);
  return sql`l.broker_address = ${broker} AND (${inStatus})`;
}

/** A row of walkedPage: a name of the page (none when the page is empty or not settled) and whether the walk settles the page. */
interface WalkedName { id: number | null; ord: number | null; settled: boolean }

/**
 * The names the broker has listings of (in `status`, when given), the newest listing first (ties
 * on name id, descending), from a walk of the broker's index newest first (`batch` listings), each
 * name taken at its first (newest) listing: those ranked `offset` + 1 to `want`. `settled`: the
 * walk ended (it read every listing), or its last listing is older than the name ranked `want` (a
 * name not seen yet is no newer than that listing), so these are the page; a walk that settles
 * nothing gives one row with `settled` false and no id, an empty page one with `settled` true and
 * no id.
 */
function walkedPage(db: Executor, broker: string, status: ListingStatus | undefined, batch: number, offset: number, want: number): RawBuilder<WalkedName> {
  const walk = ofBroker(db, broker, status).select(['l.ens_name_id', 'l.created_at', 'l.id']).orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(batch);
  return sql<WalkedName>`(
    WITH walk AS MATERIALIZED (${walk}),
    ranked AS (
      SELECT ens_name_id AS id, created_at, row_number() OVER (ORDER BY created_at DESC, ens_name_id DESC) AS ord
      FROM (SELECT DISTINCT ON (ens_name_id) ens_name_id, created_at FROM walk ORDER BY ens_name_id, created_at DESC, id DESC) newest),
    settled AS (
      SELECT ((SELECT count(*) FROM walk) < ${batch} OR (SELECT min(created_at) FROM walk) < (SELECT created_at FROM ranked WHERE ord = ${want})) IS TRUE AS settled)
    SELECT r.id, r.ord, s.settled FROM settled s LEFT JOIN ranked r ON r.ord > ${offset} AND r.ord <= ${want}
  )`;
}

/**
 * A page of the names the broker has listings of (walkedPage), walking as far as the page needs
 * plus the listings as new as its last name's (twice the listings the page reaches, then four times
 * more each time), so a broker with many listings costs what the page costs, not a grouping of
 * them all.
 */
export async function brokerNameIds(db: Executor, broker: string, status: ListingStatus | undefined, limit: number, offset: number): Promise<number[]> {
  const want = offset + limit;
  for (let batch = 2 * want; ; batch *= 4) {
    const rows = await db.selectFrom(walkedPage(db, broker, status, batch, offset, want).as('p')).modifyFront(GENERIC_PLAN)
      .select(['p.id', 'p.settled']).orderBy('p.ord').execute();
    if (rows[0]?.settled) return rows.flatMap((r) => (r.id === null ? [] : [r.id]));
  }
}

export async function countBrokerNames(db: Executor, broker: string, status: ListingStatus | undefined, cap?: number): Promise<number> {
  const names = ofBroker(db, broker, status).select('l.ens_name_id').distinct().$if(cap !== undefined, (qb) => qb.limit(cap! + 1));
  const row = await db.selectFrom(names.as('d')).modifyFront(GENERIC_PLAN).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The rows of the names `source` yields as `p(id, ord)` as search results whose `listings` are the
 * broker's listings of each (in `status`, when given; each with its effective status), newest
 * first: one statement, planned once per connection (each name's listings are one range of the
 * broker's index). `extra`: further columns of `p` beside each row.
 */
function brokerRows<E extends object = object>(
  db: Executor, broker: string, status: ListingStatus | undefined, source: RawBuilder<unknown>, extra?: RawBuilder<unknown>,
): Promise<(ResultJsonRow & E)[]> {
  return resultJsonRowsWith<E>(db, source, {
    plan: 'generic',
    extra,
    listings: listingsWithStatus(sql`${brokerListings(broker, status)} AND l.ens_name_id = n.id`, EFFECTIVE_STATUS_SQL, `broker:${broker}:${status ?? 'all'}`),
  });
}

/** The page's names (`nameIds`, in order) as search result rows (brokerRows). */
export async function brokerPageRows(db: Executor, broker: string, status: ListingStatus | undefined, nameIds: readonly number[]): Promise<ResultJsonRow[]> {
  if (nameIds.length === 0) return [];
  return brokerRows(db, broker, status, sql`unnest(${[...nameIds]}::bigint[]) WITH ORDINALITY AS p(id, ord)`);
}

/**
 * A page of brokerNameIds with its rows in one statement, from the walk's first batch (twice the
 * listings the page reaches). Undefined when that batch does not settle the page (a broker's names
 * with many listings each), or the page is empty (the rows of no name cannot carry `settled`):
 * brokerNameIds and brokerPageRows then read it in two statements, as always before. A statement
 * is about 0.12 ms of the service's CPU and 0.06 ms of PostgreSQL's whatever it reads; a broker's
 * page was two.
 */
export async function brokerPageAtOnce(db: Executor, broker: string, status: ListingStatus | undefined, limit: number, offset: number): Promise<ResultJsonRow[] | undefined> {
  const want = offset + limit;
  const rows = await brokerRows<{ settled: boolean }>(db, broker, status, sql`${walkedPage(db, broker, status, 2 * want, offset, want)} p`, sql`, p.settled`);
  return rows.length > 0 && rows[0]!.settled ? rows : undefined;
}

export interface BrokerStatsRow {
  active: string;
  sold: string;
  brokers: string;
  avg_fee_bps: string | null;
}

/** One pass over the brokered listings' index entries (index-only once vacuumed). */
export async function brokerStats(db: Executor): Promise<BrokerStatsRow> {
  return db
    .selectFrom('listings as l')
    .where('l.broker_address', 'is not', null)
    .select([
      sql<string>`count(*) FILTER (WHERE ${sql<SqlBool>`l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now())`})`.as('active'),
      sql<string>`count(*) FILTER (WHERE l.status = 'sold')`.as('sold'),
      sql<string>`count(DISTINCT l.broker_address)`.as('brokers'),
      sql<string | null>`round(avg(l.broker_fee_bps), 2)`.as('avg_fee_bps'),
    ])
    .executeTakeFirstOrThrow();
}
