import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn, addressOf, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, insertListing } from '../helpers/marketplace.js';

describe('watchlists', () => {
  let t: TestContext;
  let alice: SignedIn;
  let bob: SignedIn;
  const id: Record<string, number> = {};

  const call = (who: SignedIn | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: who ? { authorization: `Bearer ${who.token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const watchers = async (nameId: number) =>
    (await t.container.db.selectFrom('ens_names').select('watchers_count').where('id', '=', nameId).executeTakeFirstOrThrow()).watchers_count;

  before(async () => {
    t = await createTestApp();
    alice = await signIn(t.app, 6);
    bob = await signIn(t.app, 7);
    const db = t.container.db;
    for (const n of ['apple', 'banana', 'cherry', 'date', 'elder']) id[n] = (await createName(db, `${n}.eth`, { owner: addressOf(0) })).id;
    await insertListing(db, 0, id.banana, 'banana.eth', 2n * ONE_ETH);
  });
  after(async () => { await t?.close(); });

  it('every route needs sign-in', async () => {
    for (const [method, url] of [['GET', '/watchlist/lists'], ['POST', '/watchlist/lists'], ['PATCH', '/watchlist/lists/1'], ['DELETE', '/watchlist/lists/1'],
      ['GET', '/watchlist'], ['POST', '/watchlist'], ['PATCH', '/watchlist/1'], ['DELETE', '/watchlist/1'], ['POST', '/watchlist/bulk'],
      ['DELETE', '/watchlist/bulk'], ['GET', '/watchlist/check/apple.eth'], ['GET', '/watchlist/search']] as const) {
      const res = await call(null, method, url, method === 'GET' ? undefined : {});
      assert.equal(res.statusCode, 401, `${method} ${url}: ${show(res)}`);
      assert.equal(body(res).error.code, 'UNAUTHORIZED');
    }
  });

  it('a default list is made on first use and can be neither deleted nor renamed', async () => {
    let res = await call(alice, 'GET', '/watchlist/lists');
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'no-store');
    const [dflt] = body(res).data.lists;
    assert.deepEqual({ ...dflt, createdAt: 0, updatedAt: 0 }, { id: dflt.id, name: 'Watchlist', isDefault: true, itemCount: 0, createdAt: 0, updatedAt: 0 });
    res = await call(alice, 'GET', '/watchlist/lists'); // not made twice
    assert.equal(body(res).data.lists.length, 1);
    res = await call(alice, 'DELETE', `/watchlist/lists/${dflt.id}`);
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'CANNOT_DELETE_DEFAULT');
    res = await call(alice, 'PATCH', `/watchlist/lists/${dflt.id}`, { name: 'Other' });
    assert.equal(body(res).error.code, 'CANNOT_RENAME_DEFAULT', show(res));
    // adding without a list goes to the default list
    res = await call(alice, 'POST', '/watchlist', { ensName: 'Apple' });
    assert.equal(res.statusCode, 200, show(res));
    const item = body(res).data;
    assert.equal(item.listId, dflt.id);
    assert.deepEqual([item.ensName, item.notifyOnSale, item.notifyOnOffer, item.notifyOnListing, item.notifyOnPriceChange, item.minOfferThreshold, item.premiumAlertBelowWei],
      ['apple.eth', true, true, true, false, null, null]);
    assert.equal(await watchers(id.apple), 1);
  });

  it('named lists: create, duplicate, rename, limit of 20, delete with its entries', async () => {
    let res = await call(bob, 'POST', '/watchlist/lists', { name: '  Favorites ' });
    assert.equal(res.statusCode, 201, show(res));
    const fav = body(res).data;
    assert.equal(fav.name, 'Favorites');
    assert.equal(fav.isDefault, false);
    res = await call(bob, 'POST', '/watchlist/lists', { name: 'favorites' });
    assert.equal(res.statusCode, 409, show(res));
    assert.equal(body(res).error.code, 'DUPLICATE_LIST_NAME');
    res = await call(bob, 'POST', '/watchlist/lists', { name: '   ' });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.details.field, 'body.name');
    res = await call(bob, 'POST', '/watchlist/lists', { name: 'Later' });
    const later = body(res).data;
    res = await call(bob, 'PATCH', `/watchlist/lists/${later.id}`, { name: 'FAVORITES' });
    assert.equal(body(res).error.code, 'DUPLICATE_LIST_NAME', show(res));
    res = await call(bob, 'PATCH', `/watchlist/lists/${later.id}`, { name: 'Soon' });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual({ ...body(res).data, updatedAt: 0 }, { id: later.id, name: 'Soon', isDefault: false, updatedAt: 0 });

    for (let i = 0; i < 18; i++) assert.equal((await call(bob, 'POST', '/watchlist/lists', { name: `L${i}` })).statusCode, 201);
    res = await call(bob, 'POST', '/watchlist/lists', { name: 'one too many' });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'LIST_LIMIT_REACHED');
    res = await call(bob, 'GET', '/watchlist/lists');
    const lists = body(res).data.lists;
    assert.equal(lists.length, 21);
    assert.equal(lists[0].isDefault, true);

    // a list's entries go with it, and so do the watcher counts they held
    await call(bob, 'POST', '/watchlist', { ensName: 'cherry.eth', listId: later.id });
    await call(bob, 'POST', '/watchlist', { ensName: 'date.eth', listId: later.id });
    await call(bob, 'POST', '/watchlist', { ensName: 'date.eth', listId: fav.id });
    assert.deepEqual([await watchers(id.cherry), await watchers(id.date)], [1, 1]);
    res = await call(bob, 'GET', '/watchlist/lists');
    assert.equal(body(res).data.lists.find((l: { id: number }) => l.id === later.id).itemCount, 2);
    res = await call(bob, 'DELETE', `/watchlist/lists/${later.id}`);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { message: 'List deleted' });
    assert.deepEqual([await watchers(id.cherry), await watchers(id.date)], [0, 1]);
    res = await call(bob, 'DELETE', `/watchlist/lists/${later.id}`);
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'NOT_FOUND');
    for (const l of lists.slice(3)) await call(bob, 'DELETE', `/watchlist/lists/${l.id}`);
  });

  it("isolation: another user's lists and entries are neither seen nor changed", async () => {
    const aliceLists = body(await call(alice, 'GET', '/watchlist/lists')).data.lists;
    const aliceItem = body(await call(alice, 'POST', '/watchlist', { ensName: 'elder.eth' })).data;
    let res = await call(bob, 'PATCH', `/watchlist/lists/${aliceLists[0].id}`, { name: 'mine' });
    assert.equal(res.statusCode, 403, show(res));
    assert.equal(body(res).error.code, 'FORBIDDEN');
    res = await call(bob, 'DELETE', `/watchlist/lists/${aliceLists[0].id}`);
    assert.equal(body(res).error.code, 'FORBIDDEN', show(res));
    res = await call(bob, 'GET', `/watchlist?listId=${aliceLists[0].id}`);
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'LIST_NOT_FOUND');
    res = await call(bob, 'POST', '/watchlist', { ensName: 'apple.eth', listId: aliceLists[0].id });
    assert.equal(body(res).error.code, 'LIST_NOT_FOUND', show(res));
    res = await call(bob, 'GET', `/watchlist/search?listId=${aliceLists[0].id}`);
    assert.equal(body(res).error.code, 'LIST_NOT_FOUND', show(res));
    res = await call(bob, 'PATCH', `/watchlist/${aliceItem.id}`, { notifyOnSale: false });
    assert.equal(res.statusCode, 403, show(res));
    res = await call(bob, 'DELETE', `/watchlist/${aliceItem.id}`);
    assert.equal(res.statusCode, 403, show(res));
    res = await call(bob, 'DELETE', '/watchlist/bulk', { ids: [aliceItem.id] });
    assert.deepEqual(body(res).data, { removed: 0, results: [{ id: aliceItem.id, status: 'not_found' }] }, show(res));
    res = await call(bob, 'GET', '/watchlist/check/elder.eth');
    assert.deepEqual(body(res).data, { isWatching: false, watchlistEntry: null, lists: [] }, show(res));
    res = await call(bob, 'PATCH', '/watchlist/999999', { notifyOnSale: false });
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'NOT_FOUND');
    // alice's entry is intact
    res = await call(alice, 'GET', '/watchlist/check/elder.eth');
    assert.equal(body(res).data.isWatching, true, show(res));
  });

  it('items: upsert, update, page with name data, check, remove', async () => {
    const carol = await signIn(t.app, 8);
    let res = await call(carol, 'POST', '/watchlist', { ensName: 'banana.eth', notifyOnPriceChange: true, minOfferThreshold: 0.5 });
    const entry = body(res).data;
    assert.deepEqual([entry.notifyOnPriceChange, entry.minOfferThreshold], [true, 0.5], show(res));
    res = await call(carol, 'POST', '/watchlist', { ensName: 'banana.eth', notifyOnSale: false, premiumAlertBelowWei: '1000' });
    assert.equal(body(res).data.id, entry.id, 'the same entry, updated');
    assert.deepEqual([body(res).data.notifyOnSale, body(res).data.notifyOnPriceChange, body(res).data.premiumAlertBelowWei], [false, true, '1000']);
    assert.equal(await watchers(id.banana), 1);
    res = await call(carol, 'POST', '/watchlist', { ensName: 'nosuch.eth' });
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND', show(res));
    res = await call(carol, 'POST', '/watchlist', { ensName: 'apple.eth', notifyOnSale: 'yes' });
    assert.equal(res.statusCode, 400, show(res));
    res = await call(carol, 'PATCH', `/watchlist/${entry.id}`, {});
    assert.equal(body(res).error.code, 'NO_UPDATES', show(res));
    res = await call(carol, 'PATCH', `/watchlist/${entry.id}`, { notifyOnOffer: false, minOfferThreshold: null });
    assert.deepEqual(body(res).data, { id: entry.id, notifyOnSale: false, notifyOnOffer: false, notifyOnListing: true, notifyOnPriceChange: true, minOfferThreshold: null, premiumAlertBelowWei: '1000' }, show(res));
    const cherry = await call(carol, 'POST', '/watchlist', { ensName: 'cherry.eth' });
    assert.equal(cherry.statusCode, 200, show(cherry));
    // added again with nothing to change (a second click): the same entry, as it was
    res = await call(carol, 'POST', '/watchlist', { ensName: 'cherry.eth' });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, body(cherry).data);

    res = await call(carol, 'GET', '/watchlist?limit=1');
    assert.equal(res.statusCode, 200, show(res));
    let page = body(res).data;
    assert.deepEqual(page.pagination, { page: 1, limit: 1, total: 2, totalPages: 2, hasNext: true, hasPrev: false });
    assert.equal(page.watchlist[0].ensName, 'cherry.eth', 'newest first');
    assert.equal(page.watchlist[0].nameData.hasActiveListing, false);
    res = await call(carol, 'GET', '/watchlist?limit=1&page=2');
    page = body(res).data;
    assert.equal(page.watchlist[0].ensName, 'banana.eth');
    assert.equal(page.watchlist[0].listName, 'Watchlist');
    assert.equal(page.watchlist[0].nameData.hasActiveListing, true);
    assert.equal(page.watchlist[0].nameData.activeListing.price_wei, (2n * ONE_ETH).toString());

    const fav = body(await call(carol, 'POST', '/watchlist/lists', { name: 'Fav' })).data;
    await call(carol, 'POST', '/watchlist', { ensName: 'banana.eth', listId: fav.id });
    assert.equal(await watchers(id.banana), 1, 'one user counts once whatever the lists');
    res = await call(carol, 'GET', '/watchlist/check/BANANA');
    const check = body(res).data;
    assert.equal(check.isWatching, true, show(res));
    assert.equal(check.watchlistEntry.id, entry.id);
    assert.deepEqual(check.lists.map((l: { listName: string; listIsDefault: boolean }) => [l.listName, l.listIsDefault]), [['Watchlist', true], ['Fav', false]]);
    res = await call(carol, 'GET', '/watchlist/check/nosuch.eth');
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND', show(res));

    res = await call(carol, 'DELETE', `/watchlist/${entry.id}`);
    assert.deepEqual(body(res).data, { message: 'Removed from watchlist' }, show(res));
    assert.equal(await watchers(id.banana), 1, 'still on Fav');
    res = await call(carol, 'DELETE', `/watchlist/${entry.id}`);
    assert.equal(res.statusCode, 404, show(res));
  });

  it('bulk add and remove: up to 500 in one transaction, one answer per item, 501 refused', async () => {
    const db = t.container.db;
    const dave = await signIn(t.app, 9);
    const names = Array.from({ length: 498 }, (_, i) => `bulk${i}.eth`);
    await sql`INSERT INTO ens_names (name, label, labelhash, namehash, token_id)
      SELECT 'bulk' || i || '.eth', 'bulk' || i, '0x' || lpad(to_hex(i), 63, '0') || 'a', '0x' || lpad(to_hex(i), 63, '0') || 'b', (1000000 + i)::numeric FROM generate_series(0, 497) i`.execute(db);
    let res = await call(dave, 'POST', '/watchlist/bulk', { ensNames: [...names, 'nosuch.eth', 'bad..name'] });
    assert.equal(res.statusCode, 200, show(res));
    let data = body(res).data;
    assert.deepEqual([data.added, data.alreadyExisted, data.notFound], [498, 0, 2]);
    assert.equal(data.results.length, 500);
    assert.deepEqual(data.results.slice(-2).map((r: { status: string }) => r.status), ['not_found', 'invalid']);
    res = await call(dave, 'POST', '/watchlist/bulk', { ensNames: ['bulk0.eth', 'bulk0.eth', 'apple.eth'] });
    data = body(res).data;
    assert.deepEqual(data.results.map((r: { status: string }) => r.status), ['already_existed', 'already_existed', 'added'], show(res));
    res = await call(dave, 'POST', '/watchlist/bulk', { ensNames: Array.from({ length: 501 }, (_, i) => `x${i}.eth`) });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    res = await call(dave, 'POST', '/watchlist/bulk', { ensNames: ['nosuch.eth'] });
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'ENS_NAMES_NOT_FOUND');

    const page = body(await call(dave, 'GET', '/watchlist?limit=100')).data;
    assert.equal(page.pagination.total, 499);
    const ids = (await db.selectFrom('watchlist_items').select('id').where('user_id', '=', dave.userId).execute()).map((r) => r.id);
    res = await call(dave, 'DELETE', '/watchlist/bulk', { ids: Array.from({ length: 501 }, (_, i) => i + 1) });
    assert.equal(res.statusCode, 400, show(res));
    res = await call(dave, 'DELETE', '/watchlist/bulk', { ids: [...ids.slice(0, 499), 999_999] });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).data.removed, 499);
    assert.equal(body(res).data.results.at(-1).status, 'not_found');
    const counted = await db.selectFrom('ens_names').select((eb) => eb.fn.sum<number>('watchers_count').as('n')).where('name', 'like', 'bulk%').executeTakeFirstOrThrow();
    assert.equal(Number(counted.n), 0);
    assert.equal(body(await call(dave, 'GET', '/watchlist/lists')).data.lists[0].itemCount, 0);
  });

  it('watcher counts equal a direct count after random adds and removes by several users', async () => {
    const db = t.container.db;
    const people = [alice, bob, await signIn(t.app, 10)];
    const pool = ['apple', 'banana', 'cherry', 'date', 'elder'];
    const listsOf = new Map<number, number[]>();
    for (const p of people) {
      const own = body(await call(p, 'GET', '/watchlist/lists')).data.lists.map((l: { id: number }) => l.id);
      if (own.length < 2) own.push(body(await call(p, 'POST', '/watchlist/lists', { name: 'Random' })).data.id);
      listsOf.set(p.userId, own);
    }
    let seed = 42;
    const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    for (let step = 0; step < 40; step++) {
      const p = people[rand(people.length)];
      const lists = listsOf.get(p.userId)!;
      const listId = lists[rand(lists.length)];
      const name = pool[rand(pool.length)];
      if (rand(3) === 0) {
        const mine = await db.selectFrom('watchlist_items').select('id').where('user_id', '=', p.userId).execute();
        if (mine.length > 0) await call(p, 'DELETE', '/watchlist/bulk', { ids: [mine[rand(mine.length)].id] });
      } else {
        await call(p, 'POST', '/watchlist', { ensName: `${name}.eth`, listId });
      }
    }
    const direct = await sql<{ id: number; kept: number; counted: number; items: number; trend: number }>`
      SELECT n.id, n.watchers_count AS kept,
        (SELECT count(DISTINCT user_id)::int FROM watchlist_items w WHERE w.ens_name_id = n.id) AS counted,
        (SELECT count(*)::int FROM watchlist_items w WHERE w.ens_name_id = n.id) AS items,
        coalesce((SELECT total FROM trend_totals t WHERE t.metric = 'watchlist' AND t.period_hours = 24 AND t.ens_name_id = n.id), 0) AS trend
      FROM ens_names n WHERE n.label = ANY(${pool}::text[])`.execute(db);
    for (const r of direct.rows) {
      assert.equal(r.kept, r.counted, `watchers of name ${r.id}`);
      assert.equal(r.trend, r.items, `trend counter of name ${r.id}`);
    }
    const lists = await sql<{ ok: boolean }>`SELECT bool_and(item_count = (SELECT count(*) FROM watchlist_items i WHERE i.list_id = l.id)) AS ok FROM watchlists l`.execute(db);
    assert.equal(lists.rows[0].ok, true, 'every item_count equals its rows');
  });

  it('search: watchers_count sort and filters, is_user_watching, the name page, and search within a list', async () => {
    const erin = await signIn(t.app, 11);
    const frank = await signIn(t.app, 12);
    for (const n of ['hot1', 'hot2', 'hot3']) id[n] = (await createName(t.container.db, `${n}.eth`)).id;
    await call(erin, 'POST', '/watchlist/bulk', { ensNames: ['hot1.eth', 'hot2.eth'] });
    await call(frank, 'POST', '/watchlist/bulk', { ensNames: ['hot1.eth'] });
    let res = await call(erin, 'GET', '/search?q=hot&sortBy=watchers_count');
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data.results.map((r: { name: string; watchers_count: number; is_user_watching: boolean }) => [r.name, r.watchers_count, r.is_user_watching]),
      [['hot1.eth', 2, true], ['hot2.eth', 1, true], ['hot3.eth', 0, false]]);
    res = await call(null, 'GET', '/search?q=hot&filters[minWatchersCount]=1&filters[maxWatchersCount]=1');
    assert.deepEqual(body(res).data.results.map((r: { name: string; is_user_watching?: boolean }) => [r.name, r.is_user_watching]), [['hot2.eth', undefined]], show(res));

    res = await call(frank, 'GET', '/names/hot1.eth');
    assert.equal(res.statusCode, 200, show(res));
    const entry = body(await call(frank, 'GET', '/watchlist/check/hot1.eth')).data.watchlistEntry.id;
    assert.deepEqual([body(res).data.watchers_count, body(res).data.is_user_watching, body(res).data.watchlist_record_id], [2, true, entry]);
    res = await call(null, 'GET', '/names/hot2.eth');
    assert.deepEqual([body(res).data.watchers_count, body(res).data.is_user_watching, body(res).data.watchlist_record_id], [1, false, null], show(res));

    // search within erin's default list with the global filters and sorts
    res = await call(erin, 'GET', '/watchlist/search?sortBy=alphabetical&sortOrder=desc');
    assert.equal(res.statusCode, 200, show(res));
    let data = body(res).data;
    assert.deepEqual(data.results.map((r: { name: string }) => r.name), ['hot2.eth', 'hot1.eth']);
    assert.equal(data.pagination.total, 2);
    assert.equal(data.results[0].watchlist.listName, 'Watchlist');
    assert.equal(data.results[0].watchlistEntries.length, 1);
    res = await call(erin, 'GET', '/watchlist/search?q=hot1&filters[minWatchersCount]=2');
    data = body(res).data;
    assert.deepEqual(data.results.map((r: { name: string }) => r.name), ['hot1.eth'], show(res));
    res = await call(erin, 'GET', '/watchlist/search?filters[nosuch]=1');
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    res = await call(erin, 'GET', '/watchlist/search?export=true&filename=mine&sortBy=alphabetical');
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="mine.csv"');
    const lines = res.body.trim().split('\r\n');
    assert.equal(lines[0].split(',')[0], 'name');
    assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]), ['hot1.eth', 'hot2.eth']);
  });
});
