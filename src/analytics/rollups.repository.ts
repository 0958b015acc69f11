import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/client.js';
import { clubCondition, type ClubFilter, type Window } from './periods.js';
import type { MarketRollupsTable, RollupKind } from './rollups.js';

/** Sums of rollup rows over a window, all or grouped by one dimension. */
export interface RollupSums {
  /** the group: bucket time (ISO), band or name length; null when not grouped */
  key: string | number | null;
  count: number;
  grails: number;
  opensea: number;
  eth_count: number;
  volume_wei: string;
  volume_grails_wei: string;
  volume_opensea_wei: string;
  max_wei: string | null;
  min_wei: string | null;
  base_cost_wei: string;
  premium_wei: string;
  premium_count: number;
}

export interface SumQuery {
  kind: RollupKind;
  window: Window;
  clubs: ClubFilter;
  source?: string;
  groupBy?: 'bucket' | 'band' | 'name_length';
  /** the sums to compute (all by default); the others read 0 (max and min: null) */
  fields?: readonly SumField[];
}

type SumField = Exclude<keyof RollupSums, 'key'>;

const SUMS: Record<SumField, RawBuilder<unknown>> = {
  count: sql`coalesce(sum(count), 0)::int`,
  grails: sql`coalesce(sum(count) FILTER (WHERE source = 'grails'), 0)::int`,
  opensea: sql`coalesce(sum(count) FILTER (WHERE source = 'opensea'), 0)::int`,
  eth_count: sql`coalesce(sum(eth_count), 0)::int`,
  volume_wei: sql`coalesce(sum(volume_wei), 0)::text`,
  volume_grails_wei: sql`coalesce(sum(volume_wei) FILTER (WHERE source = 'grails'), 0)::text`,
  volume_opensea_wei: sql`coalesce(sum(volume_wei) FILTER (WHERE source = 'opensea'), 0)::text`,
  max_wei: sql`max(max_wei)::text`,
  min_wei: sql`min(min_wei)::text`,
  base_cost_wei: sql`coalesce(sum(base_cost_wei), 0)::text`,
  premium_wei: sql`coalesce(sum(premium_wei), 0)::text`,
  premium_count: sql`coalesce(sum(premium_count), 0)::int`,
};

const EMPTY: Omit<RollupSums, 'key'> = {
  count: 0, grails: 0, opensea: 0, eth_count: 0, volume_wei: '0', volume_grails_wei: '0', volume_opensea_wei: '0',
  max_wei: null, min_wei: null, base_cost_wei: '0', premium_wei: '0', premium_count: 0,
};

const MONTH_START = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const NEXT_MONTH = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

/**
 * The rollup rows a window sums: its buckets (one index range: the primary key starts with grain,
 * kind, bucket); for a daily window not grouped by bucket, the whole months inside it from the
 * monthly rows and only the days outside them (the first partial month, the current one); for a
 * daily series of every name, the days' totals (one row per day and source instead of some fifteen).
 */
function rowsOf(q: SumQuery): RawBuilder<unknown> {
  const start = q.window.start ?? new Date(0);
  const range = (grain: MarketRollupsTable['grain'], from: Date, to: Date, toInclusive: boolean) =>
    sql`SELECT * FROM market_rollups WHERE grain = ${grain} AND kind = ${q.kind} AND bucket >= ${from} AND bucket ${sql.raw(toInclusive ? '<=' : '<')} ${to}`;
  if (q.window.grain === 'day' && q.groupBy === 'bucket' && q.clubs.kind === 'all') return sql`(${range('day_total', start, q.window.end, true)})`;
  if (q.window.grain === 'day' && q.groupBy !== 'bucket') {
    const firstMonth = start.getTime() === MONTH_START(start).getTime() ? start : NEXT_MONTH(start);
    const lastMonth = MONTH_START(q.window.end); // the month of the window's end: partial, from its days
    if (firstMonth < lastMonth) {
      return sql`(${range('day', start, firstMonth, false)} UNION ALL ${range('month', firstMonth, lastMonth, false)} UNION ALL ${range('day', lastMonth, q.window.end, true)})`;
    }
  }
  return sql`(${range(q.window.grain, start, q.window.end, true)})`;
}

/** Sums of the rollup rows of a window, all or grouped by one dimension. */
export async function sumRollups(db: Executor, q: SumQuery): Promise<RollupSums[]> {
  const key = q.groupBy === undefined ? sql`NULL` : sql.ref(q.groupBy);
  const fields = q.fields ?? (Object.keys(SUMS) as SumField[]);
  const rows = await sql<RollupSums>`
    SELECT ${key} AS key, ${sql.join(fields.map((f) => sql`${SUMS[f]} AS ${sql.ref(f)}`))}
    FROM ${rowsOf(q)} r
    WHERE ${clubCondition(q.clubs)}
      ${q.source === undefined ? sql`` : sql`AND source = ${q.source}`}
    ${q.groupBy === undefined ? sql`` : sql`GROUP BY ${key} ORDER BY ${key}`}
  `.execute(db);
  return rows.rows.map((r) => {
    const k: unknown = r.key;
    return { ...EMPTY, ...r, key: k instanceof Date ? k.toISOString() : (k as string | number | null) };
  });
}

/** The first daily bucket of a kind (where an all-time chart starts), or undefined when there is none. */
export async function firstBucket(db: Executor, kind: RollupKind): Promise<Date | undefined> {
  const row = await db
    .selectFrom('market_rollups')
    .select('bucket')
    .where('grain', '=', 'day')
    .where('kind', '=', kind)
    .orderBy('bucket', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.bucket;
}

/** A bigint average as a decimal string; "0" for no rows. */
export function averageWei(total: string, count: number): string {
  return count === 0 ? '0' : (BigInt(total) / BigInt(count)).toString();
}
