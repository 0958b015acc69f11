import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { recordActivity, type ActivityInput } from '../../src/history/index.js';
import { setClubs } from '../../src/db/repositories/ens-names.repository.js';
import { importClub, syncClubsForNames } from '../../src/services/clubs.service.js';

const A1 = addressOf(1).toLowerCase();

/** What club_activity must hold: each event of a name in clubs, under each of its clubs and under '*'. */
const DEFINITION = sql<{ club: string; event_id: number; event_type: string; platform: string }>`
  SELECT DISTINCT c.club, e.id AS event_id, e.event_type, e.platform FROM ens_names n
  CROSS JOIN LATERAL unnest(n.clubs || '{*}'::text[]) c(club)
  JOIN activity_events e ON e.ens_name_id = n.id
  WHERE n.clubs <> '{}'`;

describe('club activity', () => {
  let t: TestContext;
  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}` });
  const idsOf = (res: Awaited<ReturnType<typeof get>>) => (body(res).data.results as { id: number }[]).map((r) => r.id);
  const event = (ensNameId: number, type: ActivityInput['type'], platform: ActivityInput['platform'] = 'grails'): ActivityInput => ({ type, ensNameId, actor: A1, platform });
  async function log(e: ActivityInput): Promise<number> {
    await recordActivity(t.container.db, e);
    return (await t.container.db.selectFrom('activity_events').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
  }
  /** The differences between club_activity and its definition, both ways (none when kept). */
  async function drift(): Promise<unknown[]> {
    const { rows } = await sql`
      WITH want AS (${DEFINITION}), have AS (SELECT club, event_id, event_type, platform FROM club_activity)
      (SELECT 'missing' AS side, * FROM want EXCEPT SELECT 'missing', * FROM have)
      UNION ALL (SELECT 'extra', * FROM have EXCEPT SELECT 'extra', * FROM want)`.execute(t.container.db);
    return rows;
  }

  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('a name\'s past events follow it into a club and out of it, in every filter and in the totals', async () => {
    const db = t.container.db;
    const n123 = await createName(db, '123.eth', { clubs: ['999'] });
    const fox = await createName(db, 'foxhound.eth');
    const reg = await log(event(n123.id, 'registration', 'ens'));
    const listed = await log(event(fox.id, 'listed'));
    const sale = await log(event(fox.id, 'sale', 'seaport'));
    const vote = await log(event(n123.id, 'vote'));
    assert.deepEqual(idsOf(await get('/activity?club=999')), [vote, reg]);
    assert.deepEqual(idsOf(await get('/activity?club=hounds')), []);

    // a CSV club takes the name in: its earlier events are the club's from then on
    const imported = await importClub(db, 'hounds', ['foxhound']);
    assert.equal(imported.namesUpdated, 1, JSON.stringify(imported));
    const later = await log(event(fox.id, 'offer_made'));
    let res = await get('/activity?club=hounds');
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(idsOf(res), [later, sale, listed]);
    assert.equal(body(res).data.pagination.total, 3);
    assert.deepEqual(idsOf(await get('/activity?club=any')), [later, vote, sale, listed, reg]);
    assert.deepEqual(idsOf(await get('/activity?club=any&event_type=sale,registration')), [sale, reg]);
    assert.deepEqual(idsOf(await get('/activity?club=any&platform=seaport')), [sale]);
    assert.deepEqual(idsOf(await get('/activity?club=hounds&platform=grails&event_type=listed,offer_made')), [later, listed]);
    // beside an address or a name, each of their events is checked against the club
    assert.deepEqual(idsOf(await get(`/activity?club=hounds&address=${A1}`)), [later, sale, listed]);
    assert.deepEqual(idsOf(await get(`/activity?club=999&address=${A1}`)), [vote, reg]);
    assert.deepEqual(idsOf(await get('/activity?club=any&name=foxhound.eth&event_type=sale')), [sale]);
    assert.deepEqual(idsOf(await get('/activity?club=999&name=foxhound.eth')), []);
    res = await get('/activity?club=any&limit=2&page=2');
    assert.deepEqual(idsOf(res), [sale, listed]);
    assert.deepEqual(body(res).data.pagination, { page: 2, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: true });

    // and leaves with it: out of its only club, out of "any" too
    await importClub(db, 'hounds', []);
    assert.deepEqual(idsOf(await get('/activity?club=hounds')), []);
    assert.deepEqual(idsOf(await get('/activity?club=any')), [vote, reg]);
    assert.deepEqual(await drift(), []);
  });

  it('an event logged while the clubs writer changes its name\'s clubs is filed under the clubs that win, either way round, without deadlock', async () => {
    const { db, pool } = t.container;
    const name = await createName(db, 'racer.eth');
    await sql`INSERT INTO clubs (name, source) VALUES ('fast', 'csv'), ('slow', 'csv')`.execute(db);
    const logger = await pool.connect();
    const logEvent = () => logger.query(`INSERT INTO activity_events (event_type, ens_name_id, platform) VALUES ('listed', $1, 'grails')`, [name.id]);
    /** The clubs writer (syncClubsForNames, in a transaction of its own) puts the name in `club`, then waits for `gate` to commit. */
    const changeClubs = (club: string, gate: Promise<void> = Promise.resolve()) => db.transaction().execute(async (trx) => {
      await sql`DELETE FROM club_members WHERE label = 'racer'`.execute(trx);
      await sql`INSERT INTO club_members (club, label) VALUES (${club}, 'racer')`.execute(trx);
      await syncClubsForNames(trx, [name.id]);
      await gate;
    });
    const pending = (p: Promise<unknown>) => Promise.race([p.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 300))]);
    try {
      // the event first: the clubs change waits for it, even while its transaction goes on to update the name (as an order's summaries do)
      await logger.query('BEGIN');
      await logEvent();
      const changed = changeClubs('fast');
      assert.equal(await pending(changed), true, 'the clubs change waits for the open event');
      await logger.query(`UPDATE ens_names SET updated_at = now() WHERE id = $1`, [name.id]);
      await logger.query('COMMIT');
      await changed;
      assert.deepEqual(await drift(), [], 'event first');

      // the clubs change first: the event waits for it and is filed under the new club
      let open!: () => void;
      const gate = new Promise<void>((r) => { open = r; });
      const changedAgain = changeClubs('slow', gate);
      await new Promise((r) => setTimeout(r, 100));
      await logger.query('BEGIN');
      const logged = logEvent();
      assert.equal(await pending(logged), true, 'the event waits for the open clubs change');
      open();
      await changedAgain;
      await logged;
      await logger.query('COMMIT');
      assert.deepEqual(await drift(), [], 'clubs first');
    } finally {
      logger.release();
    }
    assert.equal(body(await get('/activity?club=slow')).data.pagination.total, 2);
  });

  it('stays equal to its definition after any sequence of events and club changes', async () => {
    const db = t.container.db;
    const names: number[] = [];
    for (const label of ['alder', 'birch', 'cedar']) names.push((await createName(db, `${label}.eth`)).id);
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('event' as const),
        name: fc.integer({ min: 0, max: names.length - 1 }),
        type: fc.constantFrom<ActivityInput['type']>('listed', 'sale', 'vote', 'transfer'),
        platform: fc.constantFrom<ActivityInput['platform']>('grails', 'seaport', 'ens'),
        count: fc.integer({ min: 1, max: 3 }),
      }),
      fc.record({
        kind: fc.constant('clubs' as const),
        name: fc.integer({ min: 0, max: names.length - 1 }),
        // duplicates and order changes too: the set is what counts
        clubs: fc.array(fc.constantFrom('red', 'green', 'blue'), { maxLength: 4 }),
      }),
    );
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
      for (const o of ops) {
        if (o.kind === 'event') await recordActivity(db, Array.from({ length: o.count }, () => event(names[o.name], o.type, o.platform)));
        else await setClubs(db, [{ id: names[o.name], clubs: o.clubs }]);
      }
      assert.deepEqual(await drift(), [], JSON.stringify(ops));
    }), { numRuns: 40 });
  });
});
