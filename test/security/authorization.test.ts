import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { SignJWT } from 'jose';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { createNotification } from '../helpers/community.js';
import { createName } from '../helpers/factories.js';
import { insertListing, insertOffer, ONE_ETH, signedListing, signedOffer } from '../helpers/marketplace.js';

/**
 * Every required-auth route × every kind of caller. `request` builds a request the right user may
 * make (its fixtures created fresh for each call); `other` is what another signed-in user gets
 * for the very same request: 403 where a resource belongs to someone, else the rule that applies.
 */
interface Row {
  request(owner: SignedIn): Promise<InjectOptions>;
  ok: number;
  other: { status: number; code?: string };
}

let t: TestContext;
let seq = 0;
const fresh = () => `authz${++seq}x.eth`;
/** A name past its grace period, so it can go into a `register` cart. */
const expiredName = () => createName(t.container.db, fresh(), { expiryDate: new Date(Date.now() - 200 * 86_400_000) });
const mine = { status: 200 };
/** A comment by `owner` on a fresh name. */
const ownComment = async (owner: SignedIn) => {
  const name = await createName(t.container.db, fresh());
  return (await t.container.db.insertInto('comments').values({ ens_name_id: name.id, user_id: owner.userId, body: 'mine' }).returning('id').executeTakeFirstOrThrow()).id;
};
/** The address of a user who signed in once (only those can be blocked). */
const blockable = async () => {
  await t.container.db.insertInto('users').values({ address: addressOf(7) }).onConflict((oc) => oc.doNothing()).execute();
  return addressOf(7);
};

/** A watchlist of `owner`'s own, and an entry of theirs on a fresh name. */
const ownList = async (owner: SignedIn) =>
  body(await t.app.inject({ method: 'POST', url: '/api/v1/watchlist/lists', headers: owner.headers, payload: { name: `list ${++seq}` } })).data.id as number;
const ownEntry = async (owner: SignedIn) => {
  const name = await createName(t.container.db, fresh());
  return body(await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: owner.headers, payload: { ensName: name.name } })).data.id as number;
};
/** The original's body for listing a fresh name of account 1 through a broker at 2.5%, its order paying the fee. */
const brokeredListing = async () => {
  const n = await createName(t.container.db, fresh(), { owner: addressOf(1) });
  const signed = await signedListing(1, n.name, ONE_ETH, { fee: { recipient: addressOf(5), bps: 250 } });
  return {
    token_id: n.token_id, price_wei: ONE_ETH.toString(), order_data: JSON.stringify(signed.orderData), order_hash: signed.hash,
    seller_address: addressOf(1), broker_address: addressOf(5), broker_fee_bps: 250,
  };
};
const history = (kind: string): Row => ({ request: async () => ({ method: 'GET', url: `/api/v1/user/history/${kind}` }), ok: 200, other: mine });

