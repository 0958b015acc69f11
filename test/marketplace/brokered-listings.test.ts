import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { brokerNameIds, brokerPageAtOnce, brokerPageRows } from '../../src/orders/brokered.repository.js';
import { ONE_ETH, WETH, insertListing, signOrder, signedListing, type SignedOrder } from '../helpers/marketplace.js';

/** The reference's /brokered-listings: listings whose signed order pays a broker, with orders signed by the demo accounts' keys. */

let seq = 0;
const fresh = (tag: string) => `${tag}${++seq}brk.eth`;
const BROKER = addressOf(5);
const OTHER_BROKER = addressOf(6);

function assertError(res: LightMyRequestResponse, status: number, code: string, field?: string, reason?: string) {
  assert.equal(res.statusCode, status, show(res));
  assert.equal(body(res).error.code, code, show(res));
  if (field !== undefined) assert.equal(body(res).error.details?.field, field, show(res));
  if (reason !== undefined) assert.equal(body(res).error.details?.reason, reason, show(res));
}

describe('brokered listings', () => {
  let t: TestContext;
  let seller: SignedIn;
  let other: SignedIn;
  /** Every brokered listing this file stores: [broker, fee bps], for the stats' hand-computed sums. */
  const stored: { broker: string; bps: number; id: number }[] = [];

  before(async () => {
    t = await createTestApp({ BROKER_MIN_FEE_BPS: '100', BROKER_MAX_FEE_BPS: '1000' });
    seller = await signIn(t.app, 0);
    other = await signIn(t.app, 1);
  });
  after(async () => { await t?.close(); });

  const post = (payload: object, who: SignedIn | null = seller) =>
    t.app.inject({ method: 'POST', url: '/api/v1/brokered-listings', headers: who?.headers ?? {}, payload });

  /** A name of account 0 and the original's body for listing it at `price` through `broker` at `bps`, the order paying `feeBps`. */
  async function brokered(price: bigint, broker: string, bps: number, o: { feeTo?: string; feeBps?: number; order?: SignedOrder } = {}) {
    const n = await createName(t.container.db, fresh('b'), { owner: addressOf(0) });
    const signed = o.order ?? await signedListing(0, n.name, price, { fee: { recipient: o.feeTo ?? broker, bps: o.feeBps ?? bps } });
    return {
      name: n,
      signed,
      payload: {
        token_id: n.token_id, price_wei: price.toString(), order_data: JSON.stringify(signed.orderData), order_hash: signed.hash,
        seller_address: addressOf(0).toUpperCase().replace('0X', '0x'), broker_address: broker, broker_fee_bps: bps,
      },
    };
  }

  it('GET /config answers the configured bounds', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/brokered-listings/config' });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { minFeeBasisPoints: 100, minFeePercent: 1, maxFeeBasisPoints: 1000, maxFeePercent: 10 });
  });

  it('POST stores a listing whose order pays the broker its fee, through the one order path', async () => {
    const b = await brokered(2n * ONE_ETH, BROKER, 250);
    const res = await post(b.payload);
    assert.equal(res.statusCode, 201, show(res));
    const l = body(res).data;
    assert.equal(l.broker_address, BROKER.toLowerCase());
    assert.equal(l.broker_fee_bps, 250);
    assert.equal(l.price_wei, (2n * ONE_ETH).toString());
    assert.equal(l.seller_address, addressOf(0).toLowerCase());
    assert.equal(l.order_hash, b.signed.hash);
    assert.equal(l.status, 'active');
    stored.push({ broker: BROKER, bps: 250, id: l.id });
    // The listing is a listing: GET /listings/:id shows it, a second copy is a duplicate.
    const got = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${l.id}` });
    assert.equal(body(got).data.broker_address, BROKER.toLowerCase(), show(got));
    assertError(await post(b.payload), 409, 'DUPLICATE_ORDER');
  });

  it('a fee over the cap is refused, here and on POST /listings; below the minimum too', async () => {
    const over = await brokered(ONE_ETH, BROKER, 1500);
    assertError(await post(over.payload), 400, 'BROKER_FEE_TOO_HIGH', 'body.broker_fee_bps');
    const plain = await t.app.inject({ method: 'POST', url: '/api/v1/listings', headers: seller.headers, payload: { orderData: over.signed.orderData } });
    assertError(plain, 400, 'BROKER_FEE_TOO_HIGH');
    const low = await brokered(ONE_ETH, BROKER, 50);
    assertError(await post(low.payload), 400, 'BROKER_FEE_TOO_LOW', 'body.broker_fee_bps');
    // The claim within bounds but the order paying more than it says.
    const more = await brokered(ONE_ETH, BROKER, 300, { feeBps: 900 });
    assertError(await post(more.payload), 400, 'INVALID_FEE', 'body.order_data.parameters.consideration.1.startAmount', 'fee_amount');
  });

  it('an order paying someone else than the named broker is refused', async () => {
    const b = await brokered(ONE_ETH, BROKER, 250, { feeTo: addressOf(7) });
    assertError(await post(b.payload), 400, 'INVALID_FEE', 'body.order_data.parameters.consideration', 'no_broker_item');
    const self = await brokered(ONE_ETH, addressOf(0), 250);
    assertError(await post(self.payload), 400, 'SELF_BROKER_NOT_ALLOWED', 'body.broker_address');
  });

  it('a fee in another currency than the price is refused, naming the item', async () => {
    const n = await createName(t.container.db, fresh('cur'), { owner: addressOf(0) });
    const eth = await signedListing(0, n.name, ONE_ETH, { fee: { recipient: BROKER, bps: 250 } });
    const p = structuredClone(eth.orderData.parameters);
    p.consideration[1] = { ...p.consideration[1], itemType: 1, token: WETH.toLowerCase() };
    const signed = await signOrder(0, p);
    const b = await brokered(ONE_ETH, BROKER, 250, { order: signed });
    assertError(await post({ ...b.payload, token_id: n.token_id }), 400, 'INVALID_FEE', 'body.order_data.parameters.consideration.1.token', 'fee_currency');
  });

  it('only the signed-in seller lists: another seller_address is 403, no token 401', async () => {
    const b = await brokered(ONE_ETH, BROKER, 250);
    assertError(await post(b.payload, other), 403, 'FORBIDDEN', 'body.seller_address');
    assertError(await post(b.payload, null), 401, 'UNAUTHORIZED');
    assertError(await post({ ...b.payload, broker_fee_bps: 10_001 }), 400, 'VALIDATION_ERROR', 'body.broker_fee_bps');
  });

  it('GET /broker/:address pages the broker\'s names with its listings; /stats sums every brokered listing', async () => {
    const prices = [[ONE_ETH, BROKER, 500], [3n * ONE_ETH, OTHER_BROKER, 100], [ONE_ETH / 2n, BROKER, 1000]] as const;
    const ids: number[] = [];
    for (const [price, broker, bps] of prices) {
      const b = await brokered(price, broker, bps);
      const res = await post(b.payload);
      assert.equal(res.statusCode, 201, show(res));
      stored.push({ broker, bps, id: body(res).data.id });
      ids.push(body(res).data.id);
    }
    // A listing from POST /listings whose order pays a fee is brokered too.
    const n = await createName(t.container.db, fresh('plain'), { owner: addressOf(0) });
    const plain = await signedListing(0, n.name, ONE_ETH, { fee: { recipient: OTHER_BROKER, bps: 400 } });
    const made = await t.app.inject({ method: 'POST', url: '/api/v1/listings', headers: seller.headers, payload: { orderData: plain.orderData } });
    assert.equal(made.statusCode, 201, show(made));
    assert.equal(body(made).data.broker_fee_bps, 400);
    stored.push({ broker: OTHER_BROKER, bps: 400, id: body(made).data.id });
    // One sold (as the chain sync would record it) and one cancelled by its seller.
    await t.container.db.updateTable('listings').set({ status: 'sold' }).where('id', '=', ids[0]).execute();
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/listings/${ids[2]}`, headers: seller.headers });
    assert.equal(del.statusCode, 200, show(del));

    const page = await t.app.inject({ method: 'GET', url: `/api/v1/brokered-listings/broker/${BROKER.toUpperCase().replace('0X', '0x')}` });
    assert.equal(page.statusCode, 200, show(page));
    const mine = stored.filter((s) => s.broker === BROKER);
    assert.equal(body(page).data.pagination.total, mine.length, show(page));
    const listed = body(page).data.results.map((r: { listings: { id: number }[] }) => r.listings.map((l) => l.id)).flat();
    assert.deepEqual(listed, mine.map((s) => s.id).reverse(), 'newest first');
    const first = body(page).data.results[0];
    assert.equal(first.listings[0].status, 'cancelled');
    assert.equal(typeof first.listings[0].order_data, 'object');
    assert.ok(first.name.endsWith('.eth') && first.token_id, show(page));

    const sold = await t.app.inject({ method: 'GET', url: `/api/v1/brokered-listings/broker/${BROKER}?status=sold&limit=1` });
    assert.deepEqual(body(sold).data.results.map((r: { listings: { id: number }[] }) => r.listings[0].id), [ids[0]], show(sold));
    assert.equal(body(sold).data.pagination.total, 1);
    const none = await t.app.inject({ method: 'GET', url: `/api/v1/brokered-listings/broker/${addressOf(9)}` });
    assert.deepEqual(body(none).data.results, [], show(none));
    assertError(await t.app.inject({ method: 'GET', url: '/api/v1/brokered-listings/broker/not-an-address' }), 400, 'VALIDATION_ERROR', 'params.address');

    const stats = await t.app.inject({ method: 'GET', url: '/api/v1/brokered-listings/stats' });
    assert.equal(stats.statusCode, 200, show(stats));
    assert.equal(stats.headers['cache-control'], 'public, max-age=30');
    // By hand: 5 brokered listings (250, 500 sold, 100, 1000 cancelled, 400), two brokers.
    assert.deepEqual(body(stats).data, { activeBrokeredListings: 3, soldBrokeredListings: 1, uniqueBrokers: 2, averageBrokerFeeBps: 450 });
  });

  it('a broker\'s names page in order of each name\'s newest listing, ties on name id, across pages', async () => {
    const db = t.container.db;
    const broker = addressOf(7);
    const base = Date.now() - 86_400_000;
    // name → minutes after `base` of each of its listings; b and c tie on their newest, a has an older second one
    const plan: Record<string, number[]> = { a: [10, 1], b: [5, 20], c: [20], d: [3], e: [15], f: [15, 15] };
    // names made first, listings in reverse: a later name has older listing ids, so ties cannot follow listing order
    const names = [];
    for (const tag of Object.keys(plan)) names.push({ tag, n: await createName(db, fresh(`walk${tag}`), { owner: addressOf(0) }) });
    for (const { tag, n } of names.reverse()) {
      for (const [seller, m] of plan[tag].entries()) {
        const l = await insertListing(db, seller, n.id, n.name, ONE_ETH, { createdAt: new Date(base + m * 60_000) });
        await db.updateTable('listings').set({ broker_address: broker, broker_fee_bps: 100 }).where('id', '=', l.id).execute();
      }
    }
    // the definition: names by their newest listing, then name id, both descending
    const expected = (await db.selectFrom('listings').select(['ens_name_id']).where('broker_address', '=', broker)
      .groupBy('ens_name_id').orderBy((eb) => eb.fn.max('created_at'), 'desc').orderBy('ens_name_id', 'desc').execute()).map((r) => r.ens_name_id);
    assert.equal(expected.length, 6);
    for (const limit of [1, 2, 4]) {
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(6 / limit); page++) {
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/brokered-listings/broker/${broker}?limit=${limit}&page=${page}` });
        assert.equal(res.statusCode, 200, show(res));
        assert.equal(body(res).data.pagination.total, 6);
        seen.push(...body(res).data.results.map((r: { id: number }) => r.id));
      }
      assert.deepEqual(seen, expected, `limit ${limit}`);
    }
    // A page is read with its rows in one statement when the walk's first batch (twice the
    // listings the page reaches) settles it, the same page the two-statement path reads; when it
    // does not, or the page is empty, undefined, and the service reads it in two. Newest first the
    // listings are b and c at 20 minutes, then e and f (twice) at 15: one name wanted, two listings
    // walked (both at 20) cannot tell whether a third name at 20 follows.
    assert.equal(await brokerPageAtOnce(db, broker, undefined, 1, 0), undefined);
    for (const [limit, offset] of [[2, 0], [2, 2], [3, 0], [3, 3], [4, 0], [4, 4], [6, 0], [10, 0]] as const) {
      const once = await brokerPageAtOnce(db, broker, undefined, limit, offset);
      const two = await brokerPageRows(db, broker, undefined, await brokerNameIds(db, broker, undefined, limit, offset));
      assert.deepEqual(two.map((r) => r.id), expected.slice(offset, offset + limit), `limit ${limit} offset ${offset}`);
      const values = (rows: { json: string }[] | undefined) => rows?.map((r) => JSON.parse(r.json) as unknown);
      assert.deepEqual(values(once), values(two), `limit ${limit} offset ${offset}: the last page too (its walk read every listing)`);
    }
    assert.equal(await brokerPageAtOnce(db, broker, undefined, 2, 6), undefined, 'past the last name: empty, read in two to tell');
    assert.equal(await brokerPageAtOnce(db, addressOf(19), undefined, 20, 0), undefined, 'a broker without listings: the same');
    assert.ok(await brokerPageAtOnce(db, broker, undefined, 2, 0), 'two names wanted: the four newest listings settle them');
  });

  it('a broker\'s page read again shows every change since: the name, a listing\'s row, its end time passing, a new listing, ids past 32 bits', async () => {
    const db = t.container.db;
    const broker = addressOf(8);
    const n = await createName(db, fresh('again'), { owner: addressOf(0) });
    const brokered = async (created: { id: number }) => {
      await db.updateTable('listings').set({ broker_address: broker, broker_fee_bps: 100 }).where('id', '=', created.id).execute();
      return created.id;
    };
    const expires = Date.now() + 6_000; // time for the reads below on a busy machine
    const first = await brokered(await insertListing(db, 0, n.id, n.name, ONE_ETH, { expiresAt: new Date(expires), createdAt: new Date(Date.now() - 60_000) }));
    // an id past 32 bits, as a busy market's ids will be
    await db.updateTable('listings').set({ id: 3_000_000_007 }).where('id', '=', first).execute();
    type Page = { id: number; upvotes: number; listings: { id: number; status: string; broker_fee_bps: number; price: string }[] }[];
    const once = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/brokered-listings/broker/${broker}${query}` });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.results as Page;
    };
    // Read three times, the same each time: a page read first (whole), then again (its rows'
    // versions; what changed read by id), then again with every text kept.
    const read = async (query = '') => {
      const page = await once(query);
      for (let i = 0; i < 2; i++) assert.deepEqual(await once(query), page, `${query} read again`);
      return page;
    };
    const start = await read();
    assert.deepEqual(start.map((r) => r.listings.map((l) => [l.id, l.status])), [[[3_000_000_007, 'active']]]);

    await db.updateTable('ens_names').set((eb) => ({ upvotes: eb('upvotes', '+', 3) })).where('id', '=', n.id).execute();
    assert.equal((await read())[0].upvotes, start[0].upvotes + 3, 'the name\'s row changed');
    await db.updateTable('listings').set({ broker_fee_bps: 250 }).where('id', '=', 3_000_000_007).execute();
    assert.equal((await read())[0].listings[0].broker_fee_bps, 250, 'the listing\'s row changed');

    const second = await brokered(await insertListing(db, 1, n.id, n.name, 2n * ONE_ETH));
    assert.deepEqual((await read())[0].listings.map((l) => [l.id, l.price]), [[second, (2n * ONE_ETH).toString()], [3_000_000_007, ONE_ETH.toString()]], 'a new listing, newest first');
    assert.deepEqual((await read('?status=active'))[0].listings.map((l) => l.id), [second, 3_000_000_007]);

    // no write: the first listing's end time passes; the same pages show it expired, or no longer active
    await new Promise((r) => setTimeout(r, Math.max(0, expires - Date.now() + 50)));
    assert.deepEqual((await once(''))[0].listings.map((l) => [l.id, l.status]), [[second, 'active'], [3_000_000_007, 'expired']]);
    assert.deepEqual((await read(''))[0].listings.map((l) => [l.id, l.status]), [[second, 'active'], [3_000_000_007, 'expired']]);
    assert.deepEqual((await once('?status=active'))[0].listings.map((l) => l.id), [second]);
    assert.deepEqual((await read('?status=expired'))[0].listings.map((l) => l.id), [3_000_000_007]);
  });
});
