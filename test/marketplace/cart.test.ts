import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, insertListing, insertOffer } from '../helpers/marketplace.js';

const DAY = 86_400_000;

describe('cart', () => {
  let t: TestContext;
  let alice: SignedIn;
  let bob: SignedIn;
  const id: Record<string, number> = {};

  before(async () => {
    t = await createTestApp();
    alice = await signIn(t.app, 3);
    bob = await signIn(t.app, 4);
    const db = t.container.db;
    for (const n of ['listed1', 'listed2', 'listed3']) {
      id[n] = (await createName(db, `${n}.eth`, { owner: addressOf(0) })).id;
      await insertListing(db, 0, id[n], `${n}.eth`, 2n * ONE_ETH);
    }
    await insertOffer(db, 5, id.listed1, 'listed1.eth', ONE_ETH);
    id.expired = (await createName(db, 'lapsed.eth', { owner: addressOf(0), expiryDate: new Date(Date.now() - 200 * DAY) })).id;
    id.grace = (await createName(db, 'ingrace.eth', { owner: addressOf(0), expiryDate: new Date(Date.now() - 5 * DAY) })).id;
    id.plain = (await createName(db, 'unlisted.eth', { owner: addressOf(0) })).id;
  });
  after(async () => { await t?.close(); });

  const add = (who: SignedIn | undefined, payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/cart', headers: who?.headers ?? {}, payload });
  const get = (who: SignedIn | undefined, query = '') => t.app.inject({ method: 'GET', url: `/api/v1/cart${query}`, headers: who?.headers ?? {} });
  const clear = (who: SignedIn | undefined, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'DELETE', url: '/api/v1/cart', headers: { ...(who?.headers ?? {}), ...headers }, ...(payload === undefined ? {} : { payload: payload as string }) });

  function expectError(res: Awaited<ReturnType<typeof add>>, status: number, code: string) {
    assert.equal(res.statusCode, status, show(res));
    assert.equal(body(res).error.code, code, show(res));
  }

  it('adds names by id or by name, each user to their own cart', async () => {
    const r1 = await add(alice, { ensNameId: id.listed1, cartType: 'buy' });
    assert.equal(r1.statusCode, 201, show(r1));
    assert.deepEqual({ ...body(r1).data, cartItemId: 0, addedAt: 0 }, { cartItemId: 0, cartType: 'buy', ensNameId: id.listed1, name: 'listed1.eth', addedAt: 0 });
    assert.equal((await add(alice, { name: 'LISTED2.eth', cartType: 'buy' })).statusCode, 201);
    assert.equal((await add(alice, { name: 'lapsed', cartType: 'register' })).statusCode, 201);
    assert.equal((await add(alice, { ensNameId: id.grace, cartType: 'register' })).statusCode, 201);
    assert.equal((await add(bob, { ensNameId: id.listed1, cartType: 'buy' })).statusCode, 201);
    assert.equal((await add(bob, { ensNameId: id.listed3, cartType: 'buy' })).statusCode, 201);
  });

  it('refuses duplicates, unknown types and names, names that do not fit the cart type', async () => {
    expectError(await add(alice, { ensNameId: id.listed1, cartType: 'buy' }), 409, 'ALREADY_IN_CART');
    expectError(await add(alice, { ensNameId: id.listed1, cartType: 'wishlist' }), 400, 'INVALID_CART_TYPE');
    expectError(await add(alice, { ensNameId: 999999, cartType: 'buy' }), 404, 'ENS_NAME_NOT_FOUND');
    expectError(await add(alice, { name: 'not..valid', cartType: 'buy' }), 400, 'INVALID_NAME');
    expectError(await add(alice, { cartType: 'buy' }), 400, 'VALIDATION_ERROR');
    expectError(await add(alice, { ensNameId: id.listed1, cartType: 5 }), 400, 'VALIDATION_ERROR');
    expectError(await add(alice, { ensNameId: id.plain, cartType: 'buy' }), 409, 'INVALID_STATE');
    expectError(await add(alice, { ensNameId: id.listed3, cartType: 'register' }), 409, 'INVALID_STATE');
    expectError(await add(undefined, { ensNameId: id.listed1, cartType: 'buy' }), 401, 'UNAUTHORIZED');
  });

  it('lists only the caller\'s items, newest first, with name, active listing and highest offer', async () => {
    const res = await get(alice);
    assert.equal(res.statusCode, 200, show(res));
    const items = body(res).data.items;
    assert.deepEqual(items.map((i: { name: string }) => i.name), ['ingrace.eth', 'lapsed.eth', 'listed2.eth', 'listed1.eth']);
    const first = items.find((i: { name: string }) => i.name === 'listed1.eth');
    assert.equal(first.cartType, 'buy');
    assert.equal(first.id, id.listed1);
    assert.equal(first.listings.length, 1);
    assert.equal(first.listings[0].price, (2n * ONE_ETH).toString());
    assert.equal(first.highest_offer_wei, ONE_ETH.toString());
    assert.ok(first.cartItemId > 0 && Date.parse(first.addedAt) > 0);
    const buy = await get(alice, '?type=buy');
    assert.deepEqual(body(buy).data.items.map((i: { name: string }) => i.name), ['listed2.eth', 'listed1.eth']);
    const bobs = await get(bob);
    assert.deepEqual(body(bobs).data.items.map((i: { name: string }) => i.name), ['listed3.eth', 'listed1.eth']);
    expectError(await get(alice, '?type=nope'), 400, 'INVALID_CART_TYPE');
    expectError(await get(undefined), 401, 'UNAUTHORIZED');
  });

  it('DELETE /cart/:itemId removes only the caller\'s own item', async () => {
    const bobItem = body(await get(bob)).data.items[0].cartItemId;
    const del = (who: SignedIn | undefined, itemId: number) => t.app.inject({ method: 'DELETE', url: `/api/v1/cart/${itemId}`, headers: who?.headers ?? {} });
    expectError(await del(alice, bobItem), 404, 'CART_ITEM_NOT_FOUND');
    expectError(await del(undefined, bobItem), 401, 'UNAUTHORIZED');
    const ok = await del(bob, bobItem);
    assert.equal(ok.statusCode, 200, show(ok));
    assert.equal(body(ok).data.cartItemId, bobItem);
    expectError(await del(bob, bobItem), 404, 'CART_ITEM_NOT_FOUND');
    assert.equal(body(await get(bob)).data.items.length, 1);
  });

  it('DELETE /cart: validation, unknown type, one type, everything', async () => {
    expectError(await clear(alice, { cartType: 5 }), 400, 'VALIDATION_ERROR');
    expectError(await clear(alice, { cartType: null }), 400, 'VALIDATION_ERROR');
    expectError(await clear(alice, { cartType: ['buy'] }), 400, 'VALIDATION_ERROR');
    expectError(await clear(alice, '"buy"', { 'content-type': 'application/json' }), 400, 'VALIDATION_ERROR');
    expectError(await clear(alice, { cartType: 'wishlist' }), 400, 'INVALID_CART_TYPE');
    expectError(await clear(undefined, { cartType: 'buy' }), 401, 'UNAUTHORIZED');

    const one = await clear(alice, { cartType: 'register' });
    assert.equal(one.statusCode, 200, show(one));
    assert.deepEqual(body(one).data, { message: 'Cleared register cart', deletedCount: 2 });
    assert.deepEqual(body(await clear(alice, { cartType: 'register' })).data, { message: 'Cleared register cart', deletedCount: 0 });

    const all = await clear(alice); // no body, no content type
    assert.equal(all.statusCode, 200, show(all));
    assert.deepEqual(body(all).data, { message: 'Cleared all cart items', deletedCount: 2 });
    assert.deepEqual(body(await get(alice)).data.items, []);
    // bob's cart is untouched by alice's clearing
    assert.equal(body(await get(bob)).data.items.length, 1);
    const empty = await clear(bob, {});
    assert.deepEqual(body(empty).data, { message: 'Cleared all cart items', deletedCount: 1 });
    const jsonNoBody = await clear(bob, undefined, { 'content-type': 'application/json' });
    assert.deepEqual(body(jsonNoBody).data, { message: 'Cleared all cart items', deletedCount: 0 }, show(jsonNoBody));
  });
});
