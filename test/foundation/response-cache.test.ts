import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createName } from '../helpers/factories.js';
import { signIn } from '../helpers/accounts.js';
import { ONE_ETH, insertListing } from '../helpers/marketplace.js';

let ctx: TestContext;

before(async () => {
  ctx = await createTestApp({ RESPONSE_CACHE: 'true' });
});
after(() => ctx.close());

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

test('an anonymous GET of a route with a cache duration is served again from memory, as old as its Cache-Control allows', async () => {
  const owner = '0x00000000000000000000000000000000000000a1';
  await createName(ctx.container.db, 'first.eth', { owner });
  const url = `/api/v1/names?owner=${owner}`;
  const miss = await get(url);
  assert.equal(miss.statusCode, 200, miss.body);
  assert.equal(miss.headers['x-cache'], 'MISS');
  assert.equal(miss.headers['cache-control'], 'public, max-age=15');
  assert.equal(JSON.parse(miss.body).data.names.length, 1, miss.body);

  // a name added now is not in the kept answer: the route declares 15 s of cache
  await createName(ctx.container.db, 'second.eth', { owner });
  const hit = await get(url);
  assert.equal(hit.statusCode, 200);
  assert.equal(hit.headers['x-cache'], 'HIT');
  assert.equal(hit.body, miss.body);
  assert.equal(hit.headers['content-type'], miss.headers['content-type']);
  assert.match(String(hit.headers['cache-control']), /^public, max-age=(1[0-5]|[1-9])$/);
  assert.ok(hit.headers['x-request-id'], 'a hit still carries its own request id');

  // another URL (another page) is its own entry, and sees both names
  const other = await get(`${url}&limit=10`);
  assert.equal(other.headers['x-cache'], 'MISS');
  assert.equal(JSON.parse(other.body).data.names.length, 2, other.body);
});

test('signed-in callers, errors and routes without a cache duration are never served from it', async () => {
  const user = await signIn(ctx.app, 1);
  const url = '/api/v1/legends/0x00000000000000000000000000000000000000b2';
  const first = await get(url);
  assert.equal(first.statusCode, 200, first.body);
  assert.equal((await get(url)).headers['x-cache'], 'HIT');
  const signedIn = await get(url, user.headers);
  assert.equal(signedIn.statusCode, 200, signedIn.body);
  assert.notEqual(signedIn.headers['x-cache'], 'HIT');

  const bad = '/api/v1/names?owner=nope';
  assert.equal((await get(bad)).statusCode, 400);
  const again = await get(bad);
  assert.equal(again.statusCode, 400);
  assert.equal(again.headers['x-cache'], undefined);
  assert.equal(again.headers['cache-control'], 'no-store');

  // listings declare no cache ("no cache" in the interface): every request is fresh
  assert.equal((await get('/api/v1/listings')).headers['x-cache'], undefined);
  assert.equal((await get('/api/v1/listings')).headers['cache-control'], 'no-store');
});

test('an answer written as bytes (a signed order as stored, a name beyond ASCII) is kept and sent again byte for byte', async () => {
  const db = ctx.container.db;
  const seller = '0x00000000000000000000000000000000000000c3';
  const name = await createName(db, 'kept🦊.eth', { owner: seller });
  const listing = await insertListing(db, 0, name.id, name.name, ONE_ETH, { status: 'sold' });
  await db.insertInto('sales').values({
    ens_name_id: name.id, seller_address: seller, buyer_address: '0x00000000000000000000000000000000000000c4', price_wei: ONE_ETH.toString(),
    currency_address: '0x0000000000000000000000000000000000000000', listing_id: listing.id, order_hash: listing.order_hash, tx_hash: `0x${'c3'.repeat(32)}`,
    log_index: 0, source: 'grails', sold_at: new Date(),
  }).execute();
  const url = `/api/v1/sales/address/${seller}`;
  const miss = await get(url);
  assert.equal(miss.statusCode, 200, miss.body);
  assert.equal(miss.headers['x-cache'], 'MISS');
  const sold = JSON.parse(miss.body).data.results[0];
  assert.equal(sold.name, 'kept🦊.eth', miss.body);
  assert.equal(typeof sold.order_data.signature, 'string', miss.body);
  const hit = await get(url);
  assert.equal(hit.headers['x-cache'], 'HIT');
  assert.deepEqual(hit.rawPayload, miss.rawPayload);
  assert.equal(hit.headers['content-length'], String(miss.rawPayload.length));
  assert.equal(hit.headers['content-type'], 'application/json; charset=utf-8');
});
