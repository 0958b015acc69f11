import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { createName } from '../helpers/factories.js';
import { rebuildViewerCounts, VIEWER_DAYS_KEPT, ViewCounter } from '../../src/history/views.js';
import { DAY } from '../../src/lib/time.js';

/**
 * The distinct viewers of a name since a day (the views trending page's `unique_viewers`) come from
 * counters the view flush keeps; they must equal a distinct count of the stored viewer-days, for
 * every day the counters keep, after any sequence of views and flushes, and after a rebuild.
 */
describe('distinct viewers since a day', () => {
  let t: TestContext;
  const names: number[] = [];
  const day = (offset: number) => new Date(Date.now() - offset * DAY).toISOString().slice(0, 10);

  /** name id → distinct viewers since `since`, straight from the stored views. */
  async function direct(since: string): Promise<Record<number, number>> {
    const { rows } = await sql<{ id: number; n: number }>`
      SELECT ens_name_id AS id, count(DISTINCT viewer)::int AS n FROM name_views_daily WHERE day >= ${since}::date GROUP BY 1`.execute(t.container.db);
    return Object.fromEntries(rows.map((r) => [r.id, r.n]));
  }

  async function counted(since: string): Promise<Record<number, number>> {
    const { rows } = await sql<{ id: number; n: number }>`
      SELECT ens_name_id AS id, sum(viewers)::int AS n FROM name_viewers_by_day WHERE day >= ${since}::date GROUP BY 1 HAVING sum(viewers) > 0`.execute(t.container.db);
    return Object.fromEntries(rows.map((r) => [r.id, r.n]));
  }

  async function assertMatch(context: unknown): Promise<void> {
    for (let back = 0; back <= VIEWER_DAYS_KEPT; back++) {
      assert.deepEqual(await counted(day(back)), await direct(day(back)), `since ${day(back)} after ${JSON.stringify(context)}`);
    }
  }

  before(async () => {
    t = await createTestApp();
    for (const n of ['seen.eth', 'watched.eth', 'viewed.eth']) names.push((await createName(t.container.db, n)).id);
  });
  after(async () => { await t?.close(); });

  it('equal a distinct count of the stored views after any sequence of views and flushes, and after a rebuild', async () => {
    const view = fc.record({
      name: fc.integer({ min: 0, max: names.length - 1 }),
      viewer: fc.constantFrom('u:1', 'u:2', 'ip:a', 'ip:b', 'ip:c'),
      // days back: mostly within the kept days, sometimes before them
      back: fc.oneof(fc.integer({ min: 0, max: VIEWER_DAYS_KEPT }), fc.integer({ min: VIEWER_DAYS_KEPT + 1, max: 14 })),
      flush: fc.boolean(),
    });
    await fc.assert(fc.asyncProperty(fc.array(view, { minLength: 1, maxLength: 25 }), async (views) => {
      const { db } = t.container;
      await sql`TRUNCATE name_views_daily, name_view_counts, name_viewer_latest, name_viewers_by_day, trend_buckets`.execute(db);
      const counter = new ViewCounter(db);
      for (const v of views) {
        counter.count(names[v.name], v.viewer, new Date(Date.now() - v.back * DAY));
        if (v.flush) {
          await counter.flush();
          await assertMatch(views);
        }
      }
      await counter.close();
      await assertMatch(views);
      const kept = await sql`SELECT * FROM name_viewers_by_day WHERE viewers > 0 ORDER BY 1, 2`.execute(db);
      await rebuildViewerCounts(db);
      await assertMatch(views);
      assert.deepEqual((await sql`SELECT * FROM name_viewers_by_day WHERE viewers > 0 ORDER BY 1, 2`.execute(db)).rows, kept.rows, 'a rebuild gives the counters the flushes kept');
    }), { numRuns: 25 });
  });

  it('the views trending page shows them', async () => {
    const { db } = t.container;
    await sql`TRUNCATE name_views_daily, name_view_counts, name_viewer_latest, name_viewers_by_day, trend_buckets, trend_totals`.execute(db);
    const counter = new ViewCounter(db);
    // two viewers this week, one of them also yesterday and today; one viewer nine days ago only
    counter.count(names[0], 'u:1', new Date(Date.now() - 3 * DAY));
    counter.count(names[0], 'u:1', new Date(Date.now() - DAY));
    counter.count(names[0], 'u:1', new Date());
    counter.count(names[0], 'ip:a', new Date(Date.now() - 2 * DAY));
    counter.count(names[0], 'ip:b', new Date(Date.now() - 9 * DAY));
    await counter.close();
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/trending/views?period=7d' });
    assert.equal(res.statusCode, 200, show(res));
    const top = body(res).data.names.find((n: { id: number }) => n.id === names[0]);
    assert.ok(top, show(res));
    assert.equal(top.trending_metrics.unique_viewers, 2);
  });
});
