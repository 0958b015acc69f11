import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { clubName, E, sale, WETH } from '../helpers/analytics.js';
import { refreshRollups, refreshSnapshots } from '../../src/analytics/index.js';
import { createDb, createPool } from '../../src/db/client.js';
import { HOUR } from '../../src/lib/time.js';

/**
 * The analytics and charts answers are kept in process until the rollups or snapshots they come
 * from change: a refresh that ran shows in the very next answer (same process), or within a second
 * when another process ran it (here: a refresh through a pool of its own, which this app's process
 * hears nothing about). A page of raw rows (the sales feed) is at most 2 s old. Their headers stay
 * those of an uncached route.
 */
describe('analytics and charts: kept answers follow the rollups', () => {
  let t: TestContext;
  let nameId: number;
  const at = (ms: number) => new Date(Date.now() - ms);
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}` });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'no-store', show(res));
    assert.equal(res.headers['x-cache'], undefined, show(res));
    return body(res).data;
  };
  /** What a reader of each route of the bench's mix sees of the sales. */
  const seen = async () => {
    const market = await get('/analytics/market?period=7d');
    const month = await get('/analytics/market?period=30d');
    const bands = (await get('/analytics/volume?period=30d')).distribution as { sales_count: number }[];
    const feed = await get('/analytics/sales?period=7d');
    const chart = (await get('/charts/sales?period=30d')).points as { total: number }[];
    const volume = (await get('/charts/volume?period=7d')).points as { total: string }[];
    return {
      sales: market.volume.sales_count as number,
      buyers: market.volume.unique_buyers as number,
      month: month.volume.total_volume_wei as string,
      banded: bands.reduce((n, b) => n + b.sales_count, 0),
      feed: [feed.pagination.total as number, feed.results.length as number],
      charted: chart.reduce((n, p) => n + p.total, 0),
      volume: volume.reduce((v, p) => v + BigInt(p.total), 0n).toString(),
    };
  };

  before(async () => {
    t = await createTestApp();
    nameId = (await clubName(t.container.db, 'kept.eth')).id;
    await sale(t.container.db, { nameId, price: E(1), at: at(HOUR), buyer: '0x00000000000000000000000000000000000000b1' });
    await refreshRollups(t.container.db, { wethAddress: WETH });
    await refreshSnapshots(t.container.db, { force: true });
  });
  after(async () => { await t?.close(); });

  it('a refresh in this process shows in the next answer; until it runs, the answer is the rollups\'', async () => {
    assert.deepEqual(await seen(), { sales: 1, buyers: 1, month: E(1).toString(), banded: 1, feed: [1, 1], charted: 1, volume: E(1).toString() });

    await sale(t.container.db, { nameId, price: E(2), at: at(60_000), buyer: '0x00000000000000000000000000000000000000b2' });
    // not rolled up yet: the rollup figures are those of the last refresh
    const before = await seen();
    assert.deepEqual([before.sales, before.month, before.charted, before.volume], [1, E(1).toString(), 1, E(1).toString()]);

    await refreshRollups(t.container.db, { wethAddress: WETH });
    assert.deepEqual(await seen(), { sales: 2, buyers: 1, month: E(3).toString(), banded: 2, feed: [2, 2], charted: 2, volume: E(3).toString() });
    // distinct buyers come from the snapshots, refreshed by their own job
    await refreshSnapshots(t.container.db);
    assert.equal((await seen()).buyers, 2);
  });

  it('a kept answer is sent with the time of its own response, in the envelope, as JSON', async () => {
    for (const url of ['/analytics/market?period=7d', '/charts/sales?period=30d', '/analytics/sales?period=7d']) {
      const answers = [];
      for (let i = 0; i < 2; i++) {
        const sent = Date.now();
        const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}` });
        assert.equal(res.statusCode, 200, show(res));
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        const answer = body(res);
        assert.deepEqual(Object.keys(answer), ['success', 'data', 'meta']);
        assert.equal(answer.success, true);
        assert.deepEqual(Object.keys(answer.meta), ['timestamp', 'version']);
        const stamped = Date.parse(answer.meta.timestamp as string);
        assert.ok(stamped >= sent && stamped <= Date.now(), `${url}: stamped ${answer.meta.timestamp}, asked at ${new Date(sent).toISOString()}`);
        answers.push(answer);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.deepEqual(answers[1].data, answers[0].data, url);
      assert.notEqual(answers[1].meta.timestamp, answers[0].meta.timestamp, url);
    }
  });

  it('a page of sales (raw rows) is at most 2 s old, before any refresh', async () => {
    const count = async () => (await get('/analytics/sales?period=7d')).results.length as number;
    const before = await count();
    await sale(t.container.db, { nameId, price: E(0.5), at: at(1000) });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.equal(await count(), before + 1);
    await t.container.db.deleteFrom('sales').where('price_wei', '=', E(0.5).toString()).execute();
    await refreshRollups(t.container.db, { wethAddress: WETH });
  });

  it('a refresh by another process shows within a second', async () => {
    const other = createPool(t.databaseUrl, { max: 2 });
    try {
      await sale(t.container.db, { nameId, price: E(4), at: at(30_000) });
      await get('/analytics/market?period=7d');
      await refreshRollups(createDb(other), { wethAddress: WETH });
      const started = Date.now();
      let sales = 0;
      while (Date.now() - started < 3000) {
        sales = (await get('/analytics/market?period=7d')).volume.sales_count as number;
        if (sales === 3) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(sales, 3);
      assert.ok(Date.now() - started < 1500, `seen after ${Date.now() - started} ms`);
      assert.deepEqual(await seen(), { sales: 3, buyers: 2, month: E(7).toString(), banded: 3, feed: [3, 3], charted: 3, volume: E(7).toString() });
    } finally {
      await other.end();
    }
  });
});
