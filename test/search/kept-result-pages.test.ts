import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { castVote } from '../helpers/community.js';
import { addListing, createSearchName } from '../helpers/search.js';
import { pageJson } from '../../src/db/row-texts.js';

const SELLER = '0x00000000000000000000000000000000000000a1';

interface Result { name: string; owner: string | null; listings: Array<{ id: number; price: string }>; user_vote?: number | null; trending_metrics?: { period_votes: number } }

/**
 * An anonymous page of results read again with the same rows at the same versions is the text
 * kept the last time (search/results.ts pageOfChunks); anything its statement returns differently
 * (a name's row, a listing's, a listing past its end time, a figure) makes it anew.
 */
describe('pages of results kept whole while their rows are unchanged', () => {
  let t: TestContext;
  let voters: SignedIn[];
  const id: Record<string, number> = {};

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data as { results?: Result[]; names?: Result[] };
  };
  const search = async (query = 'q=plover') => (await get(`/api/v1/search?${query}`)).results!;
  const trending = async (headers: Record<string, string> = {}) => (await get('/api/v1/trending/votes', headers)).names!;
  const listingsOf = (results: Result[], name: string) => results.find((r) => r.name === name)?.listings.map((l) => l.price);

  before(async () => {
    t = await createTestApp();
    voters = [await signIn(t.app, 0), await signIn(t.app, 1)];
    for (const name of ['plover.eth', 'plovers.eth', 'ploverling.eth']) id[name] = (await createSearchName(t.container.db, name)).id;
    await addListing(t.container.db, id['plover.eth'], { priceWei: '1000000000000000000', seller: SELLER });
  });
  after(async () => { await t?.close(); });

  it('shows a new listing, a new price and a new owner at once', async () => {
    const first = await search();
    assert.deepEqual(first.map((r) => r.name), ['plover.eth', 'plovers.eth', 'ploverling.eth']);
    assert.deepEqual(await search(), first);
    assert.deepEqual(await search(), first);

    await addListing(t.container.db, id['plovers.eth'], { priceWei: '2000000000000000000', seller: SELLER });
    assert.deepEqual(listingsOf(await search(), 'plovers.eth'), ['2000000000000000000']);
    await search();
    await sql`UPDATE listings SET price_wei = 3000000000000000000 WHERE ens_name_id = ${id['plovers.eth']}`.execute(t.container.db);
    assert.deepEqual(listingsOf(await search(), 'plovers.eth'), ['3000000000000000000']);
    await t.container.db.updateTable('ens_names').set({ owner_address: SELLER }).where('id', '=', id['ploverling.eth']).execute();
    assert.equal((await search()).find((r) => r.name === 'ploverling.eth')?.owner, SELLER);
  });

  it('leaves out a listing once its end time passes, with no write', async () => {
    await addListing(t.container.db, id['ploverling.eth'], { priceWei: '4000000000000000000', seller: SELLER, expiresAt: new Date(Date.now() + 1500) });
    assert.deepEqual(listingsOf(await search(), 'ploverling.eth'), ['4000000000000000000']);
    assert.deepEqual(listingsOf(await search(), 'ploverling.eth'), ['4000000000000000000']);
    await new Promise((r) => setTimeout(r, 1600));
    assert.deepEqual(listingsOf(await search(), 'ploverling.eth'), []);
  });

  it('ranks trending by the votes cast since, and shows a viewer their vote but not to others', async () => {
    assert.equal((await castVote(t.app, voters[0], 'plovers.eth', 1)).statusCode, 200);
    const first = await trending();
    assert.deepEqual(first.map((r) => [r.name, r.trending_metrics?.period_votes]), [['plovers.eth', 1]]);
    assert.deepEqual(await trending(), first);

    assert.equal((await castVote(t.app, voters[0], 'plover.eth', 1)).statusCode, 200);
    assert.equal((await castVote(t.app, voters[1], 'plover.eth', 1)).statusCode, 200);
    const voted = await trending();
    assert.deepEqual(voted.map((r) => [r.name, r.trending_metrics?.period_votes]), [['plover.eth', 2], ['plovers.eth', 1]]);
    assert.deepEqual(await trending(), voted);

    const mine = await trending({ authorization: `Bearer ${voters[1].token}` });
    assert.deepEqual(mine.map((r) => [r.name, r.user_vote]), [['plover.eth', 1], ['plovers.eth', null]]);
    assert.ok((await trending()).every((r) => !('user_vote' in r)));
  });

  it('shows each viewer their own votes and watches on a kept page, as on a page composed for them', async () => {
    const [a, b] = voters.map((v) => ({ authorization: `Bearer ${v.token}` }));
    const watched = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: b, payload: { ensName: 'plovers.eth' } });
    assert.equal(watched.statusCode, 200, show(watched));
    const shown = (results: Result[]) => results.map((r) => [r.name, r.user_vote, (r as { is_user_watching?: boolean }).is_user_watching]);
    for (const read of [(h: Record<string, string>) => trending(h), async (h: Record<string, string>) => (await get('/api/v1/search?q=plover', h)).results!]) {
      const composed = await read(b); // read first: composed
      assert.deepEqual(await read(b), composed); // read again: composed and kept
      assert.deepEqual(await read(b), composed, 'from the kept page'); // from the kept page
      assert.deepEqual(await read({}), composed.map(({ user_vote: _v, is_user_watching: _w, ...rest }: Result & { is_user_watching?: boolean }) => rest), 'anonymous: no viewer fields');
      const mine = shown(await read(a));
      assert.deepEqual(shown(composed).find(([name]) => name === 'plovers.eth'), ['plovers.eth', null, true], 'b watches plovers.eth');
      assert.deepEqual(mine.find(([name]) => name === 'plovers.eth'), ['plovers.eth', 1, false], 'a voted for it and does not watch it');
    }
  });

  it('keeps a text by the rows its statement returned, never inside a transaction', async () => {
    const rows = [{ id: 1, v: '10', lv: null }, { id: 2, v: '11', lv: '5:12' }];
    const stored = pageJson(t.container.db, 'shape', 'page', rows)!;
    assert.equal(stored.kept, undefined);
    stored.keep({ bytes: Buffer.from('[{"id":1},{"id":2}]'), ids: [1, 2], marks: [8, 17] });
    assert.equal(pageJson(t.container.db, 'shape', 'page', rows.map((r) => ({ ...r })))?.kept?.bytes.toString(), '[{"id":1},{"id":2}]');
    assert.equal(pageJson(t.container.db, 'shape', 'page', [rows[0], { ...rows[1], lv: '5:13' }])?.kept, undefined, 'a listing at another version');
    assert.equal(pageJson(t.container.db, 'other', 'page', rows)?.kept, undefined, 'another shape');
    assert.equal(pageJson(t.container.db, 'shape', 'another page', rows)?.kept, undefined, 'another statement');
    await t.container.db.transaction().execute(async (trx) => {
      assert.equal(pageJson(trx, 'shape', 'page', rows), undefined);
    });
  });
});
