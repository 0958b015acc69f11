import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ETH, insertListing, ONE_ETH, WETH } from '../helpers/marketplace.js';
import { DAY } from '../../src/lib/time.js';

const A1 = addressOf(1).toLowerCase();
const A2 = addressOf(2).toLowerCase();
const A3 = addressOf(3).toLowerCase();
const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('sales pages', () => {
  let t: TestContext;
  const ids: number[] = [];
  let appleId = 0;
  let listingOrder: unknown;
  const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const apple = await createName(db, 'apple.eth', { owner: A3 });
    appleId = apple.id;
    const club = await createName(db, '123.eth', { owner: A1, clubs: ['999'] });
    await createName(db, 'unsold.eth');
    const listing = await insertListing(db, 1, apple.id, 'apple.eth', ONE_ETH, { status: 'sold' });
    listingOrder = (await db.selectFrom('listings').select('order_data').where('id', '=', listing.id).executeTakeFirstOrThrow()).order_data;
    const rows = [
      { ens_name_id: apple.id, seller_address: A1, buyer_address: A2, price_wei: ONE_ETH.toString(), currency_address: ETH, listing_id: listing.id, order_hash: listing.order_hash, tx_hash: tx(1), log_index: 0, source: 'grails', sold_at: at(3) },
      { ens_name_id: apple.id, seller_address: A2, buyer_address: A3, price_wei: (2n * ONE_ETH).toString(), currency_address: WETH.toLowerCase(), tx_hash: tx(2), log_index: 0, source: 'seaport', sold_at: at(2) },
      { ens_name_id: club.id, seller_address: A3, buyer_address: A1, price_wei: (ONE_ETH / 2n).toString(), currency_address: ETH, tx_hash: tx(3), log_index: 0, source: 'seaport', sold_at: at(1) },
    ];
    for (const r of rows) ids.push((await db.insertInto('sales').values(r).returning('id').executeTakeFirstOrThrow()).id);
  });
  after(async () => { await t?.close(); });

  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}` });
  const idsOf = (res: Awaited<ReturnType<typeof get>>) => (body(res).data.results as { id: number }[]).map((r) => r.id);
  const [s1, s2, s3] = [0, 1, 2];

  it('recent sales, newest first, in the reference shape with the filled order', async () => {
    const res = await get('/sales');
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(idsOf(res), [ids[s3], ids[s2], ids[s1]]);
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    const first = body(res).data.results[2];
    assert.deepEqual(first, {
      id: ids[s1], ens_name_id: appleId, seller_address: A1, buyer_address: A2, sale_price_wei: ONE_ETH.toString(), currency_address: ETH,
      listing_id: first.listing_id, offer_id: null, transaction_hash: tx(1), block_number: null, order_hash: first.order_hash, order_data: listingOrder,
      source: 'grails', platform_fee_wei: null, creator_fee_wei: null, metadata: { collection: { slug: 'ens' }, item_metadata: { name: 'apple.eth' } },
      sale_date: at(3).toISOString().slice(0, 10) + first.sale_date.slice(10), created_at: first.sale_date, name: 'apple.eth', token_id: first.token_id,
    });
    assert.equal(body(res).data.results[0].order_data, null);
    const paged = await get('/sales?limit=2&page=2');
    assert.deepEqual(idsOf(paged), [ids[s1]]);
    assert.deepEqual(body(paged).data.pagination, { page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
    assert.equal((await get('/sales?limit=100&page=101')).statusCode, 400);
  });

  it('sales of a name', async () => {
    const res = await get('/sales/name/Apple');
    assert.deepEqual(idsOf(res), [ids[s2], ids[s1]], show(res));
    assert.equal(res.headers['cache-control'], 'public, max-age=60');
    assert.deepEqual(idsOf(await get('/sales/name/unsold.eth')), []);
    const missing = await get('/sales/name/nothere.eth');
    assert.equal(missing.statusCode, 404, show(missing));
    assert.equal(body(missing).error.code, 'NAME_NOT_FOUND');
    assert.equal(body(await get('/sales/name/a..b')).error.code, 'INVALID_NAME');
  });

  it('sales of an address by role', async () => {
    assert.deepEqual(idsOf(await get(`/sales/address/${A2}`)), [ids[s2], ids[s1]]);
    assert.deepEqual(idsOf(await get(`/sales/address/${A2}?type=buyer`)), [ids[s1]]);
    assert.deepEqual(idsOf(await get(`/sales/address/${A2}?type=seller`)), [ids[s2]]);
    assert.deepEqual(idsOf(await get(`/sales/address/${A1}?type=both&limit=1`)), [ids[s3]]);
    const bad = await get(`/sales/address/${A2}?type=broker`);
    assert.equal(bad.statusCode, 400, show(bad));
    assert.equal(body(bad).error.details.field, 'query.type');
  });

  it("a name's figures, by name or id", async () => {
    const expected = {
      total_sales: '2', avg_price_wei: (3n * ONE_ETH / 2n).toString(), min_price_wei: ONE_ETH.toString(), max_price_wei: (2n * ONE_ETH).toString(),
    };
    let res = await get('/sales/apple.eth/analytics');
    assert.equal(res.statusCode, 200, show(res));
    const data = body(res).data;
    assert.deepEqual({ ...data, first_sale_date: undefined, last_sale_date: undefined }, { ...expected, first_sale_date: undefined, last_sale_date: undefined });
    assert.ok(data.first_sale_date < data.last_sale_date);
    res = await get(`/sales/${appleId}/analytics`);
    assert.equal(body(res).data.total_sales, '2', show(res));
    res = await get('/sales/unsold.eth/analytics');
    assert.deepEqual(body(res).data, { total_sales: '0', avg_price_wei: null, min_price_wei: null, max_price_wei: null, first_sale_date: null, last_sale_date: null });
    assert.equal((await get('/sales/987654/analytics')).statusCode, 404);
    assert.equal(body(await get('/sales/nothere.eth/analytics')).error.code, 'NAME_NOT_FOUND');
  });
});
