import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { createNotification } from '../helpers/community.js';
import { notify } from '../../src/services/notifier.js';
import { MINUTE } from '../../src/lib/time.js';

describe('notifications', () => {
  let t: TestContext;
  let alice: SignedIn;
  let bob: SignedIn;
  before(async () => {
    t = await createTestApp();
    alice = await signIn(t.app, 0);
    bob = await signIn(t.app, 1);
  });
  after(async () => { await t?.close(); });

  const get = (url: string, who?: SignedIn) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: who?.headers ?? {} });
  const patch = (url: string, who?: SignedIn) => t.app.inject({ method: 'PATCH', url: `/api/v1${url}`, headers: who?.headers ?? {} });
  const unread = async (who: SignedIn) => {
    const res = await get('/notifications/unread/count', who);
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data.unreadCount as number;
  };

  it('lists the caller\'s notifications newest first, in the web client\'s shape', async () => {
    const name = await createName(t.container.db, 'notified.eth');
    // Written the way the marketplace writes them: through the notifier, inside a transaction.
    await t.container.db.transaction().execute((trx) => notify(trx, {
      recipient: alice.address.toUpperCase().replace('0X', '0x'),
      type: 'offer_received',
      ensNameId: name.id,
      title: 'New offer on notified.eth',
      message: 'You received an offer of 1 WETH',
      metadata: { offerId: 42, amountWei: '1000000000000000000' },
    }));
    await createNotification(t.container.db, alice.address, { type: 'listing_sold', title: 'older', createdAt: new Date(Date.now() - 10 * MINUTE) });
    await createNotification(t.container.db, bob.address, { title: 'for bob' });

    const res = await get('/notifications', alice);
    assert.equal(res.statusCode, 200, show(res));
    const d = body(res).data;
    assert.equal(d.notifications.length, 2);
    assert.deepEqual(d.pagination, { page: 1, limit: 20, total: 2, totalPages: 1, hasNext: false, hasPrev: false });
    assert.equal(d.unreadCount, 2);
    const [first, second] = d.notifications;
    assert.equal(second.title, 'older');
    assert.deepEqual(Object.keys(first).sort(), ['createdAt', 'ensName', 'ensTokenId', 'id', 'isRead', 'message', 'metadata', 'readAt', 'sentAt', 'title', 'type']);
    assert.equal(first.type, 'offer_received');
    assert.equal(first.ensName, 'notified.eth');
    assert.equal(first.ensTokenId, name.token_id);
    assert.deepEqual(first.metadata, { offerId: 42, amountWei: '1000000000000000000' });
    assert.equal(first.isRead, false);
    assert.equal(first.readAt, null);
    assert.equal(first.sentAt, null);
    assert.ok(!Number.isNaN(Date.parse(first.createdAt)));
    assert.equal(second.ensName, null);
    assert.equal(second.ensTokenId, null);
  });

  it('filters by type in the reference\'s spelling and in the web app\'s, and names a wrong type', async () => {
    const carol = await signIn(t.app, 7);
    await createNotification(t.container.db, carol.address, { type: 'offer_received', title: 'offer' });
    await createNotification(t.container.db, carol.address, { type: 'listing_sold', title: 'sold' });
    await createNotification(t.container.db, carol.address, { type: 'offer_expired', title: 'expired' });
    const titles = async (type: string) => {
      const res = await get(`/notifications?type=${type}`, carol);
      assert.equal(res.statusCode, 200, show(res));
      return (body(res).data.notifications as { title: string; type: string }[]).map((n) => `${n.title}:${n.type}`).sort();
    };
    assert.deepEqual(await titles('offer_received'), ['offer:offer_received']);
    assert.deepEqual(await titles('offer-received'), ['offer:offer_received'], 'the web app\'s spelling finds the same, answered in the reference\'s');
    assert.deepEqual(await titles('listing-sold,offer_expired'), ['expired:offer_expired', 'sold:listing_sold']);
    const bad = await get('/notifications?type=offer-received,outbid', carol);
    assert.equal(bad.statusCode, 400, show(bad));
    assert.equal(body(bad).error.details.field, 'query.type', show(bad));
    assert.ok(body(bad).error.details.allowed.includes('offer_received'), show(bad));
  });

  it('marking read: 403 for another user\'s, 404 for none, idempotent readAt', async () => {
    const mine = await createNotification(t.container.db, bob.address, { title: 'to read' });
    const res403 = await patch(`/notifications/${mine.id}/read`, alice);
    assert.equal(res403.statusCode, 403, show(res403));
    assert.equal(body(res403).error.code, 'FORBIDDEN');

    const res404 = await patch('/notifications/999999999/read', bob);
    assert.equal(res404.statusCode, 404, show(res404));
    assert.equal(body(res404).error.code, 'NOT_FOUND');

    const first = await patch(`/notifications/${mine.id}/read`, bob);
    assert.equal(first.statusCode, 200, show(first));
    assert.equal(body(first).data.id, mine.id);
    const readAt = body(first).data.readAt;
    assert.ok(!Number.isNaN(Date.parse(readAt)));

    await new Promise((r) => setTimeout(r, 20));
    const again = await patch(`/notifications/${mine.id}/read`, bob);
    assert.equal(again.statusCode, 200, show(again));
    assert.deepEqual(body(again).data, { id: mine.id, readAt }, 'readAt unchanged');

    const listed = body(await get('/notifications', bob)).data.notifications.find((n: any) => n.id === mine.id);
    assert.equal(listed.isRead, true);
    assert.equal(listed.readAt, readAt);
  });

  it('unreadOnly filters; read-all marks the rest and the unread count drops to 0', async () => {
    const who = await signIn(t.app, 2);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await createNotification(t.container.db, who.address, { title: `n${i}`, createdAt: new Date(Date.now() - (10 - i) * MINUTE) })).id);
    const alreadyRead = await createNotification(t.container.db, who.address, { title: 'was read', readAt: new Date(Date.now() - 5 * MINUTE) });
    await createNotification(t.container.db, alice.address, { title: 'not theirs' });
    assert.equal(await unread(who), 4);

    await patch(`/notifications/${ids[0]}/read`, who);
    assert.equal(await unread(who), 3);

    const onlyUnread = body(await get('/notifications?unreadOnly=true', who)).data;
    assert.deepEqual(onlyUnread.notifications.map((n: any) => n.title), ['n3', 'n2', 'n1']);
    assert.equal(onlyUnread.pagination.total, 3);
    assert.equal(onlyUnread.unreadCount, 3);

    const paged = body(await get('/notifications?limit=2&page=2', who)).data;
    assert.deepEqual(paged.notifications.map((n: any) => n.title), ['n2', 'n1']); // after 'was read' (newest) and n3
    assert.deepEqual(paged.pagination, { page: 2, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: true });

    const all = await patch('/notifications/read-all', who);
    assert.equal(all.statusCode, 200, show(all));
    assert.deepEqual(body(all).data, { updatedCount: 3 });
    assert.equal(await unread(who), 0);
    assert.equal(body(await get('/notifications?unreadOnly=true', who)).data.notifications.length, 0);
    const kept = body(await get('/notifications', who)).data.notifications.find((n: any) => n.id === alreadyRead.id);
    assert.equal(kept.readAt, alreadyRead.read_at!.toISOString(), 'read-all keeps an earlier readAt');
    assert.ok(await unread(alice) >= 1, 'other users are untouched');
  });

  it('every route needs a valid token; bad ids and queries are 400', async () => {
    const n = await createNotification(t.container.db, alice.address);
    for (const [method, url] of [['GET', '/notifications'], ['GET', '/notifications/unread/count'], ['PATCH', `/notifications/${n.id}/read`], ['PATCH', '/notifications/read-all']] as const) {
      for (const headers of [{}, { authorization: 'Bearer no.such.token' }]) {
        const res = await t.app.inject({ method, url: `/api/v1${url}`, headers });
        assert.equal(res.statusCode, 401, `${method} ${url}: ${show(res)}`);
        assert.equal(body(res).error.code, 'UNAUTHORIZED');
      }
    }
    for (const url of ['/notifications/abc/read', '/notifications/0/read']) {
      const res = await patch(url, alice);
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    }
    for (const q of ['?page=0', '?limit=101', '?unreadOnly=maybe']) {
      const res = await get(`/notifications${q}`, alice);
      assert.equal(res.statusCode, 400, `${q}: ${show(res)}`);
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    }
  });
});
