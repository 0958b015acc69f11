import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { addListing, addOffer, bulkNames, createSearchName, days } from '../helpers/search.js';
import { filterConditions } from '../../src/search/query.js';

const E18 = '000000000000000000';
const names = (res: { body: string }) => (JSON.parse(res.body).data.results as Array<{ name: string }>).map((r) => r.name);
const sorted = (list: string[]) => [...list].sort();

/**
 * Eleven names with hand-picked market state; every expectation below is worked out from this table.
 *
 * name       listing (age)   offer   sale (age)    expiry  owner  votes  clubs
 * apple      0.5 ETH (3 d)   0.1     0.2 (200 d)   +200 d  1      5/1
 * pineapple  2 ETH (1 d)                           +30 d   2      1/0
 * applepie                   0.3                   -10 d   2             (grace)
 * appel                                            -100 d                (premium)
 * 007        1 ETH (2 d)             0.5 (10 d)    -200 d                999 (available)
 * 1234                                             +10 d   1      0/3    10k
 * 😀😀, a😀, zzz, abc, web3: no market state, expiry +365 d (factory default)
 */
describe('GET /api/v1/search', () => {
  let t: TestContext;
  let url: (qs: string) => string;
  const get = (qs: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: url(qs), headers });

  before(async () => {
    t = await createTestApp();
    url = (qs) => `/api/v1/search?${qs}`;
    const db = t.container.db;
    const [a1, a2] = [addressOf(1), addressOf(2)];
    await createSearchName(db, 'apple.eth', {
      owner: a1, expiryDate: days(200), registrationDate: days(-400),
      listing: { priceWei: `5${E18.slice(1)}`, seller: a1, createdAt: days(-3) },
      offer: { amountWei: `1${E18.slice(1)}`, buyer: a2 },
      lastSale: { date: days(-200), priceWei: `2${E18.slice(1)}`, currency: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' },
      votes: { up: 5, down: 1 },
    });
    await createSearchName(db, 'pineapple.eth', { owner: a2, expiryDate: days(30), listing: { priceWei: `2${E18}`, seller: a2, createdAt: days(-1) }, votes: { up: 1, down: 0 } });
    await createSearchName(db, 'applepie.eth', { owner: a2, expiryDate: days(-10), offer: { amountWei: `3${E18.slice(1)}`, buyer: a1 } });
    await createSearchName(db, 'appel.eth', { expiryDate: days(-100) });
    await createSearchName(db, '007.eth', {
      expiryDate: days(-200), listing: { priceWei: `1${E18}`, seller: a1, createdAt: days(-2) },
      lastSale: { date: days(-10), priceWei: `5${E18.slice(1)}`, currency: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' },
    });
    await createSearchName(db, '1234.eth', { owner: a1, expiryDate: days(10), votes: { up: 0, down: 3 } });
    for (const n of ['😀😀.eth', 'a😀.eth', 'zzz.eth', 'abc.eth', 'web3.eth']) await createSearchName(db, n);
    // Rows that must never appear: a subname and a label that is not normalized.
    await sql`INSERT INTO ens_names (name, label, labelhash, namehash, token_id) VALUES
      ('sub.apple.eth', 'sub', '0x${sql.raw('a'.repeat(64))}', '0x${sql.raw('b'.repeat(64))}', 1),
      ('Apple2.eth', 'Apple2', '0x${sql.raw('c'.repeat(64))}', '0x${sql.raw('d'.repeat(64))}', 2)`.execute(db);
  });
  after(async () => { await t?.close(); });

  it('orders by relevance with q: exact, prefix, substring, then similar', async () => {
    const res = await get('q=apple');
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(names(res), ['apple.eth', 'applepie.eth', 'pineapple.eth', 'appel.eth'], show(res));
    const b = body(res);
    assert.deepEqual(b.meta.sort, { by: 'relevance', order: 'desc' });
    assert.equal(b.meta.totalCapped, false);
    assert.deepEqual(b.data.pagination, { page: 1, limit: 20, total: 4, totalPages: 1, hasNext: false, hasPrev: false });
  });

  it('matches a short q by exact label and prefix only; .eth and case do not matter', async () => {
    assert.deepEqual(names(await get('q=ap')), ['appel.eth', 'apple.eth', 'applepie.eth']);
    // Pages the short labels fill, and the page they leave to the whole prefix range.
    assert.deepEqual(names(await get('q=ap&limit=2')), ['appel.eth', 'apple.eth']);
    assert.deepEqual(names(await get('q=ap&limit=2&page=2')), ['applepie.eth']);
    assert.deepEqual(names(await get('q=p&limit=1')), ['pineapple.eth'], 'a label longer than the lengths read one by one');
    assert.deepEqual(names(await get('q=APPLE.eth')).slice(0, 1), ['apple.eth']);
    assert.deepEqual(names(await get('q=appl')), ['apple.eth', 'applepie.eth', 'pineapple.eth'], 'under 5 characters: no similarity matches');
  });

  it('never shows subnames or unnormalized labels', async () => {
    assert.deepEqual(names(await get('q=sub')), []);
    assert.ok(!names(await get('limit=100&sortBy=alphabetical')).some((n) => n.includes('sub') || n.includes('Apple2')));
  });

  it('filters by price and offer ranges (wei, numerically)', async () => {
    assert.deepEqual(names(await get(`filters[minPrice]=6${E18.slice(1)}&filters[maxPrice]=2${E18}&sortBy=price`)), ['007.eth', 'pineapple.eth']);
    assert.deepEqual(names(await get(`minOffer=2${E18.slice(1)}`)), ['applepie.eth']);
    assert.deepEqual(sorted(names(await get(`filters[maxOffer]=3${E18.slice(1)}`))), ['apple.eth', 'applepie.eth']);
  });

  it('filters by length in characters (an emoji counts once)', async () => {
    assert.deepEqual(sorted(names(await get('filters[minLength]=4&filters[maxLength]=4'))), ['1234.eth', 'web3.eth']);
    assert.deepEqual(sorted(names(await get('maxLength=2'))), ['a😀.eth', '😀😀.eth']);
  });

  it('filters digits, letters, emoji and repeating characters by exclude and only; include (the web app\'s default) is no constraint', async () => {
    assert.deepEqual(sorted(names(await get('filters[digits]=only'))), ['007.eth', '1234.eth']);
    const all = sorted(names(await get('limit=100')));
    assert.deepEqual(sorted(names(await get('filters[digits]=include&filters[letters]=include&filters[emoji]=include&filters[repeatingChars]=include&limit=100'))), all);
    assert.equal(names(await get('filters[digits]=exclude&limit=100')).length, 8);
    assert.deepEqual(sorted(names(await get('letters=only'))), ['abc.eth', 'appel.eth', 'apple.eth', 'applepie.eth', 'pineapple.eth', 'zzz.eth']);
    assert.deepEqual(sorted(names(await get('emoji=only'))), ['😀😀.eth']);
    assert.deepEqual(sorted(names(await get('repeatingChars=only'))), ['zzz.eth', '😀😀.eth']);
    assert.deepEqual(sorted(names(await get('repeatingChars=exclude'))), sorted(['1234.eth', 'a😀.eth', 'abc.eth', 'web3.eth']));
  });

  it('filters by contains, startsWith and endsWith', async () => {
    assert.deepEqual(sorted(names(await get('filters[contains]=ppl'))), ['apple.eth', 'applepie.eth', 'pineapple.eth']);
    assert.deepEqual(sorted(names(await get('startsWith=app'))), ['appel.eth', 'apple.eth', 'applepie.eth']);
    assert.deepEqual(sorted(names(await get('endsWith=le'))), ['apple.eth', 'pineapple.eth']);
    assert.deepEqual(names(await get('endsWith=3')), ['web3.eth']);
    assert.deepEqual(names(await get('contains=_')), [], 'an underscore is a character, not a LIKE wildcard');
    // two characters (the index of character pairs): at the start, the end, repeated, by code point
    assert.deepEqual(sorted(names(await get('contains=pp'))), ['appel.eth', 'apple.eth', 'applepie.eth', 'pineapple.eth']);
    assert.deepEqual(sorted(names(await get('contains=ap'))), ['appel.eth', 'apple.eth', 'applepie.eth', 'pineapple.eth']);
    assert.deepEqual(names(await get('contains=ie')), ['applepie.eth']);
    assert.deepEqual(names(await get('contains=zz')), ['zzz.eth']);
    assert.deepEqual(names(await get('contains=00&filters[digits]=only')), ['007.eth']);
    assert.deepEqual(sorted(names(await get(`contains=${encodeURIComponent('😀😀')}`))), ['😀😀.eth']);
    assert.deepEqual(sorted(names(await get(`contains=${encodeURIComponent('a😀')}`))), ['a😀.eth']);
    assert.deepEqual(names(await get('contains=pa')), []);
    assert.deepEqual(sorted(names(await get('endsWith=pie'))), ['applepie.eth']);
  });

  it('filters listed, hasOffer and hasSales', async () => {
    assert.deepEqual(sorted(names(await get('filters[listed]=true'))), ['007.eth', 'apple.eth', 'pineapple.eth']);
    assert.equal(names(await get('filters[listed]=false&limit=100')).length, 8);
    assert.deepEqual(sorted(names(await get('hasOffer=true'))), ['apple.eth', 'applepie.eth']);
    assert.deepEqual(sorted(names(await get('hasSales=true'))), ['007.eth', 'apple.eth']);
  });

  it('filters clubs (any of) and excludeClubs, in bracket, comma and repeated forms', async () => {
    assert.deepEqual(sorted(names(await get('filters[clubs][]=999&filters[clubs][]=10k'))), ['007.eth', '1234.eth']);
    assert.deepEqual(sorted(names(await get('clubs=999,10k'))), ['007.eth', '1234.eth']);
    assert.deepEqual(sorted(names(await get('clubs[]=999&clubs[]=3-letters'))), ['007.eth', 'abc.eth', 'zzz.eth']);
    const rest = names(await get('filters[excludeClubs]=999,10k,3-letters&limit=100'));
    assert.equal(rest.length, 7);
    assert.ok(!rest.includes('007.eth') && !rest.includes('zzz.eth'));
  });

  it('filters by status with the 90 + 21 day periods, expiringWithinDays and owner', async () => {
    assert.deepEqual(names(await get('filters[status]=grace')), ['applepie.eth']);
    assert.deepEqual(names(await get('filters[status]=premium')), ['appel.eth']);
    assert.deepEqual(names(await get('status=available')), ['007.eth']);
    assert.equal(names(await get('status=registered&limit=100')).length, 8);
    assert.deepEqual(names(await get('expiringWithinDays=31&sortBy=expiry_date')), ['1234.eth', 'pineapple.eth']);
    assert.deepEqual(sorted(names(await get(`filters[owner]=${addressOf(1).toUpperCase().replace('0X', '0x')}`))), ['1234.eth', 'apple.eth']);
  });

  it('sorts by each key, values first and names without a value last in both directions', async () => {
    const top = async (qs: string, n: number) => names(await get(`${qs}&limit=100`)).slice(0, n);
    assert.deepEqual(await top('sortBy=price', 3), ['apple.eth', '007.eth', 'pineapple.eth']);
    assert.deepEqual(await top('sortBy=price&sortOrder=desc', 3), ['pineapple.eth', '007.eth', 'apple.eth']);
    const desc = names(await get('sortBy=price&sortOrder=desc&limit=100'));
    assert.equal(desc.length, 11);
    assert.equal(desc[3], 'web3.eth', 'unlisted names follow, newest id first when descending');
    assert.deepEqual(await top('sortBy=offer', 2), ['applepie.eth', 'apple.eth']);
    assert.deepEqual(await top('sortBy=last_sale_date', 2), ['007.eth', 'apple.eth']);
    assert.deepEqual(await top('sortBy=last_sale_price', 2), ['007.eth', 'apple.eth']);
    assert.deepEqual(await top('sortBy=listing_date', 3), ['pineapple.eth', '007.eth', 'apple.eth']);
    assert.deepEqual(await top('sortBy=expiry_date', 4), ['007.eth', 'appel.eth', 'applepie.eth', '1234.eth']);
    assert.deepEqual(await top('sortBy=registration_date&sortOrder=asc', 1), ['apple.eth']);
    assert.deepEqual(await top('sortBy=votes', 2), ['apple.eth', 'pineapple.eth']);
    assert.deepEqual((await top('sortBy=votes&sortOrder=asc', 1)), ['1234.eth']);
    assert.deepEqual(await top('sortBy=character_count', 3), ['a😀.eth', '😀😀.eth', '007.eth'], 'ties alphabetical');
    assert.deepEqual(await top('sortBy=alphabetical', 4), ['007.eth', '1234.eth', 'abc.eth', 'appel.eth']);
    assert.deepEqual(await top('q=apple&sortBy=alphabetical', 4), ['appel.eth', 'apple.eth', 'applepie.eth', 'pineapple.eth']);
  });

  it('pages in style B across the names with and without a value', async () => {
    const p2 = await get('sortBy=price&limit=2&page=2');
    assert.equal(p2.statusCode, 200, show(p2));
    assert.deepEqual(names(p2), ['pineapple.eth', 'applepie.eth']);
    assert.deepEqual(body(p2).data.pagination, { page: 2, limit: 2, total: 11, totalPages: 6, hasNext: true, hasPrev: true });
    // Page 3 starts past the listed names: unlisted names by id (appel is the second unlisted).
    assert.deepEqual(names(await get('sortBy=price&limit=2&page=3')), ['appel.eth', '1234.eth']);
    const last = await get('sortBy=alphabetical&limit=5&page=3');
    assert.deepEqual(body(last).data.pagination, { page: 3, limit: 5, total: 11, totalPages: 3, hasNext: false, hasPrev: true });
    assert.deepEqual(names(last), ['😀😀.eth']);
  });

  it("adds the caller's user_vote with a token and leaves it out without", async () => {
    const me = await signIn(t.app, 3);
    const apple = await t.container.db.selectFrom('ens_names').select('id').where('name', '=', 'apple.eth').executeTakeFirstOrThrow();
    await t.container.db.insertInto('votes').values({ user_id: me.userId, ens_name_id: apple.id, vote: 1 }).execute();
    const signedIn = body(await get('q=apple', me.headers)).data.results;
    assert.equal(signedIn[0].user_vote, 1);
    assert.equal(signedIn[1].user_vote, null);
    const anonymous = body(await get('q=apple')).data.results;
    assert.equal('user_vote' in anonymous[0], false);
    // a name the caller both voted on and watches shows both; another they only watch shows the watch
    for (const ensName of ['apple.eth', 'applepie.eth']) {
      const watched = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: me.headers, payload: { ensName } });
      assert.equal(watched.statusCode, 200, show(watched));
    }
    const both = body(await get('q=apple', me.headers)).data.results as Array<{ name: string; user_vote: number | null; is_user_watching: boolean }>;
    const shown = Object.fromEntries(both.map((r) => [r.name, [r.user_vote, r.is_user_watching]]));
    assert.deepEqual([shown['apple.eth'], shown['applepie.eth'], shown['pineapple.eth']], [[1, true], [null, true], [null, false]], JSON.stringify(both));
    const bad = await get('q=apple', { authorization: 'Bearer not.a.token' });
    assert.equal(bad.statusCode, 401, show(bad));
    assert.equal(body(bad).error.code, 'UNAUTHORIZED');
  });

  it('answers 400 VALIDATION_ERROR naming the field for unknown filters and bad values', async () => {
    const cases: Array<[string, string]> = [
      ['foo=1', 'query.foo'],
      ['filters[foo]=1', 'query.filters.foo'],
      ['filters[digits]=some', 'query.filters.digits'],
      ['minPrice=1.5', 'query.minPrice'],
      ['filters[minPrice]=5&filters[maxPrice]=4', 'query.filters.maxPrice'],
      ['minLength=0', 'query.minLength'],
      ['status=expired', 'query.status'],
      ['owner=0x123', 'query.owner'],
      ['listed=maybe', 'query.listed'],
      ['minPrice=1&filters[minPrice]=2', 'query.filters.minPrice'],
      ['contains=a.b', 'query.contains'],
      ['sortBy=rarity', 'query.sortBy'],
      ['sortOrder=up', 'query.sortOrder'],
      ['limit=101', 'query.limit'],
      ['limit=0', 'query.limit'],
      ['page=0', 'query.page'],
      ['page=501&limit=20', 'query.page'],
      ['filters=abc', 'query.filters'],
    ];
    for (const [qs, field] of cases) {
      const res = await get(qs);
      assert.equal(res.statusCode, 400, `${qs}: ${show(res)}`);
      assert.equal(body(res).error.code, 'VALIDATION_ERROR', `${qs}: ${show(res)}`);
      assert.equal(body(res).error.details.field, field, `${qs}: ${show(res)}`);
    }
    assert.equal((await get('page=500&limit=20')).statusCode, 200, 'the last page of the window');
  });

  it('is not cached', async () => {
    const res = await get('q=apple');
    assert.equal(res.headers['cache-control'], 'no-store');
  });
});

