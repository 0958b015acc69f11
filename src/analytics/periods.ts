import { sql, type RawBuilder } from 'kysely';
import { AppError } from '../errors.js';
import { isClubName } from '../lib/clubs.js';
import { DAY, HOUR } from '../lib/time.js';
import type { Grain } from './rollups.js';

/**
 * Periods and the buckets they cover. A period is the last N buckets up to and including the
 * current one (hourly for 1d/24h and 7d, daily beyond), so a feed filtered by a period and the
 * rollup sums of the same period count exactly the same rows.
 */
export const ANALYTICS_PERIODS = ['24h', '7d', '30d', '90d', '1y', 'all'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const CHART_PERIODS = ['1d', '7d', '30d', '1y', 'all'] as const;
export type ChartPeriod = (typeof CHART_PERIODS)[number];

export interface Window {
  grain: Grain;
  /** first bucket of the period; null for all time */
  start: Date | null;
  /** the current bucket */
  end: Date;
}

const SPAN: Record<Exclude<AnalyticsPeriod | ChartPeriod, 'all'>, { grain: Grain; buckets: number }> = {
  '1d': { grain: 'hour', buckets: 24 },
  '24h': { grain: 'hour', buckets: 24 },
  '7d': { grain: 'hour', buckets: 7 * 24 },
  '30d': { grain: 'day', buckets: 30 },
  '90d': { grain: 'day', buckets: 90 },
  '1y': { grain: 'day', buckets: 365 },
};

export function truncate(date: Date, grain: Grain): Date {
  const step = grain === 'hour' ? HOUR : DAY;
  return new Date(Math.floor(date.getTime() / step) * step);
}

export function windowOf(period: AnalyticsPeriod | ChartPeriod, now: Date = new Date()): Window {
  if (period === 'all') return { grain: 'day', start: null, end: truncate(now, 'day') };
  const { grain, buckets } = SPAN[period];
  const end = truncate(now, grain);
  return { grain, start: new Date(end.getTime() - (buckets - 1) * (grain === 'hour' ? HOUR : DAY)), end };
}

/** Charts bucket 7d by day (the reference's buckets); analytics sums use the finer hourly rows. */
export function chartWindowOf(period: ChartPeriod, now: Date = new Date()): Window {
  if (period === '7d') {
    const end = truncate(now, 'day');
    return { grain: 'day', start: new Date(end.getTime() - 6 * DAY), end };
  }
  return windowOf(period, now);
}

/** A filter by the clubs of the name: none, names in any club, names in no club, or in one of a list. */
export type ClubFilter = { kind: 'all' } | { kind: 'any' } | { kind: 'none' } | { kind: 'list'; clubs: string[] };

export const MAX_CLUBS = 20;

/** `club=999,10k` or `clubs[]=999&clubs[]=10k` (values may be comma-separated), or `any`/`none`. */
export function parseClubFilter(values: readonly (string | undefined)[], field: string): ClubFilter {
  const clubs = [...new Set(values.flatMap((v) => (v ?? '').split(',')).map((v) => v.trim()).filter((v) => v !== ''))].sort();
  if (clubs.length === 0) return { kind: 'all' };
  if (clubs.length === 1 && (clubs[0] === 'any' || clubs[0] === 'none')) return { kind: clubs[0] };
  const bad = clubs.find((c) => !isClubName(c) || c === 'any' || c === 'none');
  if (bad !== undefined) throw new AppError('VALIDATION_ERROR', `"${bad}" is not a club identifier (any and none stand alone)`, { field });
  if (clubs.length > MAX_CLUBS) throw new AppError('VALIDATION_ERROR', `at most ${MAX_CLUBS} clubs`, { field });
  return { kind: 'list', clubs };
}

/** The SQL condition of a club filter on a `clubs` column (of a rollup row or a name). */
export function clubCondition(filter: ClubFilter, column: RawBuilder<unknown> = sql`clubs`): RawBuilder<boolean> {
  switch (filter.kind) {
    case 'all':
      return sql<boolean>`true`;
    case 'any':
      return sql<boolean>`${column} <> '{}'`;
    case 'none':
      return sql<boolean>`${column} = '{}'`;
    case 'list':
      return sql<boolean>`${column} && ${filter.clubs}::text[]`;
  }
}

/** How the response names the filter: the `club` text and `clubs` list the reference echoes. */
export function echoClubFilter(filter: ClubFilter): { club: string | null; clubs: string[] | null } {
  switch (filter.kind) {
    case 'all':
      return { club: null, clubs: null };
    case 'any':
    case 'none':
      return { club: filter.kind, clubs: [filter.kind] };
    case 'list':
      return { club: filter.clubs.join(','), clubs: filter.clubs };
  }
}
