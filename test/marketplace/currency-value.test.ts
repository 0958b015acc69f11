import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, USDC, WETH, insertListing, signedListing, signedOffer } from '../helpers/marketplace.js';
import { revalueListings } from '../../src/orders/index.js';

describe('orders in different currencies rank by value in ETH', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
    // ETH at 2,500 USD: 1,000 USDC is worth 0.4 ETH.
    await t.container.db.insertInto('eth_usd_prices').values({ day: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10), price_usd: '2500' }).execute();
  });
  after(async () => { await t?.close(); });

  const name = async (n: string) => body(await t.app.inject({ method: 'GET', url: `/api/v1/names/${n}` })).data;

  it('1,000 USDC beats 0.1 WETH as the highest offer, and 0.5 WETH beats both', async () => {
    await createName(t.container.db, 'pegged.eth', { owner: addressOf(0) });
    const buyer1 = await signIn(t.app, 1);
    const buyer2 = await signIn(t.app, 2);
    const post = async (who: typeof buyer1, i: number, amount: bigint, currency: string) => {
      const offer = await signedOffer(i, 'pegged.eth', amount, { currency });
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: who.headers, payload: { orderData: offer.orderData } });
      assert.equal(res.statusCode, 201, show(res));
      return body(res).data.id as number;
    };
    await post(buyer1, 1, ONE_ETH / 10n, WETH);
    const usdcOffer = await post(buyer2, 2, 1_000_000_000n, USDC);
    let n = await name('pegged.eth');
    assert.equal(n.highest_offer_id, usdcOffer, JSON.stringify(n));
    assert.equal(n.highest_offer_wei, '1000000000', 'the amount stays in the offer currency');
    assert.equal(n.highest_offer_currency, USDC);

    const big = await post(buyer1, 1, ONE_ETH / 2n, WETH);
    n = await name('pegged.eth');
    assert.equal(n.highest_offer_id, big);
    assert.equal(n.highest_offer_currency, WETH);
  });

  it('the search price filter compares a USDC listing by its ETH value', async () => {
    await createName(t.container.db, 'stable.eth', { owner: addressOf(3) });
    const seller = await signIn(t.app, 3);
    const listing = await signedListing(3, 'stable.eth', 5_000_000_000n, { currency: USDC }); // 5,000 USDC = 2 ETH
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/listings', headers: seller.headers, payload: { orderData: listing.orderData } });
    assert.equal(res.statusCode, 201, show(res));
    const search = async (q: string) => body(await t.app.inject({ method: 'GET', url: `/api/v1/search?q=stable&${q}` })).data.results.map((r: { name: string }) => r.name);
    assert.deepEqual(await search(`filters[minPrice]=${(ONE_ETH * 3n) / 2n}&filters[maxPrice]=${(ONE_ETH * 5n) / 2n}`), ['stable.eth']);
    assert.deepEqual(await search(`filters[maxPrice]=${ONE_ETH}`), []);
  });

  it('GET /listings sorts and filters by value in ETH across ETH, WETH and USDC, and follows the ETH/USD price', async () => {
    const seller = addressOf(4);
    const make = async (label: string, price: bigint, currency: string) => {
      const n = await createName(t.container.db, `${label}.eth`, { owner: seller });
      return (await insertListing(t.container.db, 4, n.id, n.name, price, { currency })).id;
    };
    // By amount 5,000 USDC (5e9) is the smallest; by value (ETH at 2,500 USD) it is 2 ETH, the dearest.
    const weth = await make('valuewrapped', ONE_ETH / 2n, WETH);
    const usdc = await make('valuedollar', 5_000_000_000n, USDC);
    const eth = await make('valueether', ONE_ETH, '0x0000000000000000000000000000000000000000');
    const ids = async (qs: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/listings?seller=${seller}&${qs}` });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.listings.map((l: { id: number }) => l.id);
    };
    assert.deepEqual(await ids('sort=price&order=asc'), [weth, eth, usdc]);
    assert.deepEqual(await ids('sort=price&order=desc'), [usdc, eth, weth]);
    assert.deepEqual(await ids(`minPrice=${(ONE_ETH * 8n) / 10n}&sort=price&order=asc`), [eth, usdc]);
    const one = body(await t.app.inject({ method: 'GET', url: `/api/v1/listings/${usdc}` })).data;
    assert.equal(one.value_wei, (2n * ONE_ETH).toString(), JSON.stringify(one));
    assert.equal(one.price_wei, '5000000000', 'the price stays in its own currency');

    // ETH climbs to 12,500 USD (the price sync writes today's price, then revalues): 5,000 USDC is 0.4 ETH, the cheapest.
    await t.container.db.insertInto('eth_usd_prices').values({ day: new Date().toISOString().slice(0, 10), price_usd: '12500' }).execute();
    assert.equal(await revalueListings(t.container.db), 2, 'the two live USDC listings of this file');
    assert.deepEqual(await ids('sort=price&order=asc'), [usdc, weth, eth], '5,000 USDC at 12,500 USD is 0.4 ETH');
  });

  it('every order in every response carries its currency\'s symbol and decimals', async () => {
    const fields = (o: { currency_address: string; currency_symbol: unknown; currency_decimals: unknown }, where: string) => {
      const want = { [USDC]: ['USDC', 6], [WETH]: ['WETH', 18], '0x0000000000000000000000000000000000000000': ['ETH', 18] }[o.currency_address];
      assert.ok(want, `${where}: ${JSON.stringify(o)}`);
      assert.deepEqual([o.currency_symbol, o.currency_decimals], want, `${where}: ${JSON.stringify(o)}`);
    };
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data;
    };
    const listings = (await get('/api/v1/listings?limit=100')).listings;
    assert.ok(listings.length >= 4);
    for (const l of listings) fields(l, 'GET /listings');
    fields(await get(`/api/v1/listings/${listings[0].id}`), 'GET /listings/:id');
    const offers = (await get('/api/v1/offers?limit=100')).offers;
    assert.ok(offers.length >= 3);
    for (const o of offers) fields(o, 'GET /offers');
    const page = await get('/api/v1/names/pegged.eth');
    for (const o of page.offers) fields(o, 'name page offers');
    const stable = await get('/api/v1/names/stable.eth');
    assert.equal(stable.listings.length, 1);
    for (const l of stable.listings) fields(l, 'name page listings');
    const bundle = await get('/api/v1/names/stable.eth/bundle');
    for (const l of bundle.details.listings) fields(l, 'bundle listings');
    for (const o of (await get('/api/v1/names/pegged.eth/bundle')).offers) fields(o, 'bundle offers');
    const found = (await get('/api/v1/search?q=value')).results;
    assert.ok(found.some((r: { listings: unknown[] }) => r.listings.length > 0));
    for (const r of found) for (const l of r.listings) fields(l, 'search');
    fields(await get(`/api/v1/orders/${listings[0].id}`), 'GET /orders/:id (listing)');
    fields(await get(`/api/v1/orders/${offers[0].order_hash}`), 'GET /orders/:id (offer)');
  });
});
