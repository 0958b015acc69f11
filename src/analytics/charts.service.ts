import type { Deps } from '../deps.js';
import { answersOf } from './answers.js';
import { DAY, HOUR } from '../lib/time.js';
import { chartWindowOf, echoClubFilter, parseClubFilter, type ChartPeriod } from './periods.js';
import type { RollupKind } from './rollups.js';
import { averageWei, firstBucket, sumRollups, type RollupSums, type SumQuery } from './rollups.repository.js';

export type ChartKind = 'sales' | 'volume' | 'listings' | 'offers' | 'registrations';


const ROLLUP_OF: Record<ChartKind, RollupKind> = {
  sales: 'sale',
  volume: 'sale',
  listings: 'listing',
  offers: 'offer',
  registrations: 'registration',
};

export interface CountPoint { date: string; total: number; grails: number; opensea: number }
export interface VolumePoint { date: string; total: string; grails: string; opensea: string }
export interface RegistrationPoint {
  date: string;
  count: number;
  total_cost_wei: string;
  avg_cost_wei: string;
  total_base_cost_wei: string;
  total_premium_wei: string;
  premium_count: number;
}

export interface Chart<P> {
  period: ChartPeriod;
  club: string | null;
  clubs: string[] | null;
  points: P[];
}

/**
 * Time series from `market_rollups`: hourly buckets for 1d, daily for longer periods, every bucket
 * present (zero-filled). A chart reads one index range of the rollup table, never the raw rows.
 */
export class ChartsService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  counts(kind: 'sales' | 'listings' | 'offers', period: ChartPeriod, club: string | undefined): Promise<Chart<CountPoint>> {
    return this.chart(ROLLUP_OF[kind], period, club, ['count', 'grails', 'opensea'], (date, s) => ({ date, total: s?.count ?? 0, grails: s?.grails ?? 0, opensea: s?.opensea ?? 0 }));
  }

  volume(period: ChartPeriod, club: string | undefined): Promise<Chart<VolumePoint>> {
    return this.chart('sale', period, club, ['volume_wei', 'volume_grails_wei', 'volume_opensea_wei'], (date, s) => ({ date, total: s?.volume_wei ?? '0', grails: s?.volume_grails_wei ?? '0', opensea: s?.volume_opensea_wei ?? '0' }), 'volume');
  }

  registrations(period: ChartPeriod, club: string | undefined): Promise<Chart<RegistrationPoint>> {
    return this.chart('registration', period, club, ['count', 'volume_wei', 'base_cost_wei', 'premium_wei', 'premium_count'], (date, s) => ({
      date,
      count: s?.count ?? 0,
      total_cost_wei: s?.volume_wei ?? '0',
      avg_cost_wei: averageWei(s?.volume_wei ?? '0', s?.count ?? 0),
      total_base_cost_wei: s?.base_cost_wei ?? '0',
      total_premium_wei: s?.premium_wei ?? '0',
      premium_count: s?.premium_count ?? 0,
    }));
  }

  /** `fields`: the sums the points use (each chart reads only its own). */
  private async chart<P>(kind: RollupKind, period: ChartPeriod, club: string | undefined, fields: SumQuery['fields'], point: (date: string, s: RollupSums | undefined) => P, variant = ''): Promise<Chart<P>> {
    const filter = parseClubFilter([club], 'query.club');
    const window = chartWindowOf(period);
    const key = `charts:${kind}${variant}:${period}:${window.end.toISOString()}:${JSON.stringify(filter)}`;
    // kept until the rollups change (answers.ts)
    return answersOf(this.deps.db).get(key, async () => {
      const start = window.start ?? (await firstBucket(this.deps.db, kind)) ?? window.end;
      const sums = await sumRollups(this.deps.db, { kind, window: { ...window, start }, clubs: filter, groupBy: 'bucket', fields });
      const byBucket = new Map(sums.map((s) => [s.key as string, s]));
      const step = window.grain === 'hour' ? HOUR : DAY;
      const points: P[] = [];
      for (let t = start.getTime(); t <= window.end.getTime(); t += step) {
        const date = new Date(t).toISOString();
        points.push(point(date, byBucket.get(date)));
      }
      return { period, ...echoClubFilter(filter), points };
    });
  }
}
