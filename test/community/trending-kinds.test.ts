import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { castVote } from '../helpers/community.js';
import { ONE_ETH, USDC, WETH, insertListing, signedListing, signedOffer } from '../helpers/marketplace.js';
import { setEthUsdPrice } from '../helpers/standings.js';
import { viewCounterOf } from '../../src/history/index.js';
import { markListingSold } from '../../src/orders/index.js';
import { DAY, HOUR } from '../../src/lib/time.js';

/**
 * Trending by views, sales, offers, watchlist and composite, from events written through the API
 * (offers, listings, votes, name page views) and the order rules (sales, as the chain sync records them).
 *
 * - alpha.eth: 2 offers now (1 and 2 WETH, two bidders), 2 page views today, a sale 3 days ago (7d only)
 * - bravo.eth: 2 sales now-ish (1 ETH 2 hours ago, 3 WETH now)
 * - charlie.eth: 1 listing, 1 offer (0.5 WETH), 1 upvote and 1 downvote
 */
describe('trending: views, sales, offers, watchlist, composite', () => {
  let t: TestContext;
  let users: SignedIn[];
  const id: Record<string, number> = {};
  const get = (kind: string, query = '') => t.app.inject({ method: 'GET', url: `/api/v1/trending/${kind}${query}` });
  const ranking = async (kind: string, query = '') => {
    const res = await get(kind, query);
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data as { names: { name: string; trending_metrics: Record<string, unknown> }[]; meta: Record<string, unknown> };
  };
  const metricsOf = (d: Awaited<ReturnType<typeof ranking>>) => d.names.map((n) => [n.name, n.trending_metrics]);

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    users = [await signIn(t.app, 0), await signIn(t.app, 1), await signIn(t.app, 2)];
    for (const name of ['alpha.eth', 'bravo.eth', 'charlie.eth']) id[name] = (await createName(db, name, { owner: addressOf(0) })).id;
    const offer = async (by: number, name: string, amount: bigint) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: users[by].headers, payload: { orderData: (await signedOffer(by, name, amount)).orderData } });
      assert.equal(res.statusCode, 201, show(res));
    };
    await offer(1, 'alpha.eth', ONE_ETH);
    await offer(2, 'alpha.eth', 2n * ONE_ETH);
    await offer(1, 'charlie.eth', ONE_ETH / 2n);
    const listed = await t.app.inject({ method: 'POST', url: '/api/v1/listings', headers: users[0].headers, payload: { orderData: (await signedListing(0, 'charlie.eth', ONE_ETH)).orderData } });
    assert.equal(listed.statusCode, 201, show(listed));
    assert.equal((await castVote(t.app, users[1], 'charlie.eth', 1)).statusCode, 200);
    assert.equal((await castVote(t.app, users[2], 'charlie.eth', -1)).statusCode, 200);
    await t.app.inject({ method: 'GET', url: '/api/v1/names/alpha.eth' });
    await t.app.inject({ method: 'GET', url: '/api/v1/names/alpha.eth', headers: users[1].headers });
    await viewCounterOf(db).flush();

    const sell = async (name: string, price: bigint, currency: string | undefined, soldAt: Date, logIndex: number) => {
      const l = await insertListing(db, 0, id[name], name, price, { currency });
      await db.transaction().execute((trx) => markListingSold(trx, l.id, { buyer: addressOf(3), txHash: `0x${'c'.repeat(64)}`, logIndex, soldAt }));
    };
    await sell('bravo.eth', ONE_ETH, undefined, new Date(Date.now() - 2 * HOUR), 1);
    await sell('bravo.eth', 3n * ONE_ETH, WETH, new Date(), 2);
    await sell('alpha.eth', 5n * ONE_ETH, undefined, new Date(Date.now() - 3 * DAY), 3);
  });
  after(async () => { await t?.close(); });

  it('sales: counted per name in the period, prices in wei of ETH', async () => {
    const day = await ranking('sales');
    assert.deepEqual(day.meta, { period: '24h', type: 'sales', limit: 20 });
    assert.deepEqual(metricsOf(day), [['bravo.eth', {
      period: '24h', period_sales: 2, period_volume: (4n * ONE_ETH).toString(), avg_price: (2n * ONE_ETH).toString(),
      max_price: (3n * ONE_ETH).toString(), min_price: ONE_ETH.toString(),
    }]]);
    const week = await ranking('sales', '?period=7d');
    assert.deepEqual(week.names.map((n) => [n.name, n.trending_metrics.period_sales]), [['bravo.eth', 2], ['alpha.eth', 1]]);
  });

  it('offers: offers made in the period, highest and average, distinct bidders', async () => {
    const d = await ranking('offers');
    assert.deepEqual(metricsOf(d), [
      ['alpha.eth', { period: '24h', period_offers: 2, highest_offer: (2n * ONE_ETH).toString(), avg_offer: (3n * ONE_ETH / 2n).toString(), unique_bidders: 2 }],
      ['charlie.eth', { period: '24h', period_offers: 1, highest_offer: (ONE_ETH / 2n).toString(), avg_offer: (ONE_ETH / 2n).toString(), unique_bidders: 1 }],
    ]);
  });

  it('views: one per viewer and day, with unique viewers and the all-time count', async () => {
    const d = await ranking('views', '?limit=5');
    assert.deepEqual(d.meta, { period: '24h', type: 'views', limit: 5 });
    assert.deepEqual(metricsOf(d), [['alpha.eth', { period: '24h', period_views: 2, unique_viewers: 2, total_views: 2 }]]);
  });

  it('watchlist: entries added in the period and still held, with the current watchers', async () => {
    const watch = async (by: number, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: users[by].headers, payload });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.id as number;
    };
    await watch(1, { ensName: 'charlie.eth' });
    await watch(2, { ensName: 'charlie.eth' });
    const list = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist/lists', headers: users[2].headers, payload: { name: 'Short' } });
    await watch(2, { ensName: 'charlie.eth', listId: body(list).data.id });
    const gone = await watch(2, { ensName: 'alpha.eth' });
    await t.app.inject({ method: 'DELETE', url: `/api/v1/watchlist/${gone}`, headers: users[2].headers }); // taken back
    const d = await ranking('watchlist', '?period=7d');
    assert.deepEqual(d.meta, { period: '7d', type: 'watchlist', limit: 20 });
    assert.deepEqual(metricsOf(d), [['charlie.eth', { period: '7d', period_additions: 3, total_watchers: 2 }]]);
  });

  it('composite: the weighted sum of every signal, with the breakdown and the weights', async () => {
    const d = await ranking('composite');
    assert.deepEqual(d.meta.score_weights, { views: 1, watchlist_adds: 5, upvotes: 3, downvotes: -1, offers: 10, listings: 8, sales: 50 });
    assert.deepEqual(metricsOf(d), [
      // 2 sales × 50
      ['bravo.eth', { period: '24h', trending_score: 100, breakdown: { views: 0, watchlist_adds: 0, votes: 0, upvotes: 0, offers: 0, listings: 0, sales: 2 } }],
      // 1 listing × 8 + 1 offer × 10 + 1 upvote × 3 − 1 downvote + 3 watchlist adds × 5
      ['charlie.eth', { period: '24h', trending_score: 35, breakdown: { views: 0, watchlist_adds: 3, votes: 2, upvotes: 1, offers: 1, listings: 1, sales: 0 } }],
      // 2 views × 1 + 2 offers × 10 (the watch added and removed counts nothing)
      ['alpha.eth', { period: '24h', trending_score: 22, breakdown: { views: 2, watchlist_adds: 0, votes: 0, upvotes: 0, offers: 2, listings: 0, sales: 0 } }],
    ]);
    // the sale of 3 days ago counts in 7d: alpha 22 + 50
    const week = await ranking('composite', '?period=7d');
    assert.deepEqual(week.names.map((n) => [n.name, n.trending_metrics.trending_score]), [['bravo.eth', 100], ['alpha.eth', 72], ['charlie.eth', 35]]);
  });

  it('sales in USDC are valued at the latest ETH/USD price, as eth_value_wei values them', async () => {
    const db = t.container.db;
    id['delta.eth'] = (await createName(db, 'delta.eth', { owner: addressOf(0) })).id;
    await setEthUsdPrice(db, new Date(Date.now() - DAY).toISOString().slice(0, 10), '1000');
    await setEthUsdPrice(db, new Date().toISOString().slice(0, 10), '1500');
    // 3,000 USDC at 1,500 USD an ether, and 1,000 USDC (0.666… ETH, truncated to the wei)
    for (const [i, amount] of [3_000_000_000n, 1_000_000_000n].entries()) {
      const l = await insertListing(db, 0, id['delta.eth'], 'delta.eth', amount, { currency: USDC });
      await db.transaction().execute((trx) => markListingSold(trx, l.id, { buyer: addressOf(3), txHash: `0x${'d'.repeat(64)}`, logIndex: 10 + i, soldAt: new Date() }));
    }
    const third = (2n * ONE_ETH) / 3n;
    const d = await ranking('sales');
    assert.deepEqual(Object.fromEntries(metricsOf(d))['delta.eth'], {
      period: '24h', period_sales: 2, period_volume: (2n * ONE_ETH + third).toString(), avg_price: ((2n * ONE_ETH + third) / 2n).toString(),
      max_price: (2n * ONE_ETH).toString(), min_price: third.toString(),
    });
    const { rows } = await sql<{ v: string }>`SELECT eth_value_wei(1000000000, ${USDC})::text AS v`.execute(db);
    assert.equal(rows[0].v, third.toString());
  });

  it('bad parameters are 400 with the field named', async () => {
    for (const kind of ['views', 'sales', 'offers', 'watchlist', 'composite']) {
      const res = await get(kind, '?period=30d');
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    }
  });
});
