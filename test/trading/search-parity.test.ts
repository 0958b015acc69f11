import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { addListing, createSearchName, days } from '../helpers/search.js';

const ONE_ETH = 10n ** 18n;

/** Every filter and sort of the reference's global search, on names this test writes. */
describe('GET /api/v1/search: the reference\'s filters and sorts', () => {
  let t: TestContext;
  const get = (qs: string) => t.app.inject({ method: 'GET', url: `/api/v1/search?limit=100&${qs}` });
  const names = async (qs: string) => {
    const res = await get(qs);
    assert.equal(res.statusCode, 200, `${qs}: ${show(res)}`);
    return (body(res).data.results as Array<{ name: string }>).map((r) => r.name).sort();
  };

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const sale = (d: number) => ({ date: days(-d), priceWei: ONE_ETH.toString(), currency: '0x0000000000000000000000000000000000000000' });
    await createSearchName(db, 'alpha.eth', { owner: addressOf(1), clubs: ['x', 'y'], registrationDate: new Date('2020-01-01'), lastSale: sale(10), listing: { priceWei: ONE_ETH.toString(), seller: addressOf(1) } });
    await createSearchName(db, 'beta7.eth', { owner: addressOf(2), clubs: ['x'], registrationDate: new Date('2021-06-01'), expiryDate: days(-10) });
    await createSearchName(db, '999.eth', { owner: addressOf(2), clubs: ['999'], registrationDate: new Date('2023-03-01'), listing: { priceWei: (2n * ONE_ETH).toString(), seller: addressOf(2) } });
    await createSearchName(db, 'gamma.eth', { owner: addressOf(3), clubs: [], registrationDate: new Date('2019-05-05'), expiryDate: days(-100), lastSale: sale(400) });
    await createSearchName(db, 'zeta.eth', { owner: addressOf(3), clubs: [], registrationDate: new Date('2024-01-01'), expiryDate: days(-200) });
    await t.container.db.insertInto('keyword_metrics').values({ label: 'gamma', metrics: JSON.stringify({ avgMonthlySearches: 900, avgCpc: 1.5 }), expires_at: days(30) }).execute();
  });
  after(async () => { await t?.close(); });

  it('include on every character class is no constraint (the web app\'s default query)', async () => {
    const all = await names('');
    assert.equal(all.length, 5);
    assert.deepEqual(await names('filters[letters]=include&filters[digits]=include&filters[emoji]=include&filters[repeatingChars]=include'), all);
  });

  it('answers and applies each filter', async () => {
    const cases: Array<[string, string[]]> = [
      ['filters[minWatchersCount]=1', []],
      ['filters[maxWatchersCount]=5', ['999.eth', 'alpha.eth', 'beta7.eth', 'gamma.eth', 'zeta.eth']],
      ['filters[minViewCount]=1', []],
      ['filters[maxViewCount]=0', ['999.eth', 'alpha.eth', 'beta7.eth', 'gamma.eth', 'zeta.eth']],
      ['filters[minClubsCount]=2', ['alpha.eth']],
      ['filters[maxClubsCount]=0', ['gamma.eth', 'zeta.eth']],
      ['filters[hasNumbers]=true', ['999.eth', 'beta7.eth']],
      ['filters[hasEmoji]=false', ['999.eth', 'alpha.eth', 'beta7.eth', 'gamma.eth', 'zeta.eth']],
      ['filters[doesNotContain]=a', ['999.eth', 'beta7.eth'].filter((n) => !n.includes('a'))],
      ['filters[doesNotStartWith]=ga', ['999.eth', 'alpha.eth', 'beta7.eth', 'zeta.eth']],
      ['filters[doesNotEndWith]=a', ['999.eth', 'beta7.eth']],
      ['filters[showListings]=true', ['999.eth', 'alpha.eth']],
      ['filters[showUnlisted]=true', ['beta7.eth', 'gamma.eth', 'zeta.eth']],
      ['filters[marketplace]=grails', ['999.eth', 'alpha.eth']],
      ['filters[marketplace]=opensea', []],
      ['filters[marketplace]=all', ['999.eth', 'alpha.eth', 'beta7.eth', 'gamma.eth', 'zeta.eth']],
      ['filters[inAnyClub]=true', ['999.eth', 'alpha.eth', 'beta7.eth']],
      ['filters[status]=grace,premium', ['beta7.eth', 'gamma.eth']],
      ['filters[status][]=available&filters[status][]=registered', ['999.eth', 'alpha.eth', 'zeta.eth']],
      ['filters[status]=all', ['999.eth', 'alpha.eth', 'beta7.eth', 'gamma.eth', 'zeta.eth']],
      ['filters[isExpired]=true', ['beta7.eth', 'gamma.eth', 'zeta.eth']],
      ['filters[isGracePeriod]=true', ['beta7.eth']],
      ['filters[isPremiumPeriod]=true', ['gamma.eth']],
      ['filters[includeExpired]=false', ['999.eth', 'alpha.eth', 'beta7.eth']],
      ['filters[lastSoldAfter]=' + days(-30).toISOString(), ['alpha.eth']],
      ['filters[lastSoldBefore]=' + days(-30).toISOString(), ['gamma.eth']],
      ['filters[minDaysSinceLastSale]=100', ['gamma.eth']],
      ['filters[maxDaysSinceLastSale]=100', ['alpha.eth']],
      ['filters[minCreationDate]=2021-01-01', ['999.eth', 'beta7.eth', 'zeta.eth']],
      ['filters[maxCreationDate]=2020-12-31', ['alpha.eth', 'gamma.eth']],
      ['filters[owner]=999.eth', ['999.eth', 'beta7.eth']],
      ['filters[owner]=' + addressOf(3), ['gamma.eth', 'zeta.eth']],
      ['filters[uniqueSeller]=true&filters[listed]=true', ['999.eth', 'alpha.eth']],
    ];
    for (const [qs, expected] of cases) assert.deepEqual(await names(qs), expected.sort(), qs);
  });

  it('answers each sort, in the order it names', async () => {
    const ordered = async (qs: string) => {
      const res = await get(qs);
      assert.equal(res.statusCode, 200, `${qs}: ${show(res)}`);
      return (body(res).data.results as Array<{ name: string }>).map((r) => r.name);
    };
    assert.deepEqual(await ordered('sortBy=creation_date&sortOrder=asc'), ['gamma.eth', 'alpha.eth', 'beta7.eth', '999.eth', 'zeta.eth']);
    assert.deepEqual((await ordered('sortBy=clubs_count')).slice(0, 1), ['alpha.eth']);
    assert.deepEqual(await ordered('sortBy=listing_expiry&filters[listed]=true'), ['alpha.eth', '999.eth'], 'no end time on either: ties by id');
    assert.deepEqual((await ordered('sortBy=listing_expiry')).slice(2).sort(), ['beta7.eth', 'gamma.eth', 'zeta.eth'], 'unlisted names after the listed');
    // A listing that ends comes before one that never does, whatever the ids.
    const ending = await t.container.db.selectFrom('ens_names').select('id').where('name', '=', 'gamma.eth').executeTakeFirstOrThrow();
    await addListing(t.container.db, ending.id, { priceWei: ONE_ETH.toString(), seller: addressOf(3), expiresAt: new Date(Date.now() + 86_400_000) });
    assert.deepEqual(await ordered('sortBy=listing_expiry&filters[listed]=true'), ['gamma.eth', 'alpha.eth', '999.eth']);
    assert.deepEqual(await ordered('sortBy=listing_expiry&sortOrder=desc&filters[listed]=true'), ['999.eth', 'alpha.eth', 'gamma.eth']);
    assert.deepEqual((await ordered('sortBy=google_monthly_searches'))[0], 'gamma.eth');
    assert.deepEqual((await ordered('sortBy=google_avg_cpc'))[0], 'gamma.eth');
    assert.equal((await ordered('sortBy=watchers_count')).length, 5);
    assert.equal((await ordered('sortBy=view_count&sortOrder=asc')).length, 5);
    assert.deepEqual(await ordered('sortBy=ranking&filters[clubs][]=x'), ['alpha.eth', 'beta7.eth']);
    const noClub = await get('sortBy=ranking');
    assert.equal(noClub.statusCode, 400, show(noClub));
    assert.equal(body(noClub).error.details.field, 'query.sortBy');
  });

  it('results carry each active listing\'s signed order for buying', async () => {
    const res = await get('filters[listed]=true');
    for (const r of body(res).data.results as Array<{ listings: Array<{ order_data: unknown }> }>) {
      assert.equal(r.listings.length, 1);
      assert.equal(typeof r.listings[0].order_data, 'object');
    }
  });
});
