import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/client.js';
import { cappedCount, HISTORY_WINDOW } from './window.js';

/** What a page of the log is narrowed to; every field optional, all combined with AND. */
export interface ActivityFilter {
  types?: readonly string[];
  platform?: string;
  /** a club's name, or 'any' for names in at least one club */
  club?: string;
  ensNameId?: number;
  /** as actor or counterparty */
  address?: string;
  /** names owned by this address (the feed) */
  ownedBy?: string;
  /** or on a watchlist of this user (the feed, with ownedBy: either set) */
  watchedBy?: number;
}

export interface ActivityRow {
  id: number;
  ens_name_id: number;
  event_type: string;
  actor_address: string | null;
  counterparty_address: string | null;
  platform: string;
  chain_id: number;
  price_wei: string | null;
  currency_address: string | null;
  transaction_hash: string | null;
  block_number: number | null;
  log_index: number | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  name: string;
  token_id: string;
  clubs: string[];
}

const and = (conds: RawBuilder<unknown>[]) => (conds.length === 0 ? sql`TRUE` : sql.join(conds, sql` AND `));

/** Under which key club_activity (0047) keeps a club's events: its name, or `*` for names in any club. */
const clubKey = (club: string) => (club === 'any' ? '*' : club);

/**
 * Conditions other than the address. The owner filters name a set of names; the planner either
 * walks the log in id order checking each name, or (for a small set) reads each name's newest
 * events from activity_events_name_idx. A club alone is read from club_activity (clubActivityIds);
 * beside other filters it is a check of each event.
 */
function conditions(f: ActivityFilter, types = f.types): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [];
  // One type as an equality: activity_events_type_idx then gives the id order (a one-element
  // ANY would not, and the planner walked the whole log backwards: 191 ms for sales at 3.5M events).
  if (types && types.length === 1) c.push(sql`event_type = ${types[0]}`);
  else if (types && types.length > 1) c.push(sql`event_type = ANY(${[...types]}::text[])`);
  if (f.platform !== undefined) c.push(sql`platform = ${f.platform}`);
  if (f.ensNameId !== undefined) c.push(sql`ens_name_id = ${f.ensNameId}`);
  // beside another filter (an address, a name, the feed's names), each event of theirs looked up in
  // the clubs' activity (0047) rather than its name's clubs in ens_names (the largest owner's events
  // in any club, capped count: 511 ms → 112 ms cold)
  if (f.club !== undefined) c.push(sql`EXISTS (SELECT FROM club_activity c WHERE c.club = ${clubKey(f.club)} AND c.event_id = activity_events.id)`);
  const owned = f.ownedBy === undefined ? undefined : sql`SELECT id FROM ens_names WHERE owner_address = ${f.ownedBy}`;
  const watched = f.watchedBy === undefined ? undefined : sql`SELECT ens_name_id FROM watchlist_items WHERE user_id = ${f.watchedBy}`;
  if (owned && watched) c.push(sql`ens_name_id IN (${owned} UNION ${watched})`);
  else if (owned ?? watched) c.push(sql`ens_name_id IN (${(owned ?? watched)!})`);
  return c;
}

/**
 * The ids of one page, newest first, and the matching total up to the window. An address
 * filter reads the actor and the counterparty indexes separately (each bounded by the page's
 * end) and merges them, instead of an OR that no single index serves.
 */