const TABLE: Record<string, Row> = {
  'POST /api/v1/brokered-listings': {
    request: async () => ({ method: 'POST', url: '/api/v1/brokered-listings', payload: await brokeredListing() }),
    ok: 201,
    other: { status: 403, code: 'FORBIDDEN' }, // the seller_address is the signed-in seller's
  },
  'GET /api/v1/watchlist/lists': { request: async () => ({ method: 'GET', url: '/api/v1/watchlist/lists' }), ok: 200, other: mine },
  'POST /api/v1/watchlist/lists': { request: async () => ({ method: 'POST', url: '/api/v1/watchlist/lists', payload: { name: `list ${++seq}` } }), ok: 201, other: { status: 201 } },
  'PATCH /api/v1/watchlist/lists/:listId': {
    request: async (owner) => ({ method: 'PATCH', url: `/api/v1/watchlist/lists/${await ownList(owner)}`, payload: { name: `renamed ${++seq}` } }),
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'DELETE /api/v1/watchlist/lists/:listId': {
    request: async (owner) => ({ method: 'DELETE', url: `/api/v1/watchlist/lists/${await ownList(owner)}` }),
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'GET /api/v1/watchlist': { request: async () => ({ method: 'GET', url: '/api/v1/watchlist' }), ok: 200, other: mine },
  'POST /api/v1/watchlist': { request: async () => ({ method: 'POST', url: '/api/v1/watchlist', payload: { ensName: (await createName(t.container.db, fresh())).name } }), ok: 200, other: mine },
  'POST /api/v1/watchlist/bulk': { request: async () => ({ method: 'POST', url: '/api/v1/watchlist/bulk', payload: { ensNames: [(await createName(t.container.db, fresh())).name] } }), ok: 200, other: mine },
  'DELETE /api/v1/watchlist/bulk': {
    request: async (owner) => ({ method: 'DELETE', url: '/api/v1/watchlist/bulk', payload: { ids: [await ownEntry(owner)] } }),
    ok: 200,
    other: { status: 200 }, // another's entry is answered not_found and left alone (test/people/watchlists.test.ts)
  },
  'GET /api/v1/watchlist/check/:name': { request: async () => ({ method: 'GET', url: `/api/v1/watchlist/check/${(await createName(t.container.db, fresh())).name}` }), ok: 200, other: mine },
  'GET /api/v1/watchlist/search': { request: async () => ({ method: 'GET', url: '/api/v1/watchlist/search' }), ok: 200, other: mine },
  'PATCH /api/v1/watchlist/:id': {
    request: async (owner) => ({ method: 'PATCH', url: `/api/v1/watchlist/${await ownEntry(owner)}`, payload: { notifyOnSale: false } }),
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'DELETE /api/v1/watchlist/:id': {
    request: async (owner) => ({ method: 'DELETE', url: `/api/v1/watchlist/${await ownEntry(owner)}` }),
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'GET /api/v1/user/history/viewed': history('viewed'),
  'GET /api/v1/user/history/watched': history('watched'),
  'GET /api/v1/user/history/voted': history('voted'),
  'GET /api/v1/user/history/offers': history('offers'),
  'GET /api/v1/user/history/purchases': history('purchases'),
  'GET /api/v1/user/history/sales': history('sales'),
  'GET /api/v1/auth/me': { request: async () => ({ method: 'GET', url: '/api/v1/auth/me' }), ok: 200, other: mine },
  'GET /api/v1/users/me': { request: async () => ({ method: 'GET', url: '/api/v1/users/me' }), ok: 200, other: mine },
  'PUT /api/v1/users/me/email': { request: async () => ({ method: 'PUT', url: '/api/v1/users/me/email', payload: { email: 'matrix@example.test' } }), ok: 200, other: mine },
  'PATCH /api/v1/users/me': { request: async () => ({ method: 'PATCH', url: '/api/v1/users/me', payload: { telegram: 'matrix' } }), ok: 200, other: mine },
  'POST /api/v1/users/me': { request: async () => ({ method: 'POST', url: '/api/v1/users/me', payload: { discord: 'matrix' } }), ok: 200, other: mine },
  'GET /api/v1/feed': { request: async () => ({ method: 'GET', url: '/api/v1/feed' }), ok: 200, other: mine },
  'GET /api/v1/analytics/user/me': { request: async () => ({ method: 'GET', url: '/api/v1/analytics/user/me' }), ok: 200, other: mine },
  'GET /api/v1/notifications': { request: async () => ({ method: 'GET', url: '/api/v1/notifications' }), ok: 200, other: mine },
  'GET /api/v1/notifications/unread/count': { request: async () => ({ method: 'GET', url: '/api/v1/notifications/unread/count' }), ok: 200, other: mine },
  'PATCH /api/v1/notifications/read-all': { request: async () => ({ method: 'PATCH', url: '/api/v1/notifications/read-all' }), ok: 200, other: mine },
  'PATCH /api/v1/notifications/:id/read': {
    request: async (owner) => ({ method: 'PATCH', url: `/api/v1/notifications/${(await createNotification(t.container.db, owner.address)).id}/read` }),
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'POST /api/v1/cart': {
    request: async () => ({ method: 'POST', url: '/api/v1/cart', payload: { ensNameId: (await expiredName()).id, cartType: 'register' } }),
    ok: 201,
    other: { status: 201 },
  },
  'GET /api/v1/cart': { request: async () => ({ method: 'GET', url: '/api/v1/cart' }), ok: 200, other: mine },
  'POST /api/v1/cart/bulk': {
    request: async () => ({ method: 'POST', url: '/api/v1/cart/bulk', payload: { items: [{ ensNameId: (await expiredName()).id, cartType: 'registrations' }] } }),
    ok: 200,
    other: mine,
  },
  'GET /api/v1/cart/summary': { request: async () => ({ method: 'GET', url: '/api/v1/cart/summary' }), ok: 200, other: mine },
  'DELETE /api/v1/cart': { request: async () => ({ method: 'DELETE', url: '/api/v1/cart' }), ok: 200, other: mine },
  'DELETE /api/v1/cart/:itemId': {
    request: async (owner) => {
      const name = await expiredName();
      const added = await t.app.inject({ method: 'POST', url: '/api/v1/cart', headers: owner.headers, payload: { ensNameId: name.id, cartType: 'register' } });
      return { method: 'DELETE', url: `/api/v1/cart/${body(added).data.cartItemId as number}` };
    },
    ok: 200,
    other: { status: 404, code: 'CART_ITEM_NOT_FOUND' }, // one's cart is one's own: another's item does not exist for you
  },
  'POST /api/v1/votes': { request: async () => ({ method: 'POST', url: '/api/v1/votes', payload: { ensName: (await createName(t.container.db, fresh())).name, vote: 1 } }), ok: 200, other: mine },
  'POST /api/v1/verification/resend': { request: async () => ({ method: 'POST', url: '/api/v1/verification/resend' }), ok: 200, other: mine },
  'POST /api/v1/offers': {
    request: async () => {
      const name = fresh();
      await createName(t.container.db, name, { owner: addressOf(5) });
      return { method: 'POST', url: '/api/v1/offers', payload: { orderData: (await signedOffer(1, name, ONE_ETH)).orderData } };
    },
    ok: 201,
    other: { status: 400, code: 'INVALID_ORDER' }, // the offerer must be the caller
  },
  'PUT /api/v1/offers/:id': {
    request: async () => {
      const name = fresh();
      const n = await createName(t.container.db, name, { owner: addressOf(5) });
      const offer = await insertOffer(t.container.db, 1, n.id, name, ONE_ETH);
      return { method: 'PUT', url: `/api/v1/offers/${offer.id}`, payload: { offerAmountWei: (2n * ONE_ETH).toString() } };
    },
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'POST /api/v1/listings': {
    request: async () => {
      const name = fresh();
      await createName(t.container.db, name, { owner: addressOf(1) });
      return { method: 'POST', url: '/api/v1/listings', payload: { orderData: (await signedListing(1, name, ONE_ETH)).orderData } };
    },
    ok: 201,
    other: { status: 400, code: 'INVALID_ORDER' },
  },
  'PUT /api/v1/listings/:id': {
    request: async () => {
      const name = fresh();
      const n = await createName(t.container.db, name, { owner: addressOf(1) });
      const listing = await insertListing(t.container.db, 1, n.id, name, ONE_ETH);
      return { method: 'PUT', url: `/api/v1/listings/${listing.id}`, payload: { orderData: (await signedListing(1, name, 2n * ONE_ETH)).orderData } };
    },
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'POST /api/v1/orders': {
    request: async () => {
      const name = fresh();
      const n = await createName(t.container.db, name, { owner: addressOf(1) });
      return { method: 'POST', url: '/api/v1/orders', payload: { type: 'listing', token_id: n.token_id, price_wei: ONE_ETH.toString(), order_data: JSON.stringify((await signedListing(1, name, ONE_ETH)).orderData) } };
    },
    ok: 201,
    other: { status: 400, code: 'INVALID_ORDER' }, // the offerer must be the caller
  },
  'POST /api/v1/orders/bulk': {
    request: async () => {
      const name = fresh();
      const n = await createName(t.container.db, name, { owner: addressOf(1) });
      return { method: 'POST', url: '/api/v1/orders/bulk', payload: { listings: [{ type: 'listing', token_id: n.token_id, price_wei: ONE_ETH.toString(), order_data: (await signedListing(1, name, ONE_ETH)).orderData }] } };
    },
    ok: 201,
    other: { status: 207 }, // each item's offerer must be the caller: stored nothing, said why
  },
  'DELETE /api/v1/orders/:id': {
    request: async () => {
      const name = fresh();
      const n = await createName(t.container.db, name, { owner: addressOf(1) });
      const listing = await insertListing(t.container.db, 1, n.id, name, ONE_ETH);
      return { method: 'DELETE', url: `/api/v1/orders/${listing.order_hash}` };
    },
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'GET /api/v1/comments/feed/watchlist': { request: async () => ({ method: 'GET', url: '/api/v1/comments/feed/watchlist' }), ok: 200, other: mine },
  'GET /api/v1/comments/quota': { request: async () => ({ method: 'GET', url: '/api/v1/comments/quota' }), ok: 200, other: mine },
  'POST /api/v1/comments': { request: async () => ({ method: 'POST', url: '/api/v1/comments', payload: { name: (await createName(t.container.db, fresh())).name, body: 'matrix' } }), ok: 200, other: mine },
  'PATCH /api/v1/comments/:id': {
    request: async (owner) => ({ method: 'PATCH', url: `/api/v1/comments/${await ownComment(owner)}`, payload: { body: 'edited' } }),
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'DELETE /api/v1/comments/:id': {
    request: async (owner) => ({ method: 'DELETE', url: `/api/v1/comments/${await ownComment(owner)}` }),
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
  'GET /api/v1/me/blocks': { request: async () => ({ method: 'GET', url: '/api/v1/me/blocks' }), ok: 200, other: mine },
  'POST /api/v1/me/blocks': { request: async () => ({ method: 'POST', url: '/api/v1/me/blocks', payload: { user: await blockable() } }), ok: 200, other: mine },
  'DELETE /api/v1/me/blocks/:userId': { request: async () => ({ method: 'DELETE', url: '/api/v1/me/blocks/1' }), ok: 200, other: mine },
  'GET /api/v1/recommendations/similar-to-watchlist': { request: async () => ({ method: 'GET', url: '/api/v1/recommendations/similar-to-watchlist' }), ok: 200, other: mine },
  'GET /api/v1/recommendations/based-on-votes': { request: async () => ({ method: 'GET', url: '/api/v1/recommendations/based-on-votes' }), ok: 200, other: mine },
  'GET /api/v1/recommendations/for-you': { request: async () => ({ method: 'GET', url: '/api/v1/recommendations/for-you' }), ok: 200, other: mine },
  'DELETE /api/v1/listings/:id': {
    request: async () => {
      const name = fresh();
      const n = await createName(t.container.db, name, { owner: addressOf(1) });
      const listing = await insertListing(t.container.db, 1, n.id, name, ONE_ETH);
      return { method: 'DELETE', url: `/api/v1/listings/${listing.id}` };
    },
    ok: 200,
    other: { status: 403, code: 'FORBIDDEN' },
  },
};

describe('authorization matrix: every required-auth route × every kind of caller', () => {
  let owner: SignedIn;
  let other: SignedIn;
  const bad: Record<string, () => Promise<string | undefined>> = {};
  before(async () => {
    t = await createTestApp();
    owner = await signIn(t.app, 1);
    other = await signIn(t.app, 2);
    for (const who of [owner, other]) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/v1/users/me/email', headers: who.headers, payload: { email: `user${who.userId}@example.test` } });
      assert.equal(res.statusCode, 200, show(res));
    }
    const claims = { address: owner.address };
    const jwt = (secret: Uint8Array, exp: number) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(String(owner.userId)).setIssuer('ens-market').setAudience('ens-market-api').setIssuedAt(exp - 3600).setExpirationTime(exp).sign(secret);
    const now = Math.floor(Date.now() / 1000);
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    bad['no token'] = async () => undefined;
    bad['malformed'] = async () => 'Bearer not.a-token';
    bad['not bearer'] = async () => `Basic ${owner.token}`;
    bad['expired'] = async () => `Bearer ${await jwt(t.config.jwtSecret, now - 60)}`;
    bad['alg none'] = async () => `Bearer ${part({ alg: 'none', typ: 'JWT' })}.${part({ address: owner.address, sub: String(owner.userId), iss: 'ens-market', aud: 'ens-market-api', exp: now + 3600 })}.`;
    bad['wrong key'] = async () => `Bearer ${await jwt(new TextEncoder().encode('another-secret-another-secret-0123456789'), now + 3600)}`;
  });
  after(async () => { await t?.close(); });

  it('the table names every required-auth route of the app, and only those', () => {
    const required = t.app.routeTable.filter((r) => r.auth === 'required').map((r) => `${r.method} ${r.url}`).sort();
    assert.ok(required.length >= 20, `${required.length} required-auth routes`);
    assert.deepEqual(Object.keys(TABLE).sort(), required, 'add each new required-auth route to TABLE with its ownership rule');
  });

  for (const [route, row] of Object.entries(TABLE)) {
    it(route, async () => {
      const send = async (authorization: string | undefined) => {
        const options = await row.request(owner);
        return t.app.inject({ ...options, headers: { ...(options.headers as object), ...(authorization ? { authorization } : {}) } });
      };
      for (const [kind, header] of Object.entries(bad)) {
        const res = await send(await header());
        assert.equal(res.statusCode, 401, `${kind}: ${show(res)}`);
        assert.equal(body(res).error.code, 'UNAUTHORIZED', `${kind}: ${show(res)}`);
      }
      const theirs = await send(other.headers.authorization);
      assert.equal(theirs.statusCode, row.other.status, `another user: ${show(theirs)}`);
      if (row.other.code) assert.equal(body(theirs).error.code, row.other.code, `another user: ${show(theirs)}`);
      const res = await send(owner.headers.authorization);
      assert.equal(res.statusCode, row.ok, `the right user: ${show(res)}`);
    });
  }
});
