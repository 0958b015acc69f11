import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { recordActivity } from '../../src/history/index.js';
import { ZERO_ADDRESS } from '../../src/lib/address.js';

const A1 = addressOf(1).toLowerCase();
const A2 = addressOf(2).toLowerCase();
const A3 = addressOf(3).toLowerCase();

describe('activity pages', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};
  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const club = await createName(db, '123.eth', { clubs: ['999'], owner: A1 });
    const apple = await createName(db, 'apple.eth', { owner: A2 });
    await createName(db, 'quiet.eth');
    // Written in this order, so ids rise: registration < listed < sale < vote.
    const write = async (key: string, e: Parameters<typeof recordActivity>[1]) => {
      await recordActivity(db, e);
      const row = await db.selectFrom('activity_events').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      ids[key] = row.id;
    };
    await write('registration', { type: 'registration', ensNameId: club.id, actor: A1, priceWei: '5000000000000000', currency: ZERO_ADDRESS, platform: 'ens', txHash: `0x${'1'.repeat(64)}`, block: 100, logIndex: 3 });
    await write('listed', { type: 'listed', ensNameId: apple.id, actor: A2, priceWei: '2000000000000000000', currency: ZERO_ADDRESS });
    await write('sale', { type: 'sale', ensNameId: apple.id, actor: A2, counterparty: A3, priceWei: '1900000000000000000', currency: ZERO_ADDRESS, platform: 'seaport', txHash: `0x${'2'.repeat(64)}`, block: 101, logIndex: 0 });
    await write('vote', { type: 'vote', ensNameId: club.id, actor: A3, metadata: { vote: 1 } });
  });
  after(async () => { await t?.close(); });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
  const idsOf = (res: Awaited<ReturnType<typeof get>>) => (body(res).data.results as { id: number }[]).map((r) => r.id);

  it('the global log is newest first with the reference fields, style B pagination and a 15 s cache', async () => {
    const res = await get('/activity');
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(idsOf(res), [ids.vote, ids.sale, ids.listed, ids.registration]);
    assert.deepEqual(body(res).data.pagination, { page: 1, limit: 50, total: 4, totalPages: 1, hasNext: false, hasPrev: false });
    assert.equal(body(res).meta.totalCapped, false);
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    const sale = body(res).data.results[1];
    assert.deepEqual({ ...sale, created_at: typeof sale.created_at }, {
      id: ids.sale, ens_name_id: sale.ens_name_id, event_type: 'sale', actor_address: A2, counterparty_address: A3, platform: 'seaport', chain_id: 1,
      price_wei: '1900000000000000000', currency_address: ZERO_ADDRESS, transaction_hash: `0x${'2'.repeat(64)}`, block_number: 101,
      metadata: {}, created_at: 'string', name: 'apple.eth', token_id: sale.token_id, clubs: [],
    });
  });

  it('filters by event type (repeated or comma-separated), platform, club, address and name', async () => {
    assert.deepEqual(idsOf(await get('/activity?event_type=sale,listed')), [ids.sale, ids.listed]);
    assert.deepEqual(idsOf(await get('/activity?event_type=sale&event_type=vote')), [ids.vote, ids.sale]);
    assert.deepEqual(idsOf(await get('/activity?platform=seaport')), [ids.sale]);
    assert.deepEqual(idsOf(await get('/activity?club=999')), [ids.vote, ids.registration]);
    assert.deepEqual(idsOf(await get('/activity?club=any&event_type=vote')), [ids.vote]);
    assert.deepEqual(idsOf(await get('/activity?club=10k')), []);
    assert.deepEqual(idsOf(await get(`/activity?address=${A3}`)), [ids.vote, ids.sale]);
    assert.deepEqual(idsOf(await get('/activity?name=Apple.eth')), [ids.sale, ids.listed]);
  });

  it('pages are bounded and counted', async () => {
    const res = await get('/activity?limit=1&page=2');
    assert.deepEqual(idsOf(res), [ids.sale], show(res));
    assert.deepEqual(body(res).data.pagination, { page: 2, limit: 1, total: 4, totalPages: 4, hasNext: true, hasPrev: true });
    const deep = await get('/activity?limit=100&page=101');
    assert.equal(deep.statusCode, 400, show(deep));
    assert.equal(body(deep).error.details.field, 'query.page');
  });

  it('rejects unknown event types and bad parameters with the field named', async () => {
    let res = await get('/activity?event_type=sale,bogus');
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    assert.equal(body(res).error.details.field, 'query.event_type');
    res = await get('/activity?platform=Not%20A%20Platform');
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.details.field, 'query.platform');
    res = await get('/activity/address/0x123');
    assert.equal(res.statusCode, 400, show(res));
    res = await get('/activity?name=nothere.eth');
    assert.equal(body(res).error.code, 'NAME_NOT_FOUND', show(res));
  });

  it('one name and one address', async () => {
    assert.deepEqual(idsOf(await get('/activity/apple.eth')), [ids.sale, ids.listed]);
    assert.deepEqual(idsOf(await get('/activity/apple.eth?event_type=listed')), [ids.listed]);
    assert.deepEqual(idsOf(await get('/activity/quiet.eth')), []);
    assert.deepEqual(idsOf(await get(`/activity/address/${A2.toUpperCase().replace('0X', '0x')}`)), [ids.sale, ids.listed]);
    assert.deepEqual(idsOf(await get(`/activity/address/${A2}?platform=grails`)), [ids.listed]);
    let res = await get('/activity/nothere.eth');
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND');
    res = await get('/activity/a..b');
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'INVALID_NAME');
  });

  it("the feed shows activity on the caller's names and needs a token", async () => {
    let res = await get('/feed');
    assert.equal(res.statusCode, 401, show(res));
    res = await get('/feed', { authorization: 'Bearer not-a-token' });
    assert.equal(res.statusCode, 401, show(res));
    const owner = await signIn(t.app, 2);
    res = await get('/feed', { authorization: `Bearer ${owner.token}` });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(idsOf(res), [ids.sale, ids.listed]);
    assert.equal(res.headers['cache-control'], 'no-store');
    const clubOwner = await signIn(t.app, 1);
    res = await get('/feed?event_type=vote', { authorization: `Bearer ${clubOwner.token}` });
    assert.deepEqual(idsOf(res), [ids.vote]);
  });
});