export async function activityIds(db: Executor, f: ActivityFilter, offset: number, limit: number): Promise<{ ids: number[]; total: number; capped: boolean }> {
  const conds = conditions(f);
  let source: RawBuilder<unknown>;
  if (f.address !== undefined) {
    const end = offset + limit;
    const bound = HISTORY_WINDOW + 1;
    const side = (column: 'actor_address' | 'counterparty_address', n: number) =>
      sql`(SELECT id FROM activity_events WHERE ${sql.ref(column)} = ${f.address} AND ${and(conds)} ORDER BY id DESC LIMIT ${n})`;
    source = sql`(SELECT id FROM ${side('actor_address', end)} a UNION SELECT id FROM ${side('counterparty_address', end)} c) p`;
    const countSource = sql`(SELECT id FROM ${side('actor_address', bound)} a UNION SELECT id FROM ${side('counterparty_address', bound)} c) p`;
    const [rows, count] = await Promise.all([
      sql<{ id: number }>`SELECT id FROM ${source} ORDER BY id DESC OFFSET ${offset} LIMIT ${limit}`.execute(db),
      cappedCount(db, countSource, sql`TRUE`),
    ]);
    return { ids: rows.rows.map((r) => r.id), ...count };
  }
  if (f.club !== undefined && f.ensNameId === undefined && f.ownedBy === undefined && f.watchedBy === undefined) return clubActivityIds(f, f.club, offset, limit, db);
  const where = and(conds);
  // Several types: each type's newest events from its own index range, merged.
  const page = f.types && f.types.length > 1
    ? sql<{ id: number }>`SELECT id FROM (${sql.join([...new Set(f.types)].map((t) =>
      sql`(SELECT id FROM activity_events WHERE ${and(conditions(f, [t]))} ORDER BY id DESC LIMIT ${offset + limit})`), sql` UNION ALL `)}) p
      ORDER BY id DESC OFFSET ${offset} LIMIT ${limit}`
    : sql<{ id: number }>`SELECT id FROM activity_events WHERE ${where} ORDER BY id DESC OFFSET ${offset} LIMIT ${limit}`;
  const [rows, count] = await Promise.all([
    page.execute(db),
    cappedCount(db, sql`activity_events`, where),
  ]);
  return { ids: rows.rows.map((r) => r.id), ...count };
}

/**
 * A club's events (with the type and platform filters): ranges of club_activity, one per type,
 * read in index order and merged, and the capped count likewise; the log itself is not read.
 */
async function clubActivityIds(f: ActivityFilter, club: string, offset: number, limit: number, db: Executor): Promise<{ ids: number[]; total: number; capped: boolean }> {
  const key = clubKey(club);
  const where = (type?: string) => and([
    sql`club = ${key}`,
    ...(type === undefined ? [] : [sql`event_type = ${type}`]),
    ...(f.platform === undefined ? [] : [sql`platform = ${f.platform}`]),
  ]);
  const types = f.types && f.types.length > 0 ? [...new Set(f.types)] : [undefined];
  const ranges = (n: number) => sql.join(types.map((t) => sql`(SELECT event_id FROM club_activity WHERE ${where(t)} ORDER BY event_id DESC LIMIT ${n})`), sql` UNION ALL `);
  const [rows, count] = await Promise.all([
    sql<{ id: number }>`SELECT event_id AS id FROM (${ranges(offset + limit)}) p ORDER BY event_id DESC OFFSET ${offset} LIMIT ${limit}`.execute(db),
    cappedCount(db, sql`(${ranges(HISTORY_WINDOW + 1)}) p`, sql`TRUE`),
  ]);
  return { ids: rows.rows.map((r) => r.id), ...count };
}

/** The events of `ids` with their names, in the order of `ids`. */
export async function loadActivity(db: Executor, ids: readonly number[]): Promise<ActivityRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('activity_events as a')
    .innerJoin('ens_names as n', 'n.id', 'a.ens_name_id')
    .select([
      'a.id', 'a.ens_name_id', 'a.event_type', 'a.actor_address', 'a.counterparty_address', 'a.platform', 'a.chain_id',
      'a.price_wei', 'a.currency_address', 'a.transaction_hash', 'a.block_number', 'a.log_index', 'a.metadata', 'a.created_at',
      'n.name', 'n.token_id', 'n.clubs',
    ])
    .where('a.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Events of some types of one name in time order (when they happened, not when they were logged:
 * a backfilled event sits at its block's time). Bounded by the name's own events.
 */
export async function nameHistory(db: Executor, ensNameId: number, types: readonly string[], offset: number, limit: number, order: 'asc' | 'desc'): Promise<{ rows: ActivityRow[]; total: number }> {
  const where = sql`ens_name_id = ${ensNameId} AND event_type = ANY(${[...types]}::text[])`;
  const dir = sql.raw(order === 'asc' ? 'ASC' : 'DESC');
  const [page, count] = await Promise.all([
    sql<{ id: number }>`SELECT id FROM activity_events WHERE ${where} ORDER BY created_at ${dir}, id ${dir} OFFSET ${offset} LIMIT ${limit}`.execute(db),
    cappedCount(db, sql`activity_events`, where),
  ]);
  return { rows: await loadActivity(db, page.rows.map((r) => r.id)), total: count.total };
}
