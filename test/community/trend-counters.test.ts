import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { createName } from '../helpers/factories.js';
import { addressOf } from '../helpers/accounts.js';
import { VoteService, type VoteValue } from '../../src/services/votes.service.js';
import { hourOf, rebuildTrends, rollTrendWindows, TREND_PERIOD_HOURS } from '../../src/trends/index.js';
import { ROLL_WAIT_MS } from '../../src/trends/trend-counters.js';
import { DAY, HOUR, MINUTE } from '../../src/lib/time.js';

interface Figure { id: number; up: number; down: number }

const rank = (a: Figure, b: Figure) => b.up + b.down - (a.up + a.down) || b.up - a.up || a.id - b.id;

describe('trend counters', () => {
  let t: TestContext;
  let votes: VoteService;
  const names: { id: number; name: string }[] = [];
  const users: number[] = [];

  /** The definition, straight from the casts: each user's latest cast on a name since `start` counts once. */
  async function fromCasts(start: Date): Promise<Figure[]> {
    const { rows } = await sql<Figure>`
      SELECT ens_name_id AS id, count(*) FILTER (WHERE vote = 1)::int AS up, count(*) FILTER (WHERE vote = -1)::int AS down
      FROM (
        SELECT DISTINCT ON (ens_name_id, user_id) ens_name_id, vote FROM vote_events
        WHERE cast_at >= ${start} ORDER BY ens_name_id, user_id, cast_at DESC, id DESC
      ) latest
      GROUP BY 1 HAVING count(*) FILTER (WHERE vote <> 0) > 0`.execute(t.container.db);
    return rows.sort(rank);
  }

  async function fromCounters(periodHours: number): Promise<Figure[]> {
    const rows = await t.container.db.selectFrom('trend_totals').select(['ens_name_id', 'total', 'positive'])
      .where('metric', '=', 'votes').where('period_hours', '=', periodHours).where('total', '>', 0).execute();
    return rows.map((r) => ({ id: r.ens_name_id, up: r.positive, down: r.total - r.positive })).sort(rank);
  }

  async function assertCountersMatch(now: Date, context: unknown): Promise<void> {
    for (const p of TREND_PERIOD_HOURS) {
      const start = new Date(hourOf(now).getTime() - p * HOUR);
      assert.deepEqual(await fromCounters(p), await fromCasts(start), `${p} h at ${now.toISOString()} after ${JSON.stringify(context)}`);
    }
  }

  before(async () => {
    t = await createTestApp();
    votes = new VoteService(t.container);
    for (const n of ['alpha.eth', 'bravo.eth', 'charlie.eth', 'delta.eth']) names.push({ id: (await createName(t.container.db, n)).id, name: n });
    for (let i = 0; i < 4; i++) {
      const u = await t.container.db.insertInto('users').values({ address: addressOf(i).toLowerCase() }).returning('id').executeTakeFirstOrThrow();
      users.push(u.id);
    }
  });
  after(async () => { await t?.close(); });

  it('equal a direct aggregate of the casts after any sequence of votes, changes and removals over ten days', async () => {
    const op = fc.record({
      user: fc.integer({ min: 0, max: users.length - 1 }),
      name: fc.integer({ min: 0, max: names.length - 1 }),
      vote: fc.constantFrom<VoteValue>(1, -1, 0),
      // mostly close together (changes within an hour), sometimes a day or more apart
      minutesLater: fc.oneof(fc.integer({ min: 0, max: 90 }), fc.integer({ min: 0, max: 3 * 24 * 60 })),
    });
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
      const { db } = t.container;
      await sql`TRUNCATE votes, vote_events, trend_buckets, trend_totals`.execute(db);
      await db.updateTable('ens_names').set({ upvotes: 0, downvotes: 0 }).execute();
      const end = Date.now();
      let at = end - 10 * DAY;
      await rebuildTrends(db, new Date(at));
      for (const o of ops) {
        at = Math.min(end, at + o.minutesLater * MINUTE);
        // the hourly roll, as the job or a trending read would do it at that time
        await rollTrendWindows(db, new Date(at));
        await votes.cast(users[o.user], names[o.name].name, o.vote, new Date(at));
        await assertCountersMatch(new Date(at), ops);
      }
      await rollTrendWindows(db, new Date(end));
      await assertCountersMatch(new Date(end), ops);

      // and what a user sees is that ranking
      for (const [period, hours] of [['24h', 24], ['7d', 168]] as const) {
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/trending/votes?period=${period}&limit=100` });
        assert.equal(res.statusCode, 200, show(res));
        const seen = body(res).data.names.map((n: any) => ({ id: n.id, up: n.trending_metrics.period_upvotes, down: n.trending_metrics.period_downvotes }));
        assert.deepEqual(seen, await fromCasts(new Date(hourOf(new Date(end)).getTime() - hours * HOUR)), `${period} after ${JSON.stringify(ops)}`);
      }
    }), { numRuns: 15 });
  });

  it('a roll drops the hours that left a period and the buckets older than every period', async () => {
    const { db } = t.container;
    await sql`TRUNCATE votes, vote_events, trend_buckets, trend_totals`.execute(db);
    const start = Date.now() - 9 * DAY;
    await rebuildTrends(db, new Date(start));
    await votes.cast(users[0], names[0].name, 1, new Date(start));
    await votes.cast(users[1], names[0].name, -1, new Date(start + 2 * DAY));
    assert.deepEqual(await fromCounters(168), [{ id: names[0].id, up: 1, down: 1 }]);
    assert.deepEqual(await fromCounters(24), [{ id: names[0].id, up: 1, down: 1 }], 'not rolled yet: the periods as of the first cast');
    assert.equal(await rollTrendWindows(db, new Date(start + 2 * DAY)), true);
    assert.equal(await rollTrendWindows(db, new Date(start + 2 * DAY)), false, 'nothing due twice in one hour');
    assert.deepEqual(await fromCounters(24), [{ id: names[0].id, up: 0, down: 1 }]);
    await rollTrendWindows(db, new Date(start + 8 * DAY));
    assert.deepEqual(await fromCounters(168), [{ id: names[0].id, up: 0, down: 1 }]);
    assert.deepEqual(await fromCounters(24), []);
    const oldest = await db.selectFrom('trend_buckets').select((eb) => eb.fn.min('hour').as('hour')).executeTakeFirstOrThrow();
    assert.ok(oldest.hour === null || new Date(oldest.hour).getTime() >= start + DAY, 'the first cast\'s bucket is gone');
  });

  it('a ranking read does not wait for a roll held up by a writer: it answers from the totals as they are, and the roll lands after', async () => {
    const { db } = t.container;
    await sql`TRUNCATE votes, vote_events, trend_buckets, trend_totals`.execute(db);
    const then = new Date(Date.now() - 30 * HOUR);
    await rebuildTrends(db, then); // the periods as of 30 hours ago: the next read of this hour rolls them
    await votes.cast(users[0], names[1].name, 1, then);
    const ranked = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/trending/votes?period=24h' });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.names.map((n: { name: string }) => n.name);
    };
    // A writer's transaction holds the trend lock (shared) the roll must take exclusively.
    const writer = new pg.Client({ connectionString: t.databaseUrl });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query("SELECT pg_advisory_xact_lock_shared(hashtext('trend_windows'))");
      const started = performance.now();
      assert.deepEqual(await ranked(), [names[1].name], 'the cast of 30 hours ago still counts while the roll waits');
      assert.ok(performance.now() - started >= ROLL_WAIT_MS - 5, 'the read gave the roll its time first');
      assert.deepEqual(await ranked(), [names[1].name], 'later reads of the hour start no other roll and do not fail');
    } finally {
      await writer.query('COMMIT');
      await writer.end();
    }
    const deadline = Date.now() + 30_000;
    while ((await fromCounters(24)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await ranked(), [], 'rolled once the writer was done: 30 hours ago is out of the last 24');
    assert.deepEqual(await fromCounters(168), [{ id: names[1].id, up: 1, down: 0 }]);
  });
});
