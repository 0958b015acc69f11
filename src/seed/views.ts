import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { DAY, HOUR } from '../lib/time.js';
import type { CopyWriter } from './copy.js';
import type { Category } from './labels.js';
import type { DemoName } from './model.js';
import type { Rng } from './random.js';
import { iso } from './iso.js';

/** Name page views cover the last eight weeks (recommendations read the last 30 days). */
export const VIEW_DAYS = 56;
/** Viewer-days: a base for small sets plus this many per name (1.5 million at a million names). */
const VIEWS_BASE = 20_000;
const VIEWS_PER_NAME = 1.5;

/** Viewers follow kinds of names (numbers, letters, emoji, words), so their views overlap ("also viewed"). */
const INTEREST: Record<Category, number> = { d3: 0, d4: 0, d5: 0, l3: 1, emoji: 2, word: 3, compound: 3, wordnum: 3 };
const INTERESTS = { 0: 35, 1: 15, 2: 10, 3: 40 } as const;

export interface ViewWriters {
  /** name_views_daily: ens_name_id, day, viewer, seen_at */
  views: CopyWriter;
  /** name_view_counts: ens_name_id, views */
  counts: CopyWriter;
}

interface View { day: number; viewer: string; at: number }

/** A count with the given mean: Poisson for small means, its normal approximation for large ones. */
function countOf(rng: Rng, mean: number): number {
  if (mean > 30) {
    const g = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * g));
  }
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = rng.next(); p > limit; p *= rng.next()) k++;
  return k;
}

/**
 * Name page views as the view counter stores them: one row per name, viewer and UTC day over the
 * last eight weeks, with the time of the day's first view, growing towards today. Names draw
 * views by their value, a random buzz and a recent sale, so that most views go to a small share of
 * the names; viewers are signed-in users (`u:<id>`) and hashed client addresses (`ip:<hash>`),
 * each following one kind of names, a few of them viewing far more than the rest. The demo
 * accounts view a few dozen names each. Rows are written name by name in key order (day, viewer),
 * with each name's total beside them.
 */
export class ViewGenerator {
  private readonly today: number;
  private readonly dayWeights: number[];
  private readonly dayTotal: number;
  private readonly pools: string[][] = [[], [], [], []];
  private readonly heat: Float64Array;
  private readonly scale: number;
  /** the demo accounts' views, by name index, kept until the name's turn */
  private readonly demoViews = new Map<number, View[]>();

  constructor(private readonly rng: Rng, private readonly now: number, private readonly names: readonly DemoName[], userCount: number, demoCount: number,
    private readonly w: ViewWriters) {
    this.today = Math.floor(now / DAY) * DAY;
    // Later days weigh more; today only for the part of it that has passed.
    this.dayWeights = Array.from({ length: VIEW_DAYS }, (_, d) => (0.6 + 0.8 * (d / VIEW_DAYS)) * (d === VIEW_DAYS - 1 ? (now - this.today) / DAY : 1));
    this.dayTotal = this.dayWeights.reduce((a, b) => a + b, 0);

    const anonymous = Math.max(500, Math.round(names.length / 8));
    for (let i = 0; i < userCount + anonymous; i++) {
      // a client address is stored hashed (32 hex digits): here simply drawn
      const viewer = i < userCount ? `u:${i + 1}` : `ip:${rng.hex(16)}`;
      this.pools[Number(rng.weighted(INTERESTS))].push(viewer);
    }
    // Who views the most is random (not the first users).
    for (const pool of this.pools) rng.shuffle(pool);

    const recentSale = now - 60 * DAY;
    this.heat = new Float64Array(names.length);
    let total = 0;
    names.forEach((n, i) => {
      const alive = n.status === 'available' ? 0.3 : 1;
      this.heat[i] = Math.max(n.value, 0.001) * rng.logNormal(1.4) * alive * ((n.sales.at(-1)?.at ?? 0) > recentSale ? 3 : 1);
      total += this.heat[i];
    });
    this.scale = (VIEWS_BASE + VIEWS_PER_NAME * names.length) / total;

    const cumulative = new Float64Array(names.length);
    this.heat.reduce((sum, h, i) => (cumulative[i] = sum + h), 0);
    for (let user = 1; user <= demoCount; user++) {
      for (let k = rng.int(20, 40); k > 0; k--) {
        const target = rng.next() * total;
        let lo = 0;
        let hi = names.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (cumulative[mid] < target) lo = mid + 1;
          else hi = mid;
        }
        this.demoViews.set(lo, [...(this.demoViews.get(lo) ?? []), this.draw(`u:${user}`)]);
      }
    }
  }

  private draw(viewer: string): View {
    let u = this.rng.next() * this.dayTotal;
    let d = 0;
    while (d < VIEW_DAYS - 1 && u >= this.dayWeights[d]) u -= this.dayWeights[d++];
    const day = this.today - (VIEW_DAYS - 1 - d) * DAY;
    // the first view of the day: busier in the (UTC) afternoon and evening; today's before now
    const at = day + Math.floor(Math.min(DAY, this.now - day) * Math.sqrt(this.rng.next()));
    return { day, viewer, at };
  }

  private someone(interest: number): string {
    const pool = this.pools[this.rng.chance(0.8) ? interest : this.rng.int(0, this.pools.length - 1)];
    return pool[Math.floor(pool.length * this.rng.next() ** 1.8)];
  }

  /** Writes the views of the name with index `i` in the population. */
  async name(i: number): Promise<void> {
    const n = this.names[i];
    const views = new Map<string, View>();
    for (const v of this.demoViews.get(i) ?? []) views.set(`${v.day}|${v.viewer}`, v);
    for (let k = countOf(this.rng, this.heat[i] * this.scale); k > 0; k--) {
      const v = this.draw(this.someone(INTEREST[n.category]));
      const key = `${v.day}|${v.viewer}`;
      if (!views.has(key)) views.set(key, v);
    }
    if (views.size === 0) return;
    const rows = [...views.values()].sort((a, b) => a.day - b.day || (a.viewer < b.viewer ? -1 : a.viewer > b.viewer ? 1 : 0));
    for (const v of rows) await this.w.views.add([n.id, iso(v.day).slice(0, 10), v.viewer, iso(v.at)]);
    await this.w.counts.add([n.id, rows.length]);
  }
}

/**
 * The `views` trend counters of the seeded views, each in the hour of its first view (the view
 * counter bumps the hour it flushes in, seconds later). The trend rebuild keeps these buckets, sums
 * them into the periods' totals and adds them to the composite score.
 */
export async function bucketViews(db: Db, now: number): Promise<void> {
  await sql`
    INSERT INTO trend_buckets (hour, metric, ens_name_id, total, positive)
    SELECT date_trunc('hour', seen_at, 'UTC'), 'views', ens_name_id, count(*), 0 FROM name_views_daily
    WHERE seen_at >= ${new Date(Math.floor(now / HOUR) * HOUR - 168 * HOUR)}
    GROUP BY 1, 3 ORDER BY 1, 3`.execute(db);
}
