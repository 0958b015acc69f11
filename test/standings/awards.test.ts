import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createOwnedName, createRegistration, randomHash, setEthUsdPrice } from '../helpers/standings.js';
import { awardsRefreshJob } from '../../src/jobs/handlers/leaderboard-awards.job.js';

const YEAR = 31_556_952;
const MILLI_ETH = 10n ** 15n;

function close(actual: number, expected: number, message: string) {
  assert.ok(Math.abs(actual - expected) < 1e-12, `${message}: ${actual} ≠ ${expected}`);
}

describe('GET /api/v1/awards-leaderboard', () => {
  let t: TestContext;
  const X = addressOf(5);
  const Y = addressOf(6);
  const Z = addressOf(7);
  const get = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/awards-leaderboard${query}` });
    assert.equal(res.statusCode, 200, show(res));
    return { res, b: body(res) };
  };

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const ours = t.config.referrerCode;
    const n1 = await createOwnedName(db, 'award-one.eth', X);
    const n2 = await createOwnedName(db, 'award-two.eth', Y);
    const n3 = await createOwnedName(db, 'award-three.eth', Z);

    await setEthUsdPrice(db, '2026-04-01', '1600');
    await setEthUsdPrice(db, '2026-04-02', '2000');
    await setEthUsdPrice(db, '2026-05-10', '2500');

    // X: a registration and a renewal in the program, plus events that must not count.
    await createRegistration(db, { nameId: n1.id, actor: X, blockTime: '2026-04-02T12:00:00Z', durationSeconds: YEAR, costWei: 10n * MILLI_ETH, referrer: ours });
    await createRegistration(db, { nameId: n1.id, kind: 'renewal', actor: X, blockTime: '2026-05-10T23:59:59Z', durationSeconds: 2 * YEAR, costWei: 20n * MILLI_ETH, referrer: ours });
    await createRegistration(db, { nameId: n1.id, actor: X, blockTime: '2026-03-31T23:59:59Z', durationSeconds: 5 * YEAR, costWei: 50n * MILLI_ETH, referrer: ours });
    await createRegistration(db, { nameId: n1.id, kind: 'renewal', actor: X, blockTime: '2026-06-01T00:00:00Z', durationSeconds: 7 * YEAR, costWei: MILLI_ETH, referrer: randomHash() });
    await createRegistration(db, { nameId: n1.id, kind: 'renewal', actor: X, blockTime: '2026-06-02T00:00:00Z', durationSeconds: 7 * YEAR, costWei: MILLI_ETH, referrer: null });

    // Y: half a year registered at the very start of the program.
    await createRegistration(db, { nameId: n2.id, actor: Y, blockTime: '2026-04-01T00:00:00Z', durationSeconds: YEAR / 2, costWei: 5n * MILLI_ETH, referrer: ours });

    // Z: a day without a price uses the latest earlier one (2026-05-10).
    await createRegistration(db, { nameId: n3.id, kind: 'renewal', actor: Z, blockTime: '2026-06-15T08:00:00Z', durationSeconds: YEAR + YEAR / 4, costWei: 3n * MILLI_ETH, referrer: ours });
    await awardsRefreshJob.handle({}, t.container);
  });
  after(async () => { await t?.close(); });

  it('computes points, durations, spend and base costs per address', async () => {
    const { res, b } = await get();
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.deepEqual(Object.keys(b).sort(), ['data', 'meta', 'pagination', 'success']);
    assert.deepEqual(b.pagination, { page: 1, limit: 20, total: 3, pages: 1 });
    assert.equal(b.meta.program_start, '2026-04-01T00:00:00.000Z');
    assert.equal(b.meta.seconds_per_year, 31556952);
    assert.deepEqual(b.meta.sort, { by: 'points', order: 'desc' });
    assert.deepEqual(b.data.users.map((u: any) => [u.rank, u.address]), [[1, X], [2, Z], [3, Y]], show(res));

    const [x, z, y] = b.data.users;
    const { base_cost_eth: xEth, base_cost_usd: xUsd, total_duration_years: xYears, ...xRest } = x;
    assert.deepEqual(xRest, {
      rank: 1, address: X, points: 3,
      registration_duration_seconds: YEAR, renewal_duration_seconds: 2 * YEAR, total_duration_seconds: 3 * YEAR,
      total_eth_spend_wei: (30n * MILLI_ETH).toString(), registration_count: 1, renewal_count: 1,
    }, show(res));
    close(xYears, 3, 'X years');
    close(xUsd, 15, 'X usd');
    close(xEth, 5 / 2000 + (5 * 2) / 2500, 'X eth'); // each event at its own day's price

    assert.equal(y.points, 0);
    assert.equal(y.registration_count, 1);
    assert.equal(y.renewal_count, 0);
    close(y.total_duration_years, 0.5, 'Y years');
    close(y.base_cost_usd, 2.5, 'Y usd');
    close(y.base_cost_eth, 2.5 / 1600, 'Y eth');
    assert.equal(y.total_eth_spend_wei, (5n * MILLI_ETH).toString());

    assert.equal(z.points, 1);
    assert.equal(z.renewal_duration_seconds, YEAR + YEAR / 4);
    close(z.base_cost_usd, 6.25, 'Z usd');
    close(z.base_cost_eth, 6.25 / 2500, 'Z eth');
  });

  it('ranks by the chosen sort', async () => {
    const ranked = async (q: string) => (await get(q)).b.data.users.map((u: any) => `${u.rank}:${u.address}`);
    assert.deepEqual(await ranked('?sortBy=base_cost_eth&sortOrder=asc'), [`1:${Y}`, `2:${Z}`, `3:${X}`]);
    assert.deepEqual(await ranked('?sortBy=renewal_duration'), [`1:${X}`, `2:${Z}`, `3:${Y}`]);
    assert.deepEqual(await ranked('?sortBy=registration_duration&sortOrder=asc'), [`1:${Z}`, `2:${Y}`, `3:${X}`]);
    assert.deepEqual(await ranked('?sortBy=total_eth_spend'), [`1:${X}`, `2:${Y}`, `3:${Z}`]);
    assert.deepEqual(await ranked('?sortBy=total_duration&sortOrder=asc'), [`1:${Y}`, `2:${Z}`, `3:${X}`]);
    assert.deepEqual(await ranked('?sortBy=base_cost_usd'), [`1:${X}`, `2:${Z}`, `3:${Y}`]);
    const page = await get('?limit=1&page=2');
    assert.deepEqual(page.b.pagination, { page: 2, limit: 1, total: 3, pages: 3 });
    assert.deepEqual(page.b.data.users.map((u: any) => [u.rank, u.address]), [[2, Z]]);
    const beyond = await get('?limit=2&page=5');
    assert.deepEqual(beyond.b.data.users, []);
    assert.equal(beyond.b.pagination.total, 3);
  });

  it('shows new events after the next refresh', async () => {
    const db = t.container.db;
    const newcomer = addressOf(4);
    const n = await createOwnedName(db, 'award-four.eth', newcomer);
    await createRegistration(db, { nameId: n.id, actor: newcomer, blockTime: '2026-07-01T00:00:00Z', durationSeconds: 10 * YEAR, costWei: MILLI_ETH, referrer: t.config.referrerCode });
    assert.equal((await get()).b.pagination.total, 3, 'served from the aggregate until it is refreshed');
    await awardsRefreshJob.handle({}, t.container);
    const { b } = await get();
    assert.equal(b.pagination.total, 4);
    assert.deepEqual([b.data.users[0].rank, b.data.users[0].address, b.data.users[0].points], [1, newcomer, 10]);
  });

  it('rejects bad query values with VALIDATION_ERROR', async () => {
    for (const q of ['page=0', 'limit=101', 'sortBy=volume', 'sortOrder=sideways']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/awards-leaderboard?${q}` });
      assert.equal(res.statusCode, 400, `${q}: ${show(res)}`);
      assert.equal(body(res).error.code, 'VALIDATION_ERROR', `${q}: ${show(res)}`);
    }
  });
});
