import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import { clubCondition, type ClubFilter, type Window } from './periods.js';
import type { RollupKind } from './rollups.js';

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
}

/** One indexed range of `market_rollups` (its primary key starts with grain, kind, bucket). */
export async function sumRollups(db: Executor, q: SumQuery): Promise<RollupSums[]> {
  const key = q.groupBy === undefined ? sql`NULL` : sql.ref(q.groupBy);
  const rows = await sql<RollupSums>`
    SELECT ${key} AS key,
           coalesce(sum(count), 0)::int AS count,
           coalesce(sum(count) FILTER (WHERE source = 'grails'), 0)::int AS grails,
           coalesce(sum(count) FILTER (WHERE source = 'opensea'), 0)::int AS opensea,
           coalesce(sum(eth_count), 0)::int AS eth_count,
           coalesce(sum(volume_wei), 0)::text AS volume_wei,
           coalesce(sum(volume_wei) FILTER (WHERE source = 'grails'), 0)::text AS volume_grails_wei,
           coalesce(sum(volume_wei) FILTER (WHERE source = 'opensea'), 0)::text AS volume_opensea_wei,
           max(max_wei)::text AS max_wei,
           min(min_wei)::text AS min_wei,
           coalesce(sum(base_cost_wei), 0)::text AS base_cost_wei,
           coalesce(sum(premium_wei), 0)::text AS premium_wei,
           coalesce(sum(premium_count), 0)::int AS premium_count
    FROM market_rollups
    WHERE grain = ${q.window.grain} AND kind = ${q.kind}
      AND bucket >= ${q.window.start ?? new Date(0)} AND bucket <= ${q.window.end}
      AND ${clubCondition(q.clubs)}
      ${q.source === undefined ? sql`` : sql`AND source = ${q.source}`}
    ${q.groupBy === undefined ? sql`` : sql`GROUP BY ${key} ORDER BY ${key}`}
  `.execute(db);
  return rows.rows.map((r) => {
    const k: unknown = r.key;
    return { ...r, key: k instanceof Date ? k.toISOString() : (k as string | number | null) };
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
