import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { account, addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { CONTRACTS, ONE_ETH, SEAPORT, USDC, insertListing, signOrder, signedListing, signedOffer, type SignedOrder } from '../helpers/marketplace.js';
import { orderHash, orderTypedData, type OrderComponents } from '../../src/lib/seaport.js';
import { FakeChain } from './fake-chain.js';

/** The reference's /orders routes and PUT /listings/:id, with orders signed by the demo accounts' keys. */

let seq = 0;
const fresh = (tag: string) => `${tag}${++seq}x.eth`;

function assertError(res: LightMyRequestResponse, status: number, code: string, field?: string) {
  assert.equal(res.statusCode, status, show(res));
  assert.equal(body(res).error.code, code, show(res));
  if (field !== undefined) assert.equal(body(res).error.details?.field, field, show(res));
}

/** The same order with its price raised after signing: the signature no longer matches. */
function tampered(signed: SignedOrder): SignedOrder['orderData'] {
  const p = structuredClone(signed.orderData.parameters);
  p.consideration[0].startAmount = p.consideration[0].endAmount = (BigInt(p.consideration[0].startAmount) * 2n).toString();
  return { parameters: p, signature: signed.orderData.signature };
}

const item = (type: string, tokenId: string, price: bigint, signed: SignedOrder) => ({ type, token_id: tokenId, price_wei: price.toString(), order_data: signed.orderData });

describe('the orders API (no RPC)', () => {
  let t: TestContext;
  let seller: SignedIn;
  let buyer: SignedIn;
  before(async () => {
    t = await createTestApp();
    seller = await signIn(t.app, 0);
    buyer = await signIn(t.app, 1);
  });
  after(async () => { await t?.close(); });

  const send = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, who?: SignedIn, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });

  it('POST /orders stores a listing sent with order_data as a JSON string, and an offer as an object; GET and DELETE find them by id or hash', async () => {
    const n = await createName(t.container.db, fresh('save'), { owner: addressOf(0) });
    const listing = await signedListing(0, n.name, 2n * ONE_ETH);
    const res = await send('POST', '/api/v1/orders', seller, { ...item('listing', n.token_id, 2n * ONE_ETH, listing), order_data: JSON.stringify(listing.orderData), order_hash: listing.hash, seller_address: addressOf(0) });
    assert.equal(res.statusCode, 201, show(res));
    const l = body(res).data;
    assert.equal(l.order_type, 'listing');
    assert.equal(l.order_hash, listing.hash);
    assert.equal(l.price_wei, (2n * ONE_ETH).toString());
    assert.equal(l.status, 'active');
    assertError(await send('POST', '/api/v1/orders', seller, item('listing', n.token_id, 2n * ONE_ETH, listing)), 409, 'DUPLICATE_ORDER');

    for (const ref of [String(l.id), listing.hash]) {
      const got = await send('GET', `/api/v1/orders/${ref}`);
      assert.equal(got.statusCode, 200, show(got));
      assert.equal(body(got).data.id, l.id);
      assert.equal(body(got).data.seller_address, addressOf(0));
    }

    const offer = await signedOffer(1, n.name, ONE_ETH);
    const made = await send('POST', '/api/v1/orders', buyer, { ...item('offer', n.token_id, ONE_ETH, offer), buyer_address: addressOf(1) });
    assert.equal(made.statusCode, 201, show(made));
    assert.equal(body(made).data.order_type, 'offer');
    assert.equal(body(made).data.status, 'pending');
    const byHash = await send('GET', `/api/v1/orders/${offer.hash}`);
    assert.equal(body(byHash).data.order_type, 'offer', show(byHash));
    assert.equal(body(byHash).data.buyer_address, addressOf(1));

    assertError(await send('DELETE', `/api/v1/orders/${offer.hash}`, seller), 403, 'FORBIDDEN');
    const withdrawn = await send('DELETE', `/api/v1/orders/${offer.hash}`, buyer);
    assert.equal(withdrawn.statusCode, 200, show(withdrawn));
    assert.equal(body(withdrawn).data.order.status, 'rejected');
    assertError(await send('DELETE', `/api/v1/orders/${l.id}`, buyer), 403, 'FORBIDDEN');
    const cancelled = await send('DELETE', `/api/v1/orders/${l.id}`, seller);
    assert.equal(cancelled.statusCode, 200, show(cancelled));
    assert.equal(body(cancelled).data.order.status, 'cancelled');
    assert.equal(body(cancelled).data.message, 'Order cancelled successfully');
    const name = await t.container.db.selectFrom('ens_names').select(['listing_price_wei', 'highest_offer_wei']).where('id', '=', n.id).executeTakeFirstOrThrow();
    assert.equal(name.listing_price_wei, null);
    assert.equal(name.highest_offer_wei, null);

    assertError(await send('GET', `/api/v1/orders/${'0x' + 'ab'.repeat(32)}`), 404, 'ORDER_NOT_FOUND');
    assertError(await send('GET', '/api/v1/orders/999999999'), 404, 'ORDER_NOT_FOUND');
    assertError(await send('DELETE', '/api/v1/orders/999999999', seller), 404, 'ORDER_NOT_FOUND');
    assertError(await send('GET', '/api/v1/orders/abc'), 400, 'VALIDATION_ERROR', 'params.id');
  });

  it('POST /orders refuses what POST /listings refuses, naming the field as the client sent it', async () => {
    const n = await createName(t.container.db, fresh('bad'), { owner: addressOf(0) });
    const other = await createName(t.container.db, fresh('notmine'), { owner: addressOf(2) });
    const signed = await signedListing(0, n.name, ONE_ETH);
    const post = (payload: object, who = seller) => send('POST', '/api/v1/orders', who, payload);
    assertError(await post({ ...item('listing', n.token_id, ONE_ETH, signed), price_wei: '1' }), 400, 'INVALID_ORDER', 'body.price_wei');
    assertError(await post({ ...item('listing', other.token_id, ONE_ETH, signed) }), 400, 'INVALID_ORDER', 'body.token_id');
    assertError(await post({ ...item('listing', n.token_id, ONE_ETH, signed), currency_address: USDC }), 400, 'INVALID_ORDER', 'body.currency_address');
    assertError(await post({ ...item('listing', n.token_id, 2n * ONE_ETH, signed), order_data: tampered(signed) }), 400, 'INVALID_SIGNATURE', 'body.order_data.signature');
    assertError(await post(item('listing', other.token_id, ONE_ETH, await signedListing(0, other.name, ONE_ETH))), 400, 'NOT_OWNER', 'body.order_data.parameters.offerer');
    assertError(await post(item('listing', n.token_id, ONE_ETH, signed), buyer), 400, 'INVALID_ORDER', 'body.order_data.parameters.offerer');
    assertError(await post({ ...item('listing', n.token_id, ONE_ETH, signed), seller_address: addressOf(3) }), 403, 'FORBIDDEN', 'body.seller_address');
    assertError(await post({ ...item('collection_offer', n.token_id, ONE_ETH, signed) }), 400, 'UNSUPPORTED_ORDER_TYPE', 'body.type');
    assertError(await post({ ...item('listing', n.token_id, ONE_ETH, signed), order_data: '{not json' }), 400, 'VALIDATION_ERROR', 'body.order_data');
    assertError(await post({ ...item('listing', n.token_id, ONE_ETH, signed), price_wei: 1e18 }), 400, 'VALIDATION_ERROR', 'body.price_wei');
    assertError(await post({ ...item('offer', n.token_id, ONE_ETH, await signedOffer(0, n.name, ONE_ETH)) }), 400, 'INVALID_ORDER', 'body.order_data.parameters.offerer');
    const stored = await t.container.db.selectFrom('listings').select('id').where('ens_name_id', '=', n.id).execute();
    assert.equal(stored.length, 0, 'nothing refused was stored');
  });

  it('POST /orders/create builds a listing that, signed by the owner, POST /listings stores', async () => {
    const n = await createName(t.container.db, fresh('draft'), { owner: addressOf(0) });
    const res = await send('POST', '/api/v1/orders/create', undefined, { tokenId: n.token_id, price: (3n * ONE_ETH).toString(), duration: 30, offerer: addressOf(0) });
    assert.equal(res.statusCode, 200, show(res));
    const d = body(res).data;
    assert.equal(d.counterSource, 'default');
    assert.equal(d.counter, '0');
    assert.equal(d.offer[0].token, CONTRACTS.baseRegistrarAddress);
    assert.equal(d.offer[0].identifierOrCriteria, n.token_id);
    assert.equal(d.consideration[0].startAmount, (3n * ONE_ETH).toString());
    assert.equal(Number(d.endTime) - Number(d.startTime), 30 * 86_400);
    assert.equal(d.totalOriginalConsiderationItems, 1);
    assert.equal(d.domain.verifyingContract, SEAPORT.seaportAddress);
    const { orderHash: hash, counterSource: _s, totalOriginalConsiderationItems: _t, domain: _d, ...components } = d;
    assert.equal(orderHash(components as OrderComponents), hash);
    const signature = await account(0).signTypedData(orderTypedData(components as OrderComponents, SEAPORT));
    const listed = await send('POST', '/api/v1/listings', seller, { orderData: { parameters: components, signature } });
    assert.equal(listed.statusCode, 201, show(listed));
    assert.equal(body(listed).data.order_hash, hash);

    const draft = (over: object) => send('POST', '/api/v1/orders/create', undefined, { tokenId: n.token_id, price: ONE_ETH.toString(), offerer: addressOf(0), ...over });
    assertError(await draft({ offerer: addressOf(1) }), 400, 'NOT_OWNER', 'body.offerer');
    assertError(await draft({ tokenId: '12345' }), 404, 'ENS_NAME_NOT_FOUND', 'body.tokenId');
    assertError(await draft({ currency: addressOf(5) }), 400, 'UNSUPPORTED_CURRENCY', 'body.currency');
    assertError(await draft({ duration: 366 }), 400, 'VALIDATION_ERROR', 'body.duration');
    assertError(await draft({ price: '0' }), 400, 'VALIDATION_ERROR', 'body.price');
  });

  it('POST /orders/validate answers every fault field by field and stores nothing', async () => {
    const n = await createName(t.container.db, fresh('check'), { owner: addressOf(0) });
    const validate = async (orderData: unknown) => {
      const res = await send('POST', '/api/v1/orders/validate', undefined, { orderData });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data;
    };
    const good = await signedListing(0, n.name, ONE_ETH);
    const ok = await validate(JSON.stringify(good.orderData));
    assert.equal(ok.valid, true, JSON.stringify(ok));
    assert.equal(ok.kind, 'listing');
    assert.equal(ok.orderHash, good.hash);
    assert.deepEqual(ok.unchecked, ['counter', 'funds']);

    const bad = await validate(tampered(good));
    assert.equal(bad.valid, false);
    assert.deepEqual(bad.errors.map((e: { code: string; field: string }) => [e.code, e.field]), [['INVALID_SIGNATURE', 'body.orderData.signature']]);
    assert.equal(bad.messages.length, 1);

    // a listing by someone who does not own the name, of an expired order: every fault at once
    const old = Math.floor(Date.now() / 1000) - 60;
    const wrongOwner = await validate((await signedListing(1, n.name, ONE_ETH, { startTime: old - 60, endTime: old })).orderData);
    assert.deepEqual(wrongOwner.errors.map((e: { code: string; reason: string }) => [e.code, e.reason]), [['INVALID_ORDER', 'expired']]);
    const notOwner = await validate((await signedListing(1, n.name, ONE_ETH)).orderData);
    assert.deepEqual(notOwner.errors.map((e: { code: string; field: string }) => [e.code, e.field]), [['NOT_OWNER', 'body.orderData.parameters.offerer']]);

    const offer = await validate((await signedOffer(0, n.name, ONE_ETH)).orderData);
    assert.equal(offer.kind, 'offer');
    assert.deepEqual(offer.errors.map((e: { reason: string }) => e.reason), ['own_name']);

    const shape = await validate({ parameters: { ...good.orderData.parameters, salt: 'pepper' }, signature: 42 });
    assert.deepEqual(shape.errors.map((e: { code: string; field: string }) => [e.code, e.field]), [['VALIDATION_ERROR', 'body.orderData.parameters.salt'], ['VALIDATION_ERROR', 'body.orderData.signature']]);
    assert.equal((await validate('not json')).errors[0].field, 'body.orderData');

    await send('POST', '/api/v1/listings', seller, { orderData: good.orderData });
    assert.deepEqual((await validate(good.orderData)).errors.map((e: { code: string }) => e.code), ['DUPLICATE_ORDER']);
    const count = await t.container.db.selectFrom('listings').select((eb) => eb.fn.countAll<string>().as('n')).where('ens_name_id', '=', n.id).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1, 'validate stored nothing');
  });

  it('POST /orders/bulk stores the good items in one go and says per item why the others were not', async () => {
    const names = await Promise.all([0, 0, 0, 2].map((owner) => createName(t.container.db, fresh('bulk'), { owner: addressOf(owner) })));
    const [a, b, c, theirs] = names;
    const la = await signedListing(0, a.name, ONE_ETH);
    const lb = await signedListing(0, b.name, 2n * ONE_ETH);
    const stored = await signedListing(0, c.name, 3n * ONE_ETH);
    assert.equal((await send('POST', '/api/v1/listings', seller, { orderData: stored.orderData })).statusCode, 201);
    const offer = await signedOffer(0, theirs.name, ONE_ETH);
    const payload = {
      listings: [
        item('listing', a.token_id, ONE_ETH, la),
        item('listing', theirs.token_id, ONE_ETH, await signedListing(0, theirs.name, ONE_ETH)), // not the owner
        { ...item('listing', b.token_id, 4n * ONE_ETH, lb), order_data: tampered(lb) }, // tampered
        { ...item('listing', b.token_id, 2n * ONE_ETH, lb), order_data: JSON.stringify(lb.orderData) },
        item('listing', a.token_id, ONE_ETH, la), // the same order again
        item('listing', c.token_id, 3n * ONE_ETH, stored), // stored before
        item('offer', theirs.token_id, ONE_ETH, offer),
        item('collection_offer', a.token_id, ONE_ETH, la),
      ],
    };
    const res = await send('POST', '/api/v1/orders/bulk', seller, payload);
    assert.equal(res.statusCode, 207, show(res));
    const data = body(res).data;
    assert.deepEqual(data.summary, { total: 8, succeeded: 3, failed: 3, skipped: 2 });
    const r = data.results;
    assert.deepEqual(r.map((x: { status: string }) => x.status), ['created', 'failed', 'failed', 'created', 'skipped', 'skipped', 'created', 'failed']);
    assert.deepEqual([r[1].error.code, r[1].error.field], ['NOT_OWNER', 'body.listings.1.order_data.parameters.offerer']);
    assert.deepEqual([r[2].error.code, r[2].error.field], ['INVALID_SIGNATURE', 'body.listings.2.order_data.signature']);
    assert.deepEqual([r[7].error.code, r[7].error.field], ['UNSUPPORTED_ORDER_TYPE', 'body.listings.7.type']);
    assert.equal(r[4].listing_id, r[0].listing_id);
    assert.equal(r[0].order_hash, la.hash);
    assert.ok(r[5].listing_id > 0);
    assert.ok(r[6].offer_id > 0);
    const active = await t.container.db.selectFrom('listings').select('order_hash').where('ens_name_id', 'in', names.map((x) => x.id)).where('status', '=', 'active').execute();
    assert.deepEqual(active.map((x) => x.order_hash).sort(), [la.hash, lb.hash, stored.hash].sort());

    const n = await createName(t.container.db, fresh('bulkok'), { owner: addressOf(0) });
    const all = await send('POST', '/api/v1/orders/bulk', seller, { listings: [item('listing', n.token_id, ONE_ETH, await signedListing(0, n.name, ONE_ETH))] });
    assert.equal(all.statusCode, 201, show(all));
    assertError(await send('POST', '/api/v1/orders/bulk', seller, { listings: [{ ...item('listing', n.token_id, ONE_ETH, la), seller_address: addressOf(1) }] }), 403, 'FORBIDDEN', 'body.listings.0.seller_address');
    assertError(await send('POST', '/api/v1/orders/bulk', seller, { listings: [] }), 400, 'VALIDATION_ERROR');
    const tooMany = Array.from({ length: 101 }, () => item('listing', n.token_id, ONE_ETH, la));
    assertError(await send('POST', '/api/v1/orders/bulk', seller, { listings: tooMany }), 400, 'VALIDATION_ERROR');
  });

  it('PUT /listings/:id: a re-signed order at a new price replaces the listing; exactly one active listing remains', async () => {
    const n = await createName(t.container.db, fresh('update'), { owner: addressOf(0) });
    const first = body(await send('POST', '/api/v1/listings', seller, { orderData: (await signedListing(0, n.name, ONE_ETH)).orderData })).data;
    const resigned = await signedListing(0, n.name, 3n * ONE_ETH);
    const res = await send('PUT', `/api/v1/listings/${first.id}`, seller, { orderData: resigned.orderData, priceWei: (3n * ONE_ETH).toString() });
    assert.equal(res.statusCode, 200, show(res));
    const updated = body(res).data;
    assert.notEqual(updated.id, first.id);
    assert.equal(updated.price_wei, (3n * ONE_ETH).toString());
    assert.equal(updated.order_hash, resigned.hash);
    assert.equal(body(await send('GET', `/api/v1/listings/${first.id}`)).data.status, 'cancelled');
    const active = body(await send('GET', `/api/v1/listings/name/${n.name}`)).data;
    assert.deepEqual(active.map((l: { id: number }) => l.id), [updated.id]);
    const summary = await t.container.db.selectFrom('ens_names').select('listing_price_wei').where('id', '=', n.id).executeTakeFirstOrThrow();
    assert.equal(summary.listing_price_wei, (3n * ONE_ETH).toString());

    const put = (id: number, payload: object, who = seller) => send('PUT', `/api/v1/listings/${id}`, who, payload);
    assertError(await put(first.id, { orderData: (await signedListing(0, n.name, 2n * ONE_ETH)).orderData }), 409, 'INVALID_STATE');
    assertError(await put(updated.id, { orderData: (await signedListing(1, n.name, 2n * ONE_ETH)).orderData }, buyer), 403, 'FORBIDDEN');
    const elsewhere = await createName(t.container.db, fresh('other'), { owner: addressOf(0) });
    assertError(await put(updated.id, { orderData: (await signedListing(0, elsewhere.name, 2n * ONE_ETH)).orderData }), 400, 'INVALID_ORDER', 'body.orderData.parameters.offer.0');
    assertError(await put(updated.id, { orderData: (await signedListing(0, n.name, 2n * ONE_ETH)).orderData, priceWei: '5' }), 400, 'INVALID_ORDER', 'body.priceWei');
    assertError(await put(updated.id, { orderData: tampered(await signedListing(0, n.name, 2n * ONE_ETH)) }), 400, 'INVALID_SIGNATURE');
    assertError(await put(updated.id, { priceWei: '5' }), 400, 'VALIDATION_ERROR', 'body.orderData');
    assertError(await put(updated.id, {}), 400, 'NO_UPDATES');
    assertError(await put(999_999_999, { orderData: resigned.orderData }), 404, 'LISTING_NOT_FOUND');
    const stillOne = body(await send('GET', `/api/v1/listings/name/${n.name}`)).data;
    assert.deepEqual(stillOne.map((l: { id: number }) => l.id), [updated.id], 'refused updates changed nothing');
  });

  it('a listing inserted directly can be updated too (its seller, live status)', async () => {
    const n = await createName(t.container.db, fresh('direct'), { owner: addressOf(0) });
    const old = await insertListing(t.container.db, 0, n.id, n.name, ONE_ETH, { status: 'unfunded' });
    const res = await send('PUT', `/api/v1/listings/${old.id}`, seller, { orderData: (await signedListing(0, n.name, 2n * ONE_ETH)).orderData });
    assert.equal(res.statusCode, 200, show(res));
    const rows = await t.container.db.selectFrom('listings').select(['id', 'status']).where('ens_name_id', '=', n.id).orderBy('id').execute();
    assert.deepEqual(rows.map((x) => x.status), ['cancelled', 'active']);
  });
});

