import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { logNameTransitions } from '../../src/history/index.js';
import { DAY, HOUR } from '../../src/lib/time.js';

const PERIODS = { gracePeriodDays: 90, premiumPeriodDays: 21 };
const RELEASE = 111 * DAY;

describe('grace_started and released events (the name transitions job)', () => {
  let t: TestContext;
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const OWNER = addressOf(5).toLowerCase();

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    await createName(db, 'justexpired.eth', { owner: OWNER, expiryDate: ago(HOUR) }); // grace started in the window
    await createName(db, 'justreleased.eth', { owner: OWNER, expiryDate: ago(RELEASE + HOUR) }); // released in the window
    await createName(db, 'ingrace.eth', { owner: OWNER, expiryDate: ago(10 * DAY) }); // entered grace before the window
    await createName(db, 'registered.eth', { owner: OWNER, expiryDate: new Date(now.getTime() + DAY) });
    await db.insertInto('sync_state').values({ key: 'history.name_transitions', value: JSON.stringify({ through: ago(2 * HOUR).toISOString() }) }).execute();
  });
  after(async () => { await t?.close(); });

  const events = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/activity?event_type=grace_started,released' });
    assert.equal(res.statusCode, 200, show(res));
    return (body(res).data.results as { name: string; event_type: string; actor_address: string; platform: string; created_at: string }[])
      .map((e) => [e.name, e.event_type, e.actor_address, e.platform, e.created_at]);
  };

  it('one event per name and transition in the window since the checkpoint, at the moment of the transition', async () => {
    const result = await logNameTransitions(t.container.db, PERIODS, now);
    assert.deepEqual([result.grace_started, result.released], [1, 1]);
    assert.deepEqual(await events(), [
      ['justexpired.eth', 'grace_started', OWNER, 'ens', ago(HOUR).toISOString()],
      ['justreleased.eth', 'released', OWNER, 'ens', ago(HOUR).toISOString()],
    ].sort((a, b) => (a[0] < b[0] ? 1 : -1)));
    const byName = await t.app.inject({ method: 'GET', url: '/api/v1/activity/justexpired.eth' });
    assert.equal(body(byName).data.results[0].event_type, 'grace_started', show(byName));
  });

  it('run twice, or with the checkpoint moved back, it adds nothing', async () => {
    const before = await events();
    assert.deepEqual(await logNameTransitions(t.container.db, PERIODS, now).then((r) => [r.grace_started, r.released]), [0, 0]);
    await t.container.db.updateTable('sync_state').set({ value: JSON.stringify({ through: ago(3 * HOUR).toISOString() }) }).where('key', '=', 'history.name_transitions').execute();
    assert.deepEqual(await logNameTransitions(t.container.db, PERIODS, now).then((r) => [r.grace_started, r.released]), [0, 0]);
    assert.deepEqual(await events(), before);
  });

  it('a later run picks up the names whose expiry passed since, a long pause in day-sized steps', async () => {
    const db = t.container.db;
    await createName(db, 'nextday.eth', { owner: OWNER, expiryDate: new Date(now.getTime() + 36 * HOUR) });
    const later = new Date(now.getTime() + 3 * DAY);
    const result = await logNameTransitions(db, PERIODS, later);
    assert.deepEqual([result.grace_started, result.released, result.through.toISOString()], [2, 0, later.toISOString()]);
    assert.deepEqual((await events()).slice(0, 2).map((e) => e[0]), ['nextday.eth', 'registered.eth']);
  });
});
