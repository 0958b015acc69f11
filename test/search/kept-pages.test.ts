import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addListing, createSearchName, insertLabels, searchNames } from '../helpers/search.js';

const SELLER = '0x00000000000000000000000000000000000000a1';

/**
 * A relevance page of a text under label filters only is ordered by the labels alone, so its ids
 * are reused like its count (15 s, then recounted beside the request); its rows are read fresh on
 * every request, and a page under a market filter (listed, price...) is never reused.
 */
describe('GET /api/v1/search?q: a text page reused, its rows fresh', () => {
  let t: TestContext;
  const search = (query: string) => searchNames(t.app, query);
  const page = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/search?${query}` });
    assert.equal(res.statusCode, 200, show(res));
    return (body(res).data as { results: Array<{ name: string; upvotes: number; listings: Array<{ price: string }> }> }).results;
  };

  before(async () => {
    t = await createTestApp();
    await insertLabels(t.container.db, ['kestrel', 'kestrels', 'kestrelfalcon', 'akestrel']);
  });
  after(async () => { await t?.close(); });

  it('answers the same order again and shows what changed in its rows at once', async () => {
    const first = await search('q=kestrel');
    assert.deepEqual(first.names, ['kestrel.eth', 'kestrels.eth', 'kestrelfalcon.eth', 'akestrel.eth']);
    const { id } = await t.container.db.selectFrom('ens_names').select('id').where('name', '=', 'kestrels.eth').executeTakeFirstOrThrow();
    await t.container.db.updateTable('ens_names').set({ upvotes: 7 }).where('id', '=', id).execute();
    await addListing(t.container.db, id, { priceWei: '1230000000000000000', seller: SELLER });
    const again = await page('q=kestrel');
    assert.deepEqual(again.map((r) => r.name), first.names);
    const kestrels = again.find((r) => r.name === 'kestrels.eth');
    assert.equal(kestrels?.upvotes, 7);
    assert.deepEqual(kestrels?.listings.map((l) => l.price), ['1230000000000000000']);
  });

  it('takes a name registered meanwhile in when the page is recounted, with the count', async () => {
    await insertLabels(t.container.db, ['kestrelnest']);
    assert.deepEqual(await search('q=kestrel'), { names: ['kestrel.eth', 'kestrels.eth', 'kestrelfalcon.eth', 'akestrel.eth'], total: 4 });
    await t.container.cache.delPrefix('aging:search:'); // past the 15 s and the stale tier
    assert.deepEqual(await search('q=kestrel'), { names: ['kestrel.eth', 'kestrels.eth', 'kestrelnest.eth', 'kestrelfalcon.eth', 'akestrel.eth'], total: 5 });
  });

  it('keeps pages under label filters apart by filter and window', async () => {
    assert.deepEqual((await search('q=kestrel&filters[maxLength]=8')).names, ['kestrel.eth', 'kestrels.eth', 'akestrel.eth']);
    assert.deepEqual((await search('q=kestrel&limit=2&page=2')).names, ['kestrelnest.eth', 'kestrelfalcon.eth']);
  });

  it('never reuses a page under a market filter: a name listed now is found now', async () => {
    assert.deepEqual((await search('q=falcon&filters[listed]=true')).names, []);
    const { id } = await createSearchName(t.container.db, 'falconer.eth');
    await addListing(t.container.db, id, { priceWei: '5000000000000000000', seller: SELLER });
    assert.deepEqual((await search('q=falcon&filters[listed]=true')).names, ['falconer.eth']);
  });
});
