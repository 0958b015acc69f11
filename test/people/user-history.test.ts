import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { castVote } from '../helpers/community.js';
import { sale } from '../helpers/analytics.js';
import { ONE_ETH, insertOffer } from '../helpers/marketplace.js';
import { viewCounterOf } from '../../src/history/index.js';
import { DAY } from '../../src/lib/time.js';

describe('user history', () => {
  let t: TestContext;
  let me: SignedIn;
  let other: SignedIn;
  const id: Record<string, number> = {};
  const get = async (kind: string, who: SignedIn = me, query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/user/history/${kind}${query}`, headers: who.headers });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'no-store');
    return body(res).data as { names: Array<{ name: string } & Record<string, any>>; pagination: Record<string, unknown> };
  };
  const names = (d: { names: Array<{ name: string }> }) => d.names.map((n) => n.name);

  before(async () => {
    t = await createTestApp();
    [me, other] = [await signIn(t.app, 16), await signIn(t.app, 17)];
    for (const n of ['h1', 'h2', 'h3', 'h4']) id[n] = (await createName(t.container.db, `${n}.eth`, { owner: addressOf(0) })).id;
  });
  after(async () => { await t?.close(); });

  it('needs sign-in', async () => {
    for (const kind of ['viewed', 'watched', 'voted', 'offers', 'purchases', 'sales']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/user/history/${kind}` });
      assert.equal(res.statusCode, 401, show(res));
      assert.equal(body(res).error.code, 'UNAUTHORIZED');
    }
  });

  it('viewed: each name once, latest day first, only mine', async () => {
    for (const n of ['h1', 'h2', 'h1']) await t.app.inject({ method: 'GET', url: `/api/v1/names/${n}.eth`, headers: me.headers });
    await t.app.inject({ method: 'GET', url: '/api/v1/names/h3.eth', headers: other.headers });
    const counter = viewCounterOf(t.container.db);
    counter.count(id.h4, `u:${me.userId}`, new Date(Date.now() - 3 * DAY));
    await counter.flush();
    const d = await get('viewed');
    assert.deepEqual(names(d).slice(-1), ['h4.eth'], 'the oldest last');
    assert.deepEqual(new Set(names(d).slice(0, 2)), new Set(['h1.eth', 'h2.eth']));
    assert.equal(d.pagination.total, 3);
    assert.match(String(d.names[0].viewed_at), /T00:00:00\.000Z$/);
    const p2 = await get('viewed', me, '?limit=2&page=2');
    assert.deepEqual(names(p2), ['h4.eth']);
    assert.deepEqual(p2.pagination, { page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
    const past = await get('viewed', me, '?limit=2&page=3');
    assert.deepEqual([names(past), past.pagination.total, past.pagination.hasPrev], [[], 3, true], 'a page past the last still counts them');
    assert.deepEqual((await get('viewed', other, '?page=2')).pagination.total, 1);
  });

  it('watched: each name once with its flags, any list counting', async () => {
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: me.headers, payload });
    await post('/watchlist', { ensName: 'h2.eth', notifyOnSale: false });
    const list = body(await post('/watchlist/lists', { name: 'Two' })).data.id;
    await post('/watchlist', { ensName: 'h2.eth', listId: list, notifyOnPriceChange: true, notifyOnSale: false });
    await post('/watchlist', { ensName: 'h3.eth' });
    const d = await get('watched');
    assert.deepEqual(names(d), ['h3.eth', 'h2.eth']);
    assert.deepEqual(d.names[1].notifications, { on_sale: false, on_offer: true, on_listing: true, on_price_change: true });
    assert.equal(d.names[1].is_user_watching, true);
    assert.equal(d.pagination.total, 2);
    assert.deepEqual((await get('watched', other)).names, []);
  });

  it('voted: my vote and when, a removed vote gone', async () => {
    await castVote(t.app, me, 'h1.eth', 1);
    await castVote(t.app, me, 'h2.eth', -1);
    await castVote(t.app, me, 'h3.eth', 1);
    await castVote(t.app, me, 'h3.eth', 0);
    await castVote(t.app, other, 'h4.eth', 1);
    const d = await get('voted');
    assert.deepEqual(d.names.map((n) => [n.name, n.my_vote, n.user_vote]), [['h2.eth', -1, -1], ['h1.eth', 1, 1]]);
    assert.ok(Date.parse(String(d.names[0].voted_at)) > Date.now() - 60_000);
  });

  it('offers, purchases and sales: mine only, newest first, with their records', async () => {
    const db = t.container.db;
    const older = await insertOffer(db, 16, id.h1, 'h1.eth', ONE_ETH, { status: 'rejected' });
    await db.updateTable('offers').set({ created_at: new Date(Date.now() - DAY) }).where('id', '=', older.id).execute();
    const newer = await insertOffer(db, 16, id.h2, 'h2.eth', 2n * ONE_ETH);
    await insertOffer(db, 17, id.h3, 'h3.eth', ONE_ETH);
    let d = await get('offers');
    assert.deepEqual(d.names.map((n) => [n.name, n.offer.id, n.offer.status, n.offer.price_wei]), [
      ['h2.eth', newer.id, 'pending', (2n * ONE_ETH).toString()], ['h1.eth', older.id, 'rejected', ONE_ETH.toString()],
    ]);

    const bought = await sale(db, { nameId: id.h3, price: 5n * ONE_ETH, at: new Date(Date.now() - 2 * DAY), buyer: me.address, seller: addressOf(0) });
    const sold = await sale(db, { nameId: id.h4, price: 7n * ONE_ETH, at: new Date(Date.now() - DAY), seller: me.address, buyer: other.address });
    await sale(db, { nameId: id.h1, price: ONE_ETH, at: new Date(), seller: addressOf(0), buyer: addressOf(1) });
    d = await get('purchases');
    assert.deepEqual(d.names.map((n) => [n.name, n.purchase.id, n.purchase.price_wei]), [['h3.eth', bought.id, (5n * ONE_ETH).toString()]]);
    assert.match(String(d.names[0].purchase.transaction_hash), /^0x[0-9a-f]{64}$/);
    d = await get('sales');
    assert.deepEqual(d.names.map((n) => [n.name, n.sale.id, n.sale.buyer_address]), [['h4.eth', sold.id, other.address]]);
    d = await get('purchases', other);
    assert.deepEqual(names(d), ['h4.eth']);
  });

  it('bad paging is 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/history/offers?limit=101', headers: me.headers });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.details.field, 'query.limit');
  });

  it('the feed: activity on the names I own and the names I watch', async () => {
    const feed = async (who: SignedIn) => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/feed?event_type=vote', headers: who.headers });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.results.map((e: { name: string }) => e.name) as string[];
    };
    const viewer = await signIn(t.app, 18);
    await castVote(t.app, other, 'h4.eth', -1);
    assert.deepEqual(await feed(viewer), []);
    const added = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: viewer.headers, payload: { ensName: 'h4.eth' } });
    assert.equal(added.statusCode, 200, show(added));
    assert.deepEqual(new Set(await feed(viewer)), new Set(['h4.eth']));
    const owner = await signIn(t.app, 0); // owns h1..h4, watches nothing
    assert.deepEqual(new Set(await feed(owner)), new Set(['h1.eth', 'h2.eth', 'h3.eth', 'h4.eth']));
  });
});
