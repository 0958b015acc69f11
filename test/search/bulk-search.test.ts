import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, insertListing } from '../helpers/marketplace.js';
import { createActiveListing } from '../helpers/community.js';
import { DAY } from '../../src/lib/time.js';

/** POST /search/bulk and /search/bulk-filters: 10,000 terms in one request, answered without a query per term. */

type Result = { id: number; name: string; token_id: string; listings: { price: string; order_data: { signature?: string } }[]; user_vote?: unknown };

describe('bulk search', () => {
  let t: TestContext;
  let viewer: SignedIn;
  /** 10,000 terms: fillers that name nothing, with the test's names and an invalid term placed among them. */
  const terms = Array.from({ length: 10_000 }, (_, i) => `nothing${i}`);

  before(async () => {
    t = await createTestApp();
    viewer = await signIn(t.app, 3);
    const db = t.container.db;
    const owner = addressOf(0);
    const cheap = await createName(db, 'bulkcheap.eth', { owner });
    const dear = await createName(db, 'bulkdear.eth', { owner });
    await createName(db, 'bulkunlisted.eth', { owner });
    await insertListing(db, 0, cheap.id, cheap.name, ONE_ETH / 2n);
    await insertListing(db, 0, dear.id, dear.name, 3n * ONE_ETH);
    terms[0] = 'BulkDear';
    terms[1] = 'not a name!';
    terms[2] = 'bulkunlisted.eth';
    terms[4] = 'bulkcheap';
    terms[9_999] = 'bulkcheap.eth';
  });
  after(async () => { await t?.close(); });

  const post = (url: string, payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: `/api/v1/search/${url}`, payload, headers });

  it('/bulk answers a page of the 10,000 terms in order: each a name with its listings\' orders, or a placeholder', async () => {
    const res = await post('bulk', { terms, limit: 5 }, viewer.headers);
    assert.equal(res.statusCode, 200, show(res));
    const { results, pagination } = body<{ data: { results: Result[]; pagination: { total: number; totalPages: number } } }>(res).data;
    assert.deepEqual(results.map((r) => r.name), ['bulkdear.eth', 'not a name!.eth', 'bulkunlisted.eth', 'nothing3.eth', 'bulkcheap.eth']);
    assert.deepEqual(results.map((r) => r.id > 0), [true, false, true, false, true]);
    assert.equal(results[1].token_id, '');
    assert.equal(results[0].listings[0].price, (3n * ONE_ETH).toString());
    assert.match(results[0].listings[0].order_data.signature ?? '', /^0x[0-9a-f]{130}$/, 'a buyer can fill the order from the result');
    assert.equal(results[0].user_vote, null, 'signed in: the caller\'s vote is shown');
    assert.equal(pagination.total, 10_000);
    assert.equal(pagination.totalPages, 2_000);

    const last = await post('bulk', { terms, limit: 5, page: 2_000 });
    assert.deepEqual(body(last).data.results.map((r: Result) => r.name), ['nothing9995.eth', 'nothing9996.eth', 'nothing9997.eth', 'nothing9998.eth', 'bulkcheap.eth'], show(last));
  });

  it('10,001 terms are refused naming the field, on both routes', async () => {
    for (const url of ['bulk', 'bulk-filters']) {
      const res = await post(url, { terms: [...terms, 'one-more'] });
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(body(res).error.code, 'VALIDATION_ERROR', show(res));
      assert.equal(body(res).error.details.field, 'body.terms', show(res));
    }
  });

  it('/bulk-filters keeps the names that exist and pass the filters, sorted, once each, with stats', async () => {
    const res = await post('bulk-filters', { terms, filters: { listed: true }, sortBy: 'price', sortOrder: 'desc' });
    assert.equal(res.statusCode, 200, show(res));
    const data = body(res).data;
    assert.deepEqual(data.results.map((r: Result) => r.name), ['bulkdear.eth', 'bulkcheap.eth']);
    assert.equal(data.results[1].listings[0].order_data.signature.length, 132, show(res));
    assert.deepEqual(data.stats, { inputTerms: 10_000, matchedTerms: 2 });
    assert.equal(data.pagination.total, 2);

    const inOrder = await post('bulk-filters', { terms, limit: 2 });
    assert.deepEqual(body(inOrder).data.results.map((r: Result) => r.name), ['bulkdear.eth', 'bulkunlisted.eth'], 'without sortBy: the order of the terms');
    assert.equal(body(inOrder).data.pagination.total, 3, show(inOrder));

    const bad = await post('bulk-filters', { terms: ['a'], filters: { minLength: 5, maxLength: 3 } });
    assert.equal(body(bad).error.details.field, 'body.filters.maxLength', show(bad));
    const unknown = await post('bulk-filters', { terms: ['a'], filters: { colour: 'red' } });
    assert.equal(unknown.statusCode, 400, show(unknown));
    assert.match(body(unknown).error.details.field, /^body\.filters/, show(unknown));
  });

  it('/bulk-filters sent the same terms again shows names stored since, and their listings and prices as they are now', async () => {
    const db = t.container.db;
    const list = ['bulklater', 'bulkcheap', ...Array.from({ length: 998 }, (_, i) => `bulkfiller${i}`)];
    const names = async (payload: object) => {
      const res = await post('bulk-filters', payload);
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.results.map((r: Result) => r.name);
    };
    assert.deepEqual(await names({ terms: list }), ['bulkcheap.eth']);
    assert.deepEqual(await names({ terms: list }), ['bulkcheap.eth'], 'read again, the same');

    const later = await createName(db, 'bulklater.eth', { owner: addressOf(0) });
    assert.deepEqual(await names({ terms: list }), ['bulklater.eth', 'bulkcheap.eth'], 'a name stored after the list was first read');
    assert.deepEqual(await names({ terms: list, filters: { listed: true }, sortBy: 'price', sortOrder: 'asc' }), ['bulkcheap.eth']);
    await insertListing(db, 0, later.id, later.name, ONE_ETH / 4n);
    assert.deepEqual(await names({ terms: list, filters: { listed: true }, sortBy: 'price', sortOrder: 'asc' }), ['bulklater.eth', 'bulkcheap.eth'], 'listed since: in the filter, by its price');

    const other = [...list];
    other[2] = 'BulkDear.eth';
    assert.deepEqual(await names({ terms: other }), ['bulklater.eth', 'bulkcheap.eth', 'bulkdear.eth'], 'a list that differs in one term is its own list');
  });

  it('a result lists the name\'s active unexpired listings, newest first, each with its fields', async () => {
    const db = t.container.db;
    const name = await createName(db, 'bulkmany.eth', { owner: addressOf(0) });
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 30 * DAY + 123);
    const older = await createActiveListing(db, name.id, addressOf(1), { priceWei: '123456789012345678901234567890', expiresAt, createdAt: new Date(Date.now() - 2 * DAY) });
    const newer = await createActiveListing(db, name.id, addressOf(2), { priceWei: '7', expiresAt: null, createdAt: new Date(Date.now() - DAY) });
    await createActiveListing(db, name.id, addressOf(3), { expiresAt: new Date(Date.now() - DAY) });
    await createActiveListing(db, name.id, addressOf(4), { status: 'cancelled' });
    const res = await post('bulk', { terms: ['bulkmany'] });
    assert.deepEqual(body(res).data.results[0].listings, [
      { id: newer.id, price: '7', currency_address: newer.currency_address, currency_symbol: 'ETH', currency_decimals: 18, seller_address: addressOf(2),
        order_hash: newer.order_hash, order_data: {}, expires_at: null, source: 'grails', broker_address: null, broker_fee_bps: null },
      { id: older.id, price: '123456789012345678901234567890', currency_address: older.currency_address, currency_symbol: 'ETH', currency_decimals: 18,
        seller_address: addressOf(1), order_hash: older.order_hash, order_data: {}, expires_at: expiresAt.toISOString(), source: 'grails', broker_address: null, broker_fee_bps: null },
    ], show(res));
  });
});
