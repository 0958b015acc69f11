import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, USDC, WETH, signedListing, signedOffer } from '../helpers/marketplace.js';

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
});
