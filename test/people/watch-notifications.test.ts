import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, WETH, insertListing, signedListing, signedOffer } from '../helpers/marketplace.js';
import { markListingSold } from '../../src/orders/index.js';

const TX = `0x${'cd'.repeat(32)}`;

/**
 * Watchers hear of a watched name listed, its listing price dropping, an offer on it and its sale,
 * each only when their entry's flag asks for it, once per user however many lists hold the name,
 * never the parties themselves, and only when the move commits.
 */
describe('notifications to the watchers of a name', () => {
  let t: TestContext;
  let seller: SignedIn;
  let buyer: SignedIn;
  let bidder: SignedIn;
  let w1: SignedIn; // default flags, on two lists
  let w2: SignedIn; // price drops, no listings, offers from 2 ETH
  let w3: SignedIn; // every flag off
  let nameId: number;

  const post = (url: string, who: SignedIn, payload: object) => t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  /** The watcher notices written since `since` (by id), as [recipient, type]. */
  const notices = async (since: number) => (await t.container.db.selectFrom('notifications').select(['recipient_address', 'type'])
    .where('id', '>', since).where('ens_name_id', '=', nameId).where('type', 'in', ['new_listing', 'price_change', 'sale', 'new_offer'])
    .orderBy('type').orderBy('recipient_address').execute()).map((n) => [n.recipient_address, n.type]);
  const lastId = async () => Number((await t.container.db.selectFrom('notifications').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);

  before(async () => {
    t = await createTestApp();
    [seller, buyer, bidder, w1, w2, w3] = await Promise.all([0, 1, 2, 13, 14, 15].map((i) => signIn(t.app, i)));
    nameId = (await createName(t.container.db, 'watched.eth', { owner: addressOf(0) })).id;
    const watch = async (who: SignedIn, payload: object) => assert.equal((await post('/api/v1/watchlist', who, { ensName: 'watched.eth', ...payload })).statusCode, 200);
    await watch(w1, {});
    const second = body(await post('/api/v1/watchlist/lists', w1, { name: 'Again' })).data.id;
    await watch(w1, { listId: second });
    await watch(w2, { notifyOnListing: false, notifyOnPriceChange: true, minOfferThreshold: 2 });
    await watch(w3, { notifyOnSale: false, notifyOnOffer: false, notifyOnListing: false, notifyOnPriceChange: false });
    await watch(seller, {}); // the seller watching their own name hears nothing as a watcher
    await watch(buyer, {});
  });
  after(async () => { await t?.close(); });

  it('listed, then its price dropped; a raise says nothing', async () => {
    let since = await lastId();
    const listed = await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'watched.eth', 3n * ONE_ETH)).orderData });
    assert.equal(listed.statusCode, 201, show(listed));
    assert.deepEqual(await notices(since), [[w1.address, 'new_listing'], [buyer.address, 'new_listing']]);
    const n = await t.container.db.selectFrom('notifications').select(['title', 'message', 'metadata']).where('id', '>', since).where('recipient_address', '=', w1.address).executeTakeFirstOrThrow();
    assert.equal(n.title, 'watched.eth listed');
    assert.match(n.message, /3 ETH/);
    assert.equal((n.metadata as Record<string, unknown>).priceWei, (3n * ONE_ETH).toString());

    since = await lastId();
    const dropped = await t.app.inject({ method: 'PUT', url: `/api/v1/listings/${body(listed).data.id}`, headers: seller.headers, payload: { orderData: (await signedListing(0, 'watched.eth', 2n * ONE_ETH)).orderData } });
    assert.equal(dropped.statusCode, 200, show(dropped));
    assert.deepEqual(await notices(since), [[w2.address, 'price_change']]);

    since = await lastId();
    const raised = await t.app.inject({ method: 'PUT', url: `/api/v1/listings/${body(dropped).data.id}`, headers: seller.headers, payload: { orderData: (await signedListing(0, 'watched.eth', 4n * ONE_ETH)).orderData } });
    assert.equal(raised.statusCode, 200, show(raised));
    assert.deepEqual(await notices(since), []);
  });

  it('offers: each watcher with the flag, above their threshold, never the bidder', async () => {
    let since = await lastId();
    let res = await post('/api/v1/offers', bidder, { orderData: (await signedOffer(2, 'watched.eth', ONE_ETH, { currency: WETH })).orderData });
    assert.equal(res.statusCode, 201, show(res));
    assert.deepEqual(await notices(since), [[w1.address, 'new_offer'], [buyer.address, 'new_offer']], 'w2 asks for 2 ETH or more');
    since = await lastId();
    res = await post('/api/v1/offers', buyer, { orderData: (await signedOffer(1, 'watched.eth', 3n * ONE_ETH, { currency: WETH })).orderData });
    assert.equal(res.statusCode, 201, show(res));
    assert.deepEqual(await notices(since), [[w1.address, 'new_offer'], [w2.address, 'new_offer']]);
  });

  it('sold: in the transaction of the move, once per watcher; a rolled-back move writes none', async () => {
    const db = t.container.db;
    const listing = await db.selectFrom('listings').select('id').where('ens_name_id', '=', nameId).where('status', '=', 'active').executeTakeFirstOrThrow();
    let since = await lastId();
    await assert.rejects(db.transaction().execute(async (trx) => {
      await markListingSold(trx, listing.id, { buyer: addressOf(1), txHash: TX, logIndex: 1, block: 10 });
      assert.equal((await trx.selectFrom('notifications').select('id').where('id', '>', since).where('type', '=', 'sale').execute()).length, 2, 'written inside');
      throw new Error('rolled back');
    }), /rolled back/);
    assert.deepEqual(await notices(since), []);

    since = await lastId();
    await db.transaction().execute((trx) => markListingSold(trx, listing.id, { buyer: addressOf(1), txHash: TX, logIndex: 1, block: 10 }));
    assert.deepEqual(await notices(since), [[w1.address, 'sale'], [w2.address, 'sale']], 'not the seller or the buyer, not w3');
    // the fill replayed: no second notice
    since = await lastId();
    await db.transaction().execute((trx) => markListingSold(trx, listing.id, { buyer: addressOf(1), txHash: TX, logIndex: 1, block: 10 }));
    assert.deepEqual(await notices(since), []);
  });

  it('a watcher reads them through GET /notifications', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/notifications?limit=10', headers: w1.headers });
    assert.equal(res.statusCode, 200, show(res));
    const types = body(res).data.notifications.map((n: { type: string; ensName: string }) => [n.type, n.ensName]);
    assert.deepEqual(types, [['sale', 'watched.eth'], ['new_offer', 'watched.eth'], ['new_offer', 'watched.eth'], ['new_listing', 'watched.eth']]);
  });

  it('a bounded cost: a name with many watchers is one statement', async () => {
    const db = t.container.db;
    const crowd = (await createName(db, 'crowded.eth', { owner: addressOf(0) })).id;
    await db.insertInto('users').values(Array.from({ length: 2000 }, (_, i) => ({ address: `0x${(i + 1).toString(16).padStart(40, 'e')}` }))).onConflict((oc) => oc.doNothing()).execute();
    const users = await db.selectFrom('users').select('id').where('address', 'like', '0xeee%').execute();
    const lists = await db.insertInto('watchlists').values(users.map((u) => ({ user_id: u.id, name: 'Watchlist', is_default: true }))).returning(['id', 'user_id']).execute();
    await db.insertInto('watchlist_items').values(lists.map((l) => ({ list_id: l.id, user_id: l.user_id, ens_name_id: crowd }))).execute();
    const l = await insertListing(db, 0, crowd, 'crowded.eth', ONE_ETH);
    const since = await lastId();
    const started = performance.now();
    await db.transaction().execute((trx) => markListingSold(trx, l.id, { buyer: addressOf(1), txHash: `0x${'ef'.repeat(32)}`, logIndex: 2, block: 11 }));
    const ms = performance.now() - started;
    const written = await db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('id', '>', since).where('type', '=', 'sale').executeTakeFirstOrThrow();
    assert.equal(Number(written.n), users.length);
    assert.ok(ms < 2000, `the sale with ${users.length} watchers took ${ms} ms`);
  });
});