describe('the Seaport counter at creation, against a JSON-RPC chain', () => {
  const chain = new FakeChain();
  let t: TestContext;
  let seller: SignedIn;
  let buyer: SignedIn;
  before(async () => {
    await chain.start();
    t = await createTestApp({ ETH_RPC_URL: chain.url });
    seller = await signIn(t.app, 0);
    buyer = await signIn(t.app, 1);
    chain.counters.set(addressOf(0), 2n);
    chain.counters.set(addressOf(1), 5n);
  });
  after(async () => {
    await t?.close();
    await chain.stop();
  });

  const send = (url: string, who: SignedIn | undefined, payload: object) => t.app.inject({ method: 'POST', url, headers: who?.headers ?? {}, payload });

  it('a stale counter is 400 INVALID_ORDER with expected and got on POST /listings, /offers, /orders and /orders/bulk; the current one is stored', async () => {
    const n = await createName(t.container.db, fresh('counter'), { owner: addressOf(0) });
    const stale = await send('/api/v1/listings', seller, { orderData: (await signedListing(0, n.name, ONE_ETH)).orderData });
    assertError(stale, 400, 'INVALID_ORDER', 'body.orderData.parameters.counter');
    assert.equal(body(stale).error.details.reason, 'stale_counter');
    assert.equal(body(stale).error.details.expected, '2');
    assert.equal(body(stale).error.details.got, '0');
    assertError(await send('/api/v1/offers', buyer, { orderData: (await signedOffer(1, n.name, ONE_ETH, { counter: '4' })).orderData }), 400, 'INVALID_ORDER', 'body.orderData.parameters.counter');
    assertError(await send('/api/v1/orders', seller, item('listing', n.token_id, ONE_ETH, await signedListing(0, n.name, ONE_ETH, { counter: '3' }))), 400, 'INVALID_ORDER', 'body.order_data.parameters.counter');

    assert.equal((await send('/api/v1/listings', seller, { orderData: (await signedListing(0, n.name, ONE_ETH, { counter: '2' })).orderData })).statusCode, 201);
    assert.equal((await send('/api/v1/offers', buyer, { orderData: (await signedOffer(1, n.name, ONE_ETH, { counter: '5' })).orderData })).statusCode, 201);

    const m = await createName(t.container.db, fresh('counterbulk'), { owner: addressOf(0) });
    const bulk = await send('/api/v1/orders/bulk', seller, {
      listings: [
        item('listing', m.token_id, ONE_ETH, await signedListing(0, m.name, ONE_ETH, { counter: '2' })),
        item('listing', m.token_id, ONE_ETH, await signedListing(0, m.name, ONE_ETH, { counter: '1' })),
      ],
    });
    assert.equal(bulk.statusCode, 207, show(bulk));
    const r = body(bulk).data.results;
    assert.deepEqual(r.map((x: { status: string }) => x.status), ['created', 'failed']);
    assert.deepEqual([r[1].error.code, r[1].error.field], ['INVALID_ORDER', 'body.listings.1.order_data.parameters.counter']);
  });

  it('POST /orders/create puts the chain counter in the order; /orders/validate checks counter and funds', async () => {
    const n = await createName(t.container.db, fresh('chaincheck'), { owner: addressOf(0) });
    const draft = await send('/api/v1/orders/create', undefined, { tokenId: n.token_id, price: ONE_ETH.toString(), offerer: addressOf(0) });
    assert.equal(draft.statusCode, 200, show(draft));
    assert.equal(body(draft).data.counter, '2');
    assert.equal(body(draft).data.counterSource, 'rpc');

    const validate = async (orderData: unknown) => {
      const res = await send('/api/v1/orders/validate', undefined, { orderData });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data;
    };
    const listing = (await signedListing(0, n.name, ONE_ETH, { counter: '2' })).orderData;
    const unfunded = await validate(listing);
    assert.deepEqual(unfunded.unchecked, []);
    assert.deepEqual(unfunded.errors.map((e: { reason: string }) => e.reason), ['ownership_lost']);
    const registrar = CONTRACTS.baseRegistrarAddress.toLowerCase();
    chain.owners.set(`${registrar}:${n.token_id}`, addressOf(0));
    assert.deepEqual((await validate(listing)).errors.map((e: { reason: string }) => e.reason), ['not_approved']);
    chain.operators.set(`${registrar}:${addressOf(0)}:${SEAPORT.seaportAddress}`, true);
    assert.equal((await validate(listing)).valid, true);

    const stale = await validate((await signedListing(0, n.name, ONE_ETH, { counter: '1' })).orderData);
    assert.deepEqual(stale.errors.map((e: { reason: string; expected: string; got: string }) => [e.reason, e.expected, e.got]), [['stale_counter', '2', '1']]);

    const offer = await validate((await signedOffer(1, n.name, ONE_ETH, { counter: '5' })).orderData);
    assert.deepEqual(offer.errors.map((e: { reason: string }) => e.reason), ['insufficient_balance']);
    // a signed order from the builder, end to end
    const { orderHash: _h, counterSource: _s, totalOriginalConsiderationItems: _t, domain: _d, ...components } = body(draft).data;
    const signed = await signOrder(0, components as OrderComponents);
    const stored = await send('/api/v1/orders', seller, item('listing', n.token_id, ONE_ETH, signed));
    assert.equal(stored.statusCode, 201, show(stored));
  });
});
