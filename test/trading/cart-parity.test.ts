import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, USDC, WETH, insertListing } from '../helpers/marketplace.js';

const DAY = 86_400_000;

describe('cart as the web app uses it: sales and registrations types, bulk add, summary', () => {
  let t: TestContext;
  let carol: SignedIn;
  let dave: SignedIn;
  const id: Record<string, number> = {};

  before(async () => {
    t = await createTestApp();
    carol = await signIn(t.app, 5);
    dave = await signIn(t.app, 6);
    const db = t.container.db;
    const listed: Array<[string, bigint, string | undefined]> = [
      ['ethone', ONE_ETH, undefined], ['ethtwo', 25n * ONE_ETH / 10n, undefined], ['wethone', 3n * ONE_ETH, WETH], ['usdcone', 1_500_000_000n, USDC],
    ];
    for (const [label, price, currency] of listed) {
      id[label] = (await createName(db, `${label}.eth`, { owner: addressOf(0) })).id;
      await insertListing(db, 0, id[label], `${label}.eth`, price, { currency });
    }
    id.plain = (await createName(db, 'notforsale.eth', { owner: addressOf(0) })).id;
    for (const label of ['abc', 'abcd', 'abcdefg', 'xyzzyx']) {
      id[label] = (await createName(db, `${label}.eth`, { expiryDate: new Date(Date.now() - 200 * DAY) })).id;
    }
    id.ab = (await createName(db, 'ab.eth', { expiryDate: new Date(Date.now() - 200 * DAY) })).id;
    // A day's price of 2,000 USD an ETH: 1,500 USDC is 0.75 ETH.
    await db.insertInto('eth_usd_prices').values({ day: '2020-01-01', price_usd: '100' }).execute();
    await db.insertInto('eth_usd_prices').values({ day: new Date().toISOString().slice(0, 10), price_usd: '2000' }).execute();
  });
  after(async () => { await t?.close(); });

  const bulk = (who: SignedIn | undefined, items: unknown) => t.app.inject({ method: 'POST', url: '/api/v1/cart/bulk', headers: who?.headers ?? {}, payload: { items } });

  it('the web app\'s cart types take what ours take: sales listed names, registrations expired ones', async () => {
    const sale = await t.app.inject({ method: 'POST', url: '/api/v1/cart', headers: carol.headers, payload: { ensNameId: id.ethone, cartType: 'sales' } });
    assert.equal(sale.statusCode, 201, show(sale));
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/cart', headers: carol.headers, payload: { ensNameId: id.plain, cartType: 'sales' } });
    assert.equal(body(refused).error.code, 'INVALID_STATE', show(refused));
    const reg = await t.app.inject({ method: 'POST', url: '/api/v1/cart', headers: carol.headers, payload: { ensNameId: id.abc, cartType: 'registrations' } });
    assert.equal(reg.statusCode, 201, show(reg));
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/cart?cartType=sales', headers: carol.headers });
    assert.deepEqual(body(listed).data.items.map((i: { name: string }) => i.name), ['ethone.eth'], show(listed));
    const same = await t.app.inject({ method: 'GET', url: '/api/v1/cart?type=sales', headers: carol.headers });
    assert.deepEqual(body(same).data, body(listed).data);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/cart?cartType=wishlist', headers: carol.headers });
    assert.equal(body(unknown).error.code, 'INVALID_CART_TYPE', show(unknown));
    assert.equal(body(unknown).error.details.field, 'query.cartType');
  });

  it('POST /cart/bulk adds what fits in one go and says why the rest was skipped', async () => {
    const res = await bulk(carol, [
      { ensNameId: id.ethtwo, cartType: 'sales' },
      { ensNameId: id.wethone, cartType: 'buy' },
      { ensNameId: id.usdcone, cartType: 'sales' },
      { ensNameId: id.ethone, cartType: 'sales' },
      { ensNameId: id.plain, cartType: 'buy' },
      { ensNameId: id.abcd, cartType: 'registrations' },
      { ensNameId: id.abcdefg, cartType: 'register' },
      { ensNameId: id.xyzzyx, cartType: 'registrations' },
      { ensNameId: id.ab, cartType: 'registrations' },
      { ensNameId: id.ethtwo, cartType: 'registrations' },
      { ensNameId: id.xyzzyx, cartType: 'registrations' },
    ]);
    assert.equal(res.statusCode, 200, show(res));
    const d = body(res).data;
    assert.equal(d.totalRequested, 11);
    assert.equal(d.addedCount, 7);
    assert.equal(d.skippedCount, 4);
    assert.deepEqual(d.skipped.map((s: { index: number; reason: string }) => [s.index, s.reason]), [[3, 'already_in_cart'], [4, 'not_listed'], [9, 'not_expired'], [10, 'already_in_cart']]);
  });

  it('bulk refuses an unknown type or name for the whole request, and more than 100 items', async () => {
    const before = body(await t.app.inject({ method: 'GET', url: '/api/v1/cart/summary', headers: dave.headers })).data.total;
    const type = await bulk(dave, [{ ensNameId: id.ethone, cartType: 'buy' }, { ensNameId: id.ethtwo, cartType: 'wishlist' }]);
    assert.equal(type.statusCode, 400, show(type));
    assert.deepEqual([body(type).error.code, body(type).error.details.field], ['INVALID_CART_TYPE', 'body.items.1.cartType']);
    const name = await bulk(dave, [{ ensNameId: id.ethone, cartType: 'buy' }, { ensNameId: 987654, cartType: 'buy' }]);
    assert.equal(name.statusCode, 404, show(name));
    assert.equal(body(name).error.details.field, 'body.items.1.ensNameId');
    const many = await bulk(dave, Array.from({ length: 101 }, () => ({ ensNameId: id.ethone, cartType: 'buy' })));
    assert.equal(body(many).error.code, 'VALIDATION_ERROR', show(many));
    const after = body(await t.app.inject({ method: 'GET', url: '/api/v1/cart/summary', headers: dave.headers })).data.total;
    assert.equal(after, before, 'nothing stored by refused requests');
    assert.equal((await bulk(undefined, [{ ensNameId: id.ethone, cartType: 'buy' }])).statusCode, 401);
  });

  it('GET /cart/summary: counts per type, purchase totals per currency and in ETH, a year of registration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/cart/summary', headers: carol.headers });
    assert.equal(res.statusCode, 200, show(res));
    const d = body(res).data;
    assert.deepEqual(d.summary, { buy: 1, register: 1, registrations: 4, sales: 3 });
    assert.equal(d.total, 9);
    // ETH: ethone 1 + ethtwo 2.5 = 3.5 ETH; WETH 3; USDC 1,500 at 2,000 USD = 0.75 ETH.
    const by = Object.fromEntries(d.purchase.byCurrency.map((c: { symbol: string }) => [c.symbol, c]));
    assert.equal(by.ETH.totalWei, (35n * ONE_ETH / 10n).toString());
    assert.equal(by.ETH.items, 2);
    assert.equal(by.WETH.totalWei, (3n * ONE_ETH).toString());
    assert.equal(by.USDC.totalWei, '1500000000');
    assert.equal(by.USDC.decimals, 6);
    assert.equal(by.USDC.ethValueWei, (75n * ONE_ETH / 100n).toString());
    assert.equal(d.purchase.totalEthWei, (725n * ONE_ETH / 100n).toString());
    assert.equal(d.purchase.items, 4);
    assert.equal(d.purchase.unlisted, 0);
    // abc $640 + abcd $160 + abcdefg $5 + xyzzyx $5 = $810; ab is too short to register.
    assert.equal(d.registration.items, 4);
    assert.equal(d.registration.unregistrable, 1);
    assert.equal(d.registration.yearlyUsd, 810);
    assert.equal(d.registration.ethUsdPrice, 2000);
    assert.equal(d.registration.yearlyEthWei, (405n * ONE_ETH / 1000n).toString());

    const empty = body(await t.app.inject({ method: 'GET', url: '/api/v1/cart/summary', headers: dave.headers })).data;
    assert.equal(empty.total, 0);
    assert.equal(empty.purchase.totalEthWei, '0');
    assert.equal(empty.registration.yearlyEthWei, '0');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/cart/summary' })).statusCode, 401);
  });

  it('an unknown query parameter is refused the same way on every route', async () => {
    for (const [url, headers] of [['/api/v1/cart?cartTyp=sales', carol.headers], ['/api/v1/listings?sellr=0x', {}], ['/api/v1/search?cartTyp=1', {}]] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
      assert.equal(body(res).error.details.field, `query.${url.split('?')[1].split('=')[0]}`);
    }
  });

  it('DELETE /cart/:id removes only the caller\'s own item', async () => {
    const items = body(await t.app.inject({ method: 'GET', url: '/api/v1/cart?cartType=sales', headers: carol.headers })).data.items;
    const itemId = items[0].cartItemId as number;
    const other = await t.app.inject({ method: 'DELETE', url: `/api/v1/cart/${itemId}`, headers: dave.headers });
    assert.equal(other.statusCode, 404, show(other));
    const mine = await t.app.inject({ method: 'DELETE', url: `/api/v1/cart/${itemId}`, headers: carol.headers });
    assert.equal(mine.statusCode, 200, show(mine));
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/v1/cart/${itemId}` })).statusCode, 401);
  });
});
