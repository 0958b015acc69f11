import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { insertListing, ONE_ETH } from '../helpers/marketplace.js';
import { recordActivity, viewCounterOf } from '../../src/history/index.js';
import { MAINNET } from '../../src/config.js';
import { DAY } from '../../src/lib/time.js';

const A1 = addressOf(1).toLowerCase();
const A2 = addressOf(2).toLowerCase();
const ago = (days: number) => new Date(Date.now() - days * DAY);

describe('names', () => {
  let t: TestContext;
  let apple: Awaited<ReturnType<typeof createName>>;
  let listingOrder: unknown;
  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    apple = await createName(db, 'apple.eth', { owner: A1, registrationDate: ago(400), expiryDate: ago(-100) });
    await createName(db, 'banana.eth', { owner: A1, registrationDate: ago(300), expiryDate: ago(10) });
    await createName(db, 'cherry.eth', { owner: A2, registrationDate: ago(200), expiryDate: ago(-10) });
    await createName(db, 'old.eth', { owner: A2, registrationDate: ago(1000), expiryDate: ago(200) });
    await createName(db, 'prem.eth', { registrationDate: ago(500), expiryDate: ago(100) });
    const listing = await insertListing(db, 1, apple.id, 'apple.eth', 2n * ONE_ETH);
    listingOrder = (await db.selectFrom('listings').select('order_data').where('id', '=', listing.id).executeTakeFirstOrThrow()).order_data;
    await recordActivity(db, [
      { type: 'registration', ensNameId: apple.id, actor: A2, priceWei: '5000000000000000', platform: 'ens', txHash: `0x${'a'.repeat(64)}`, block: 10, logIndex: 1, at: ago(400) },
      { type: 'sale', ensNameId: apple.id, actor: A2, counterparty: A1, priceWei: ONE_ETH, at: ago(50) },
      { type: 'transfer', ensNameId: apple.id, actor: A2, counterparty: A1, platform: 'ens', at: ago(100) },
      { type: 'vote', ensNameId: apple.id, actor: A1, at: ago(1) },
    ]);
  });
  after(async () => { await t?.close(); });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
  const namesOf = (url: string) => get(url).then((res) => {
    assert.equal(res.statusCode, 200, show(res));
    return (body(res).data.names as { name: string }[]).map((n) => n.name);
  });

  it('lists names by filter and sort; past-grace names only when asked for', async () => {
    assert.deepEqual(await namesOf('/names'), ['cherry.eth', 'banana.eth', 'apple.eth']);
    assert.deepEqual(await namesOf('/names?sort=name&order=asc'), ['apple.eth', 'banana.eth', 'cherry.eth']);
    assert.deepEqual(await namesOf('/names?sort=expiry&order=asc'), ['banana.eth', 'cherry.eth', 'apple.eth']);
    assert.deepEqual(await namesOf(`/names?owner=${A1}`), ['banana.eth', 'apple.eth']);
    // an owner's names by name and by price (each its own index, 0053): listed names first, by price
    assert.deepEqual(await namesOf(`/names?owner=${A1}&sort=name&order=desc`), ['banana.eth', 'apple.eth']);
    assert.deepEqual(await namesOf(`/names?owner=${A1}&sort=name&order=asc&limit=1&page=2`), ['banana.eth']);
    assert.deepEqual(await namesOf(`/names?owner=${A1}&sort=price&order=asc`), ['apple.eth', 'banana.eth']);
    assert.deepEqual(await namesOf(`/names?owner=${A2}&sort=price&order=desc`), ['cherry.eth']);
    assert.deepEqual(await namesOf('/names?status=listed'), ['apple.eth']);
    assert.deepEqual(await namesOf('/names?status=expiring'), ['cherry.eth']);
    assert.deepEqual(await namesOf('/names?status=grace'), ['banana.eth']);
    assert.deepEqual(await namesOf('/names?status=premium'), ['prem.eth']);
    assert.deepEqual(await namesOf('/names?status=available'), ['old.eth']);
    const res = await get('/names?sort=name&order=asc&limit=1');
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    assert.deepEqual(body(res).data.pagination, { page: 1, limit: 1, total: 3, totalPages: 3, hasNext: true, hasPrev: false });
    const item = body(res).data.names[0];
    assert.equal(item.owner_address, A1);
    assert.equal(item.status, 'registered');
    assert.deepEqual(item.listings.map((l: { price_wei: string; status: string }) => [l.price_wei, l.status]), [[(2n * ONE_ETH).toString(), 'active']]);
    assert.equal(item.last_transfer_date, ago(100).toISOString().slice(0, 13) + item.last_transfer_date.slice(13));
    const bad = await get('/names?status=sleeping');
    assert.equal(bad.statusCode, 400, show(bad));
    assert.equal(body(bad).error.details.field, 'query.status');
  });

  it('the name page carries each listing with its signed order, status, wrapped and views counted once per viewer and day', async () => {
    const res = await get('/names/Apple');
    assert.equal(res.statusCode, 200, show(res));
    const page = body(res).data;
    assert.equal(page.name, 'apple.eth');
    assert.equal(page.status, 'registered');
    assert.equal(page.wrapped, false);
    assert.deepEqual(page.listings[0].order_data, listingOrder);
    assert.equal(page.listings[0].price_wei, (2n * ONE_ETH).toString());
    assert.deepEqual(page.offers, []);
    assert.equal(res.headers['cache-control'], 'no-store');

    await get('/names/apple.eth');
    await get('/names/apple.eth/bundle');
    const user = await signIn(t.app, 4);
    await get('/names/apple.eth', user.headers);
    await get('/names/apple.eth', user.headers);
    const counter = viewCounterOf(t.container.db);
    assert.equal(await counter.flush(), 2, 'one anonymous viewer and one user today');
    counter.count(apple.id, `u:${user.userId}`);
    assert.equal(await counter.flush(), 0, 'the same viewer again the same day');
    counter.count(apple.id, `u:${user.userId}`, new Date(Date.now() + DAY));
    assert.equal(await counter.flush(), 1, 'the same viewer the next day');
    assert.equal(body(await get('/names/apple.eth')).data.view_count, 3);
    const trend = await t.container.db.selectFrom('trend_buckets').select((eb) => eb.fn.sum<number>('total').as('n')).where('metric', '=', 'views').where('ens_name_id', '=', apple.id).executeTakeFirstOrThrow();
    assert.equal(Number(trend.n), 3);

    const missing = await get('/names/nothere.eth');
    assert.equal(body(missing).error.code, 'NAME_NOT_FOUND', show(missing));
    assert.equal(body(await get('/names/a..b')).error.code, 'INVALID_NAME');
  });

  it('bundle, metadata, history and legacy', async () => {
    const bundle = body(await get('/names/apple.eth/bundle')).data;
    assert.equal(bundle.details.name, 'apple.eth');
    assert.deepEqual(bundle.offers, []);
    assert.equal(bundle.roles.owner, A1);
    assert.equal(bundle.roles.isWrapped, false);

    const meta = body(await get('/names/apple.eth/metadata')).data;
    assert.equal(meta.image, `https://metadata.ens.domains/mainnet/${MAINNET.baseRegistrar.toLowerCase()}/${apple.token_id}/image`);
    assert.equal(meta.name_length, 5);
    assert.deepEqual(meta.attributes.find((a: { trait_type: string }) => a.trait_type === 'Character Set').value, 'letter');

    const history = body(await get('/names/apple.eth/history')).data;
    assert.deepEqual(history.transactions.map((x: { transaction_type: string; from_address: string | null; to_address: string | null }) => [x.transaction_type, x.from_address, x.to_address]), [
      ['registration', null, A2], ['transfer', A2, A1], ['sale', A2, A1],
    ]);
    assert.equal(history.transactions[0].block_number, '10');
    assert.equal(history.pagination.total, 3);

    const legacy = body(await get('/names/apple.eth/legacy')).data;
    assert.equal(legacy.listing_price, (2n * ONE_ETH).toString());
    assert.deepEqual(legacy.listing_order_data, listingOrder);
    assert.equal(legacy.active_offers_count, '0');
    assert.deepEqual(legacy.recent_transactions.map((x: { transaction_type: string }) => x.transaction_type), ['sale', 'transfer', 'registration']);
  });
});
