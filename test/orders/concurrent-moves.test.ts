import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ETH, ONE_ETH, insertListing, insertOffer, signedListing, signedOffer } from '../helpers/marketplace.js';
import type { Executor } from '../../src/db/client.js';
import { marketplaceOrderEffects, markOfferUnfunded, restoreOffer, sweepExpiredOrders } from '../../src/orders/index.js';

/**
 * 50 moves of every kind on one name, started together: the buyers' and the owner's offer updates,
 * new offers, new listings and cancels over HTTP, and the expiry sweep, funds re-checks, chain fills
 * and chain cancels through the order domain's door. Whatever order the locks let them run in, the
 * name's summaries must end equal to its orders: the highest offer is the largest live pending offer,
 * and at most one listing is active, the one the listing summary names. No move may fail with a
 * deadlock or a 500.
 */

const MOVES = 50;

describe('50 concurrent mixed moves on one name', () => {
  let t: TestContext;
  let people: SignedIn[];
  before(async () => {
    t = await createTestApp();
    people = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => signIn(t.app, i)));
  });
  after(async () => { await t?.close(); });

  async function round(label: string, seed: number) {
    const db = t.container.db;
    const name = await createName(db, label, { owner: addressOf(0) });
    const offers: Array<{ id: number; order_hash: string; by: number }> = [];
    for (let k = 0; k < 16; k++) {
      const by = 1 + (k % 9);
      // every fourth offer has just passed its end time: the sweep has work, and updates see it expired
      const ended = k % 4 === 3 ? { expiresAt: new Date(Date.now() - 1000) } : {};
      offers.push({ ...(await insertOffer(db, by, name.id, label, BigInt(k + 1) * ONE_ETH / 10n, ended)), by });
    }
    const listing = await insertListing(db, 0, name.id, label, 5n * ONE_ETH);

    // mulberry32: a seeded, evenly spread choice, so a failing round can be replayed
    let state = seed;
    const rand = (n: number) => {
      state = (state + 0x6d2b79f5) | 0;
      let x = Math.imul(state ^ (state >>> 15), 1 | state);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    const pick = () => offers[rand(offers.length)];
    // signing costs CPU: sign first, so that the moves really start together
    const newListings = await Promise.all([1n, 2n, 3n, 4n, 6n].map((p) => signedListing(0, label, p * ONE_ETH)));
    const newOffers = await Promise.all([2, 4, 6, 8, 9].map((by, k) => signedOffer(by, label, BigInt(7 + k) * ONE_ETH / 10n)));
    const effects = marketplaceOrderEffects();
    const inTrx = <T>(work: (trx: Executor) => Promise<T>) => db.transaction().execute(work);
    const put = (id: number, who: SignedIn, payload: object) => t.app.inject({ method: 'PUT', url: `/api/v1/offers/${id}`, headers: who.headers, payload });

    const moves: Array<() => Promise<LightMyRequestResponse | unknown>> = [];
    for (let k = 0; k < 20; k++) {
      const o = pick();
      const roll = rand(6);
      if (roll < 3) moves.push(() => put(o.id, people[o.by], { offerAmountWei: (BigInt(1 + rand(3000)) * ONE_ETH / 1000n).toString() }));
      else if (roll === 3) moves.push(() => put(o.id, people[o.by], { status: 'rejected' }));
      else if (roll === 4) moves.push(() => put(o.id, people[o.by], { status: rand(2) === 0 ? 'unfunded' : 'pending' }));
      else moves.push(() => put(o.id, people[0], { status: rand(2) === 0 ? 'accepted' : 'expired' }));
    }
    for (const signed of newListings) moves.push(() => t.app.inject({ method: 'POST', url: '/api/v1/listings', headers: people[0].headers, payload: { orderData: signed.orderData } }));
    for (const [k, signed] of newOffers.entries()) moves.push(() => t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: people[[2, 4, 6, 8, 9][k]].headers, payload: { orderData: signed.orderData } }));
    moves.push(() => t.app.inject({ method: 'DELETE', url: `/api/v1/listings/${listing.id}`, headers: people[0].headers }));
    for (let k = 0; k < 4; k++) moves.push(() => sweepExpiredOrders(t.container));
    for (let k = 0; k < 3; k++) {
      const o = pick();
      moves.push(() => inTrx((trx) => (k === 0 ? restoreOffer(trx, o.id) : markOfferUnfunded(trx, o.id, 'insufficient_balance'))));
    }
    const sale = (logIndex: number) => ({ ensNameId: name.id, seller: addressOf(0), buyer: addressOf(1), priceWei: ONE_ETH.toString(), currency: ETH, txHash: `0x${(seed * 1000 + logIndex).toString(16).padStart(64, '0')}`, logIndex, block: 1, soldAt: new Date(), recordSale: true });
    moves.push(() => inTrx((trx) => effects.orderFilled(trx, { ...sale(1), side: 'listing', orderId: listing.id })));
    for (let k = 0; k < 2; k++) {
      const o = pick();
      moves.push(() => inTrx((trx) => effects.orderFilled(trx, { ...sale(2 + k), side: 'offer', orderId: o.id, buyer: addressOf(o.by) })));
    }
    for (let k = 0; k < 3; k++) {
      const o = pick();
      moves.push(() => inTrx((trx) => effects.orderCancelled(trx, o.order_hash, addressOf(o.by), { txHash: sale(10 + k).txHash, block: 1, logIndex: 10 + k, at: new Date() })));
    }
    moves.push(() => inTrx((trx) => effects.ownerChanged(trx, name.id, addressOf(0), addressOf(0), new Date())));
    for (let k = 0; moves.length < MOVES; k++) moves.push(() => put(offers[k].id, people[offers[k].by], { offerAmountWei: (BigInt(k + 2) * ONE_ETH / 7n).toString() }));
    assert.equal(moves.length, MOVES);

    // a deadlock or any other failure of an automatic move rejects Promise.all and fails the test
    const results = await Promise.all(moves.map((move) => move()));
    const responses = results.filter((r): r is LightMyRequestResponse => typeof r === 'object' && r !== null && 'statusCode' in r);
    for (const r of responses) assert.ok([200, 201, 409].includes(r.statusCode), show(r));
    assert.ok(responses.filter((r) => r.statusCode < 300).length >= 15, 'most user moves went through');

    const live = await db.selectFrom('offers').select(['id', 'offer_amount_wei'])
      .where('ens_name_id', '=', name.id).where('status', '=', 'pending')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .orderBy('offer_amount_wei', 'desc').orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    const summary = await db.selectFrom('ens_names').select(['highest_offer_id', 'highest_offer_wei', 'listing_created_at', 'listing_price_wei']).where('id', '=', name.id).executeTakeFirstOrThrow();
    assert.equal(summary.highest_offer_id, live[0]?.id ?? null, `highest offer among ${live.length} pending offers`);
    assert.equal(summary.highest_offer_wei, live[0]?.offer_amount_wei ?? null);

    const active = await db.selectFrom('listings').select(['id', 'created_at', 'price_wei'])
      .where('ens_name_id', '=', name.id).where('status', '=', 'active').execute();
    assert.ok(active.length <= 1, `at most one active listing, found ${active.length}`);
    assert.equal(summary.listing_created_at?.getTime(), active[0]?.created_at.getTime());
    assert.equal(summary.listing_price_wei, active[0]?.price_wei ?? null);
    // the seller's new listings replaced one another: exactly one of them is still active
    assert.equal(active.length, 1);
  }

  it('leave the summaries equal to the orders (three rounds)', async () => {
    for (const [k, seed] of [7, 42, 1234].entries()) await round(`crowd${k}x.eth`, seed);
  });
});
