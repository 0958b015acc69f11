import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ETH, ONE_ETH, WETH, insertListing, insertOffer, signedListing, signedOffer } from '../helpers/marketplace.js';
import { cancelOrdersByHash, expireDueOrders, markListingSold, markListingUnfunded, markOfferAccepted, markOfferUnfunded } from '../../src/orders/index.js';

const SELLER = addressOf(0);
const BUYER = addressOf(1);
const TX = `0x${'ab'.repeat(32)}`;

interface Event { id: number; event_type: string; actor_address: string | null; counterparty_address: string | null; price_wei: string | null; currency_address: string | null; platform: string; transaction_hash: string | null; block_number: number | null; metadata: Record<string, unknown>; name: string }

describe('order moves in the activity log', () => {
  let t: TestContext;
  let seller: SignedIn;
  let buyer: SignedIn;
  before(async () => {
    t = await createTestApp();
    [seller, buyer] = [await signIn(t.app, 0), await signIn(t.app, 1)];
  });
  after(async () => { await t?.close(); });

  const get = async (url: string): Promise<Event[]> => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}` });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data.results as Event[];
  };
  /** The events of one name, oldest first. */
  const eventsOf = async (name: string) => (await get(`/activity/${name}?limit=100`)).reverse();
  const typesOf = async (name: string) => (await eventsOf(name)).map((e) => e.event_type);
  const post = (url: string, who: SignedIn, payload: object) => t.app.inject({ method: 'POST', url, headers: who.headers, payload });

  it('a listing placed, updated (listed again) and cancelled through the API: listed, listing_updated, listing_cancelled', async () => {
    await createName(t.container.db, 'movelist.eth', { owner: SELLER });
    const first = await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'movelist.eth', ONE_ETH)).orderData });
    assert.equal(first.statusCode, 201, show(first));
    const second = await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'movelist.eth', 3n * ONE_ETH)).orderData });
    assert.equal(second.statusCode, 201, show(second));
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/listings/${body(second).data.id}`, headers: seller.headers });
    assert.equal(del.statusCode, 200, show(del));

    const events = await eventsOf('movelist.eth');
    assert.deepEqual(events.map((e) => e.event_type), ['listed', 'listing_updated', 'listing_cancelled'], JSON.stringify(events));
    const [listed, updated, cancelled] = events;
    assert.deepEqual([listed.actor_address, listed.price_wei, listed.currency_address, listed.platform], [SELLER, ONE_ETH.toString(), ETH, 'grails']);
    assert.equal(listed.metadata.listing_id, body(first).data.id);
    assert.deepEqual([updated.price_wei, updated.metadata.listing_id, updated.metadata.previous_listing_id, updated.metadata.previous_price_wei],
      [(3n * ONE_ETH).toString(), body(second).data.id, body(first).data.id, ONE_ETH.toString()]);
    assert.equal(cancelled.metadata.listing_id, body(second).data.id);
    // the seller's address page shows the same three, newest first
    assert.deepEqual((await get(`/activity/address/${SELLER}?event_type=listed,listing_updated,listing_cancelled`)).filter((e) => e.name === 'movelist.eth').map((e) => e.id), events.map((e) => e.id).reverse());
  });

  it('PUT /listings/:id with a re-signed order is one listing_updated', async () => {
    await createName(t.container.db, 'putlisting.eth', { owner: SELLER });
    const first = await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'putlisting.eth', ONE_ETH)).orderData });
    assert.equal(first.statusCode, 201, show(first));
    const put = await t.app.inject({ method: 'PUT', url: `/api/v1/listings/${body(first).data.id}`, headers: seller.headers, payload: { orderData: (await signedListing(0, 'putlisting.eth', 2n * ONE_ETH)).orderData } });
    assert.ok(put.statusCode < 300, show(put));
    const events = await eventsOf('putlisting.eth');
    assert.deepEqual(events.map((e) => [e.event_type, e.price_wei, e.metadata.previous_listing_id ?? null]),
      [['listed', ONE_ETH.toString(), null], ['listing_updated', (2n * ONE_ETH).toString(), body(first).data.id]], JSON.stringify(events));
  });

  it('an offer made, changed, accepted through the API: offer_made, offer_updated, offer_accepted with the owner as actor', async () => {
    await createName(t.container.db, 'moveoffer.eth', { owner: SELLER });
    const made = await post('/api/v1/offers', buyer, { orderData: (await signedOffer(1, 'moveoffer.eth', ONE_ETH)).orderData });
    assert.equal(made.statusCode, 201, show(made));
    const id = body(made).data.id;
    const put = (who: SignedIn, payload: object) => t.app.inject({ method: 'PUT', url: `/api/v1/offers/${id}`, headers: who.headers, payload });
    assert.equal((await put(buyer, { offerAmountWei: (2n * ONE_ETH).toString() })).statusCode, 200);
    assert.equal((await put(seller, { status: 'accepted' })).statusCode, 200);

    const events = await eventsOf('moveoffer.eth');
    assert.deepEqual(events.map((e) => e.event_type), ['offer_made', 'offer_updated', 'offer_accepted'], JSON.stringify(events));
    const [offer, changed, accepted] = events;
    assert.deepEqual([offer.actor_address, offer.counterparty_address, offer.price_wei, offer.currency_address], [BUYER, SELLER, ONE_ETH.toString(), WETH]);
    assert.deepEqual([changed.actor_address, changed.price_wei, changed.metadata.previous_amount_wei], [BUYER, (2n * ONE_ETH).toString(), ONE_ETH.toString()]);
    assert.deepEqual([accepted.actor_address, accepted.counterparty_address, accepted.metadata.offer_id], [SELLER, BUYER, id]);
    assert.deepEqual((await get(`/activity/address/${BUYER}?event_type=offer_made`)).map((e) => e.name), ['moveoffer.eth']);
  });

  it('an offer withdrawn by its buyer is offer_cancelled', async () => {
    const n = await createName(t.container.db, 'withdrawn.eth', { owner: SELLER });
    const { id } = await insertOffer(t.container.db, 1, n.id, 'withdrawn.eth', ONE_ETH);
    const res = await t.app.inject({ method: 'PUT', url: `/api/v1/offers/${id}`, headers: buyer.headers, payload: { status: 'rejected' } });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(await typesOf('withdrawn.eth'), ['offer_cancelled']);
  });

  it('automatic moves: expiry, funds, chain cancel and fills', async () => {
    const db = t.container.db;
    const n = await createName(db, 'automove.eth', { owner: SELLER });
    const past = new Date(Date.now() - 60_000);
    await insertListing(db, 0, n.id, 'automove.eth', ONE_ETH, { expiresAt: past });
    await insertOffer(db, 1, n.id, 'automove.eth', ONE_ETH, { expiresAt: past });
    await db.transaction().execute((trx) => expireDueOrders(trx));
    assert.deepEqual(await typesOf('automove.eth'), ['listing_expired', 'offer_expired']);

    const l = await insertListing(db, 0, n.id, 'automove.eth', 2n * ONE_ETH);
    const o = await insertOffer(db, 1, n.id, 'automove.eth', ONE_ETH);
    await db.transaction().execute(async (trx) => { await markListingUnfunded(trx, l.id, 'not_approved'); await markOfferUnfunded(trx, o.id, 'insufficient_balance'); });
    await db.transaction().execute((trx) => cancelOrdersByHash(trx, [l.order_hash, o.order_hash]));
    assert.deepEqual((await typesOf('automove.eth')).slice(2), ['listing_unfunded', 'offer_unfunded', 'listing_cancelled', 'offer_cancelled']);

    const sold = await insertListing(db, 0, n.id, 'automove.eth', 5n * ONE_ETH);
    const soldAt = new Date(Date.now() - 3_600_000);
    await db.transaction().execute((trx) => markListingSold(trx, sold.id, { buyer: BUYER, txHash: TX, logIndex: 7, block: 123, soldAt }));
    const accepted = await insertOffer(db, 1, n.id, 'automove.eth', 4n * ONE_ETH);
    await db.transaction().execute((trx) => markOfferAccepted(trx, accepted.id, { seller: SELLER, buyer: BUYER, txHash: TX, logIndex: 9, block: 124 }));
    const events = (await eventsOf('automove.eth')).slice(6);
    assert.deepEqual(events.map((e) => e.event_type), ['sale', 'sale', 'offer_accepted'], JSON.stringify(events));
    const [sale] = events;
    assert.deepEqual([sale.actor_address, sale.counterparty_address, sale.price_wei, sale.transaction_hash, sale.block_number, sale.metadata.listing_id],
      [SELLER, BUYER, (5n * ONE_ETH).toString(), TX, 123, sold.id]);
    const acceptance = events[2];
    assert.deepEqual([acceptance.actor_address, acceptance.counterparty_address, acceptance.transaction_hash, acceptance.block_number, acceptance.metadata.offer_id],
      [SELLER, BUYER, TX, 124, accepted.id], 'the acceptance carries the fill\'s transaction and block');
    assert.deepEqual((await get('/activity?event_type=sale')).filter((e) => e.name === 'automove.eth').length, 2);
    // the chain fill replayed: nothing new
    await db.transaction().execute((trx) => markOfferAccepted(trx, accepted.id, { seller: SELLER, buyer: BUYER, txHash: TX, logIndex: 9, block: 124 }));
    assert.equal((await eventsOf('automove.eth')).length, 9);
  });

  it('a refused move and a rolled-back change write no event', async () => {
    const db = t.container.db;
    const n = await createName(db, 'nomove.eth', { owner: SELLER });
    const l = await insertListing(db, 0, n.id, 'nomove.eth', ONE_ETH);
    const o = await insertOffer(db, 1, n.id, 'nomove.eth', ONE_ETH, { status: 'accepted' });
    const byBuyer = await t.app.inject({ method: 'DELETE', url: `/api/v1/listings/${l.id}`, headers: buyer.headers });
    assert.equal(body(byBuyer).error.code, 'FORBIDDEN', show(byBuyer));
    const final = await t.app.inject({ method: 'PUT', url: `/api/v1/offers/${o.id}`, headers: buyer.headers, payload: { status: 'rejected' } });
    assert.equal(body(final).error.code, 'INVALID_STATE', show(final));
    const notOwner = await post('/api/v1/listings', buyer, { orderData: (await signedListing(1, 'nomove.eth', ONE_ETH)).orderData });
    assert.equal(body(notOwner).error.code, 'NOT_OWNER', show(notOwner));
    await assert.rejects(db.transaction().execute(async (trx) => {
      await markListingUnfunded(trx, l.id, 'not_approved');
      throw new Error('rolled back');
    }), /rolled back/);
    assert.deepEqual(await typesOf('nomove.eth'), []);
    const listing = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${l.id}` });
    assert.equal(body(listing).data.status, 'active');
  });
});