describe('GET /api/v1/search at scale: capped totals', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
    await bulkNames(t.container.db, 'bulk', 10_005);
    await createSearchName(t.container.db, '999.eth');
  });
  after(async () => { await t?.close(); });

  it('reports 10,000 and totalCapped when more names match, the exact count when fewer', async () => {
    const all = await t.app.inject({ method: 'GET', url: '/api/v1/search?limit=100' });
    assert.equal(all.statusCode, 200, show(all));
    assert.deepEqual(body(all).data.pagination, { page: 1, limit: 100, total: 10_000, totalPages: 100, hasNext: true, hasPrev: false });
    assert.equal(body(all).meta.totalCapped, true);
    const few = await t.app.inject({ method: 'GET', url: '/api/v1/search?startsWith=bulk1000' });
    assert.equal(body(few).data.pagination.total, 6, show(few));
    assert.equal(body(few).meta.totalCapped, false);
    const club = await t.app.inject({ method: 'GET', url: '/api/v1/search?clubs=999' });
    assert.deepEqual(names(club), ['999.eth'], show(club));
  });

  it('looks two characters, and a text\'s pairs around a separator, up in the pair index (else a rare pair reads every name)', async () => {
    const ctx = { now: new Date(), gracePeriodDays: 90, premiumPeriodDays: 21 };
    await sql`ANALYZE ens_names`.execute(t.container.db);
    for (const contains of ['zq', 'a-b', 'x😀y']) {
      const where = sql.join(filterConditions({ contains }, ctx), sql` AND `);
      const plan = (await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM ens_names WHERE searchable AND ${where}`.execute(t.container.db)).rows
        .map((r) => r['QUERY PLAN']).join('\n');
      assert.match(plan, /Bitmap Index Scan on ens_names_s_bigram_idx/, `${contains}: ${plan}`);
    }
  });
});

describe('GET /api/v1/names/:name', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const n = await createSearchName(db, 'vault.eth', { owner: addressOf(1), listing: { priceWei: `3${E18}`, seller: addressOf(1), createdAt: days(-2) } });
    await addListing(db, n.id, { priceWei: `2${E18}`, seller: addressOf(5), createdAt: days(-1) });
    await addOffer(db, n.id, { amountWei: `1${E18}`, buyer: addressOf(2) });
    await addOffer(db, n.id, { amountWei: `15${E18.slice(1)}`, buyer: addressOf(3) });
    const rejected = await addOffer(db, n.id, { amountWei: `9${E18}`, buyer: addressOf(4) });
    await db.updateTable('offers').set({ status: 'rejected' }).where('id', '=', rejected.id).execute();
  });
  after(async () => { await t?.close(); });

  it('returns the standard result with active listings (newest first) and pending offers (highest first)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/names/Vault.eth' });
    assert.equal(res.statusCode, 200, show(res));
    const d = body(res).data;
    assert.equal(d.name, 'vault.eth');
    assert.equal(d.owner, addressOf(1));
    assert.deepEqual(d.listings.map((l: { price: string }) => l.price), [`2${E18}`, `3${E18}`]);
    assert.deepEqual(d.offers.map((o: { offer_amount_wei: string }) => o.offer_amount_wei), [`15${E18.slice(1)}`, `1${E18}`]);
    assert.equal(d.offers[0].status, 'pending');
    assert.equal(d.offers[0].name, 'vault.eth');
    assert.equal(d.offers[0].buyer_address, addressOf(3));
    assert.equal('user_vote' in d, false);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/names/vault' })).statusCode, 200, 'without .eth');
  });

  it('answers 404 NAME_NOT_FOUND and 400 INVALID_NAME', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/names/nothere.eth' });
    assert.equal(missing.statusCode, 404, show(missing));
    assert.equal(body(missing).error.code, 'NAME_NOT_FOUND');
    const sub = await t.app.inject({ method: 'GET', url: '/api/v1/names/a.vault.eth' });
    assert.equal(sub.statusCode, 400, show(sub));
    assert.equal(body(sub).error.code, 'INVALID_NAME');
  });
});
