import { sql } from 'kysely';
import type { Db, Executor } from '../db/client.js';
import { HOUR } from '../lib/time.js';
import { bumpGeneration, generationChanged } from './answers.js';
import { ANALYTICS_PERIODS, windowOf, type AnalyticsPeriod } from './periods.js';

/**
 * Figures that do not add up across rollup buckets (distinct buyers, medians) and the current
 * market counts, one row per period in `analytics_snapshots`, recomputed by the
 * `analytics.snapshots` job: the short periods every run, `1y` and `all` at most hourly.
 */
export interface PeriodFigures {
  unique_names_sold: number;
  unique_buyers: number;
  unique_sellers: number;
  unique_registrants: number;
  /** median registration cost per label length, wei */
  median_cost_by_length: Record<string, string>;
}

export interface CurrentFigures {
  total_names: number;
  active_listings: number;
  active_offers: number;
  /** users watching at least one name (a list's item_count is kept by the watchlist writes) */
  total_watchers: number;
}

const EMPTY_PERIOD: PeriodFigures = { unique_names_sold: 0, unique_buyers: 0, unique_sellers: 0, unique_registrants: 0, median_cost_by_length: {} };
const EMPTY_CURRENT: CurrentFigures = { total_names: 0, active_listings: 0, active_offers: 0, total_watchers: 0 };
const SLOW_PERIODS: ReadonlySet<AnalyticsPeriod> = new Set(['1y', 'all']);

async function periodFigures(db: Executor, period: AnalyticsPeriod, now: Date): Promise<PeriodFigures> {
  const start = windowOf(period, now).start ?? new Date(0);
  const sales = await sql<{ names: number; buyers: number; sellers: number }>`
    SELECT count(DISTINCT ens_name_id)::int AS names, count(DISTINCT buyer_address)::int AS buyers, count(DISTINCT seller_address)::int AS sellers
    FROM sales WHERE sold_at >= ${start}
  `.execute(db);
  const registrants = await sql<{ n: number }>`
    SELECT count(DISTINCT actor_address)::int AS n FROM registrations WHERE kind = 'registration' AND block_time >= ${start}
  `.execute(db);
  const medians = await sql<{ len: number; median: string }>`
    SELECT least(n.label_length, 255) AS len, percentile_disc(0.5) WITHIN GROUP (ORDER BY r.cost_wei)::text AS median
    FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id
    WHERE r.kind = 'registration' AND r.block_time >= ${start}
    GROUP BY 1
  `.execute(db);
  const s = sales.rows[0];
  return {
    unique_names_sold: s.names,
    unique_buyers: s.buyers,
    unique_sellers: s.sellers,
    unique_registrants: registrants.rows[0].n,
    median_cost_by_length: Object.fromEntries(medians.rows.map((m) => [String(m.len), m.median])),
  };
}

async function currentFigures(db: Executor): Promise<CurrentFigures> {
  const row = await sql<CurrentFigures>`
    SELECT (SELECT count(*) FROM ens_names)::int AS total_names,
           (SELECT count(*) FROM listings WHERE status = 'active' AND (expires_at IS NULL OR expires_at > now()))::int AS active_listings,
           (SELECT count(*) FROM offers WHERE status = 'pending' AND (expires_at IS NULL OR expires_at > now()))::int AS active_offers,
           (SELECT count(DISTINCT user_id) FROM watchlists WHERE item_count > 0)::int AS total_watchers
  `.execute(db);
  return row.rows[0];
}

async function store(db: Executor, period: string, figures: object): Promise<void> {
  await db
    .insertInto('analytics_snapshots')
    .values({ period, figures: JSON.stringify(figures), computed_at: new Date() })
    .onConflict((oc) => oc.column('period').doUpdateSet({ figures: (eb) => eb.ref('excluded.figures'), computed_at: (eb) => eb.ref('excluded.computed_at') }))
    .execute();
}

/** Recomputes the snapshots that are due (all of them with `force`); returns the periods written. */
export async function refreshSnapshots(db: Db, options: { force?: boolean; now?: Date } = {}): Promise<string[]> {
  const now = options.now ?? new Date();
  const ages = new Map((await db.selectFrom('analytics_snapshots').select(['period', 'computed_at']).execute()).map((r) => [r.period, r.computed_at.getTime()]));
  const written: string[] = [];
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = '10min'`.execute(trx);
    await sql`SET LOCAL jit = off`.execute(trx);
    await store(trx, 'now', await currentFigures(trx));
    written.push('now');
    for (const period of ANALYTICS_PERIODS) {
      const age = now.getTime() - (ages.get(period) ?? 0);
      if (options.force !== true && SLOW_PERIODS.has(period) && age < HOUR) continue;
      await store(trx, period, await periodFigures(trx, period, now));
      written.push(period);
    }
    await bumpGeneration(trx);
  });
  generationChanged(db);
  return written;
}

export async function readPeriodFigures(db: Executor, period: AnalyticsPeriod): Promise<PeriodFigures> {
  const row = await db.selectFrom('analytics_snapshots').select('figures').where('period', '=', period).executeTakeFirst();
  return (row?.figures as unknown as PeriodFigures | undefined) ?? EMPTY_PERIOD;
}

export async function readCurrentFigures(db: Executor): Promise<CurrentFigures> {
  const row = await db.selectFrom('analytics_snapshots').select('figures').where('period', '=', 'now').executeTakeFirst();
  // a snapshot written before a figure existed lacks it until the next run
  return { ...EMPTY_CURRENT, ...(row?.figures as unknown as Partial<CurrentFigures> | undefined) };
}
