import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { addr, clubName, E, ETH, listing, offer, registration, sale, USDC, WETH } from '../helpers/analytics.js';
import { refreshClubStats, refreshRollups, refreshSnapshots } from '../../src/analytics/index.js';
import { refreshAllMarketSummaries } from '../../src/orders/index.js';
import { recountClubs } from '../../src/services/clubs.service.js';
import { userViewer, viewCounterOf } from '../../src/history/index.js';
import { DAY, HOUR } from '../../src/lib/time.js';

/**
 * Every analytics, charts and club holders/counts endpoint through HTTP, against figures computed by
 * hand from the rows written here (after the jobs' refreshes, as the scheduler runs them):
 *
 *   123.eth (club 999, owner O)  sold 1 ETH 1 h ago (grails), 3 WETH 2 h ago (opensea); listed 5 ETH by O 1 h ago
 *   456.eth (club 999, owner O)  sold 1,000 USDC 1 h ago; registered 1 h ago for 0.1 ETH of which 0.04 premium
 *   apple.eth (no club, owner P) sold 2 ETH 3 days ago; registered 2 h ago for 0.01 ETH; an offer of 0.3 WETH by O 1 h ago
 *   789.eth (999) expired 100 days ago: premium;  777.eth (999) expired 200 days ago: available
 *
 * Views (one per name, viewer and UTC day) and watchlists, through the name page and POST/DELETE /watchlist:
 *   now: 123.eth by O (twice: one view) and by client 10.0.0.1; apple.eth by client 10.0.0.2
 *   3 days ago: 456.eth by O;  9 days ago (stored without a time: the start of its day): 789.eth by client 3
 *   O watches 123.eth and apple.eth; Q watches 123.eth; R added 456.eth and removed it
 */
describe('analytics, charts, club holders and counts', () => {
  let t: TestContext;
  let me: SignedIn;
  let q: SignedIn;
  let r: SignedIn;
  let qEntry: number;
  const O = addressOf(0).toLowerCase();
  const P = addr(8);
  const now = Date.now();
  const ago = (ms: number) => new Date(now - ms);
  const hourOf = (ms: number) => new Date(Math.floor((now - ms) / HOUR) * HOUR).toISOString();
  const dayOf = (ms: number) => new Date(Math.floor((now - ms) / DAY) * DAY).toISOString();
  const refresh = async () => {
    const db = t.container.db;
    await refreshAllMarketSummaries(db);
    await refreshRollups(db, { wethAddress: WETH });
    await refreshSnapshots(db, { force: true });
    await refreshClubStats(db, { gracePeriodDays: 90, premiumPeriodDays: 21 });
    // the answers are cached for the reference's times; a user asking after that sees the new figures
    await t.container.cache.delPrefix('');
  };
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    assert.equal(res.statusCode, 200, show(res));
    return body(res);
  };
  const fails = async (url: string, status: number, code: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}` });
    assert.equal(res.statusCode, status, show(res));
    assert.equal(body(res).error.code, code, show(res));
  };

  before(async () => {
    t = await createTestApp();
    me = await signIn(t.app, 0);
    q = await signIn(t.app, 1);
    r = await signIn(t.app, 2);
    const db = t.container.db;
    const a = await clubName(db, '123.eth', O);
    const b = await clubName(db, '456.eth', O);
    const c = await clubName(db, 'apple.eth', P);
    await clubName(db, '789.eth', addr(9), ago(100 * DAY));
    await clubName(db, '777.eth', addr(9), ago(200 * DAY));
    await recountClubs(db);
    await sale(db, { nameId: a.id, price: E(1), at: ago(HOUR), buyer: O });
    await sale(db, { nameId: a.id, price: E(3), at: ago(2 * HOUR), currency: WETH, source: 'opensea' });
    await sale(db, { nameId: c.id, price: E(2), at: ago(3 * DAY), seller: O });
    await sale(db, { nameId: b.id, price: 1_000_000_000n, at: ago(HOUR), currency: USDC });
    await registration(db, { nameId: b.id, cost: E(0.1), premium: E(0.04), at: ago(HOUR) });
    await registration(db, { nameId: c.id, cost: E(0.01), at: ago(2 * HOUR) });
    await listing(db, { nameId: a.id, price: E(5), at: ago(HOUR), seller: O });
    await offer(db, { nameId: c.id, amount: E(0.3), at: ago(HOUR), buyer: O });

    const page = async (name: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/names/${name}`, headers, remoteAddress })).statusCode, 200);
    await page('123.eth', me.headers);
    await page('123.eth', me.headers);
    await page('123.eth', {}, '10.0.0.1');
    await page('apple.eth', {}, '10.0.0.2');
    const views = viewCounterOf(db);
    views.count(b.id, userViewer(me.userId), ago(3 * DAY));
    assert.equal(await views.flush(), 4);
    const old = await db.selectFrom('ens_names').select('id').where('name', '=', '789.eth').executeTakeFirstOrThrow();
    await sql`INSERT INTO name_views_daily (ens_name_id, day, viewer) VALUES (${old.id}, (now() - interval '9 days')::date, 'ip:3')`.execute(db);
    const watchName = async (who: SignedIn, ensName: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: who.headers, payload: { ensName } });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.id as number;
    };
    await watchName(me, '123.eth');
    await watchName(me, 'apple.eth');
    qEntry = await watchName(q, '123.eth');
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/watchlist/${await watchName(r, '456.eth')}`, headers: r.headers });
    assert.equal(removed.statusCode, 200, show(removed));
    await refresh();
  });
  after(async () => { await t?.close(); });

  it('market: count, volume (ETH and WETH), average, extremes; a new sale moves them', async () => {
    let d = (await get('/analytics/market?period=24h')).data;
    assert.deepEqual(d.volume, {
      sales_count: 3, total_volume_wei: E(4).toString(), avg_sale_price_wei: E(2).toString(), max_sale_price_wei: E(3).toString(),
      min_sale_price_wei: E(1).toString(), unique_names_sold: 2, unique_buyers: 2, unique_sellers: 1,
    });
    assert.deepEqual([d.activity.offers, d.activity.listings, d.overview.active_listings, d.overview.active_offers], [1, 1, 1, 1]);
    d = (await get('/analytics/market?period=7d')).data;
    assert.deepEqual([d.volume.sales_count, d.volume.total_volume_wei, d.volume.unique_names_sold], [4, E(6).toString(), 3]);

    const extra = await clubName(t.container.db, 'extra.eth', P);
    await sale(t.container.db, { nameId: extra.id, price: E(5), at: ago(10 * 60_000) });
    await refresh();
    d = (await get('/analytics/market?period=24h')).data;
    assert.deepEqual([d.volume.sales_count, d.volume.total_volume_wei, d.volume.avg_sale_price_wei, d.volume.max_sale_price_wei], [4, E(9).toString(), E(3).toString(), E(5).toString()]);
    // the chart bucket of its hour has it
    const points = (await get('/charts/volume?period=1d')).data.points as { date: string; total: string }[];
    assert.equal(points.find((p) => p.date === hourOf(10 * 60_000))?.total, (E(5) + (hourOf(10 * 60_000) === hourOf(HOUR) ? E(1) : 0n)).toString());
    await t.container.db.deleteFrom('sales').where('ens_name_id', '=', extra.id).execute();
    await refresh();
  });

  it('market views and watchlists: the period\'s views and additions still held, all-time views, users watching', async () => {
    const figures = async (period: string) => {
      const d = (await get(`/analytics/market?period=${period}`)).data;
      return [d.activity.views, d.activity.watchlist_adds, d.overview.total_views, d.overview.total_watchers];
    };
    assert.deepEqual(await figures('24h'), [3, 3, 5, 2]);
    assert.deepEqual(await figures('7d'), [4, 3, 5, 2]);
    assert.deepEqual(await figures('30d'), [5, 3, 5, 2]);
    // Q stops watching: one watcher and one addition fewer
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/v1/watchlist/${qEntry}`, headers: q.headers })).statusCode, 200);
    await refresh();
    assert.deepEqual(await figures('24h'), [3, 2, 5, 1]);
    // and back (the figures of the other tests)
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: q.headers, payload: { ensName: '123.eth' } });
    assert.equal(again.statusCode, 200, show(again));
    await refresh();
  });

  it('club analytics: members, the active listing as floor, the period volume, views and watchlists; an unknown club is 404', async () => {
    const d = (await get('/analytics/clubs/999?period=7d')).data;
    assert.deepEqual(d.stats, { member_count: 4, active_listings: 1, active_offers: 0, total_views: 4, floor_price_wei: E(5).toString() });
    assert.deepEqual(d.volume, { sales_count: 3, total_volume_wei: E(4).toString(), avg_sale_price_wei: E(2).toString() });
    assert.deepEqual(d.activity, { views: 3, watchlist_adds: 2, votes: 0 });
    assert.deepEqual((await get('/analytics/clubs/999?period=24h')).data.activity, { views: 2, watchlist_adds: 2, votes: 0 });
    // the period's figures are kept until the rollups change: a new sale of a member is in them after the refresh
    const { db } = t.container;
    const member = await db.selectFrom('ens_names').select('id').where(sql<boolean>`'999' = ANY(clubs)`).orderBy('id').executeTakeFirstOrThrow();
    const added = await sale(db, { nameId: member.id, price: E(2), at: ago(10 * 60_000) });
    await refresh();
    assert.deepEqual((await get('/analytics/clubs/999?period=7d')).data.volume, { sales_count: 4, total_volume_wei: E(6).toString(), avg_sale_price_wei: E(2).toString() });
    await db.deleteFrom('sales').where('id', '=', added.id).execute();
    await refresh();
    assert.deepEqual((await get('/analytics/clubs/999?period=7d')).data.volume, d.volume);
    await fails('/analytics/clubs/nosuchclub', 404, 'NOT_FOUND');
  });

  it('price trends: one point per UTC day with sales, ETH and WETH only', async () => {
    const trends = (await get('/analytics/price-trends?period=7d')).data.trends as { date: string; sales_count: number; volume_wei: string }[];
    const expected = new Map<string, { n: number; v: bigint }>();
    for (const [at, v] of [[HOUR, E(1)], [2 * HOUR, E(3)], [3 * DAY, E(2)]] as const) {
      const e = expected.get(dayOf(at)) ?? { n: 0, v: 0n };
      expected.set(dayOf(at), { n: e.n + 1, v: e.v + v });
    }
    assert.deepEqual(trends.filter((p) => p.sales_count > 0).map((p) => [p.date, p.sales_count, p.volume_wei]),
      [...expected].sort().map(([date, e]) => [date, e.n, e.v.toString()]));
  });

  it('volume: sales per price band', async () => {
    const bands = (await get('/analytics/volume?period=7d')).data.distribution as { price_range: string; sales_count: number; total_volume_wei: string }[];
    assert.equal(bands.length, 8);
    assert.deepEqual(bands.filter((b) => b.sales_count > 0), [{ price_range: '1-5 ETH', sales_count: 3, total_volume_wei: E(6).toString() }]);
  });

  it('registrations: summary, by label length, the page, a club filter', async () => {
    const d = (await get('/analytics/registrations?period=7d')).data;
    assert.deepEqual(d.summary, {
      registration_count: 2, total_base_cost_wei: E(0.07).toString(), total_premium_wei: E(0.04).toString(), total_cost_wei: E(0.11).toString(),
      avg_base_cost_wei: E(0.035).toString(), avg_premium_wei: E(0.02).toString(), avg_cost_wei: E(0.055).toString(), premium_registrations: 1, unique_registrants: 1,
    });
    assert.deepEqual(d.results.map((r: { name: string; total_cost_wei: string }) => [r.name, r.total_cost_wei]), [['456.eth', E(0.1).toString()], ['apple.eth', E(0.01).toString()]]);
    // by cost or length, a period of few registrations is read by time and sorted: the same order
    const order = async (qs: string) => (await get(`/analytics/registrations?period=7d&${qs}`)).data.results.map((r: { name: string }) => r.name);
    assert.deepEqual(await order('sortBy=cost&sortOrder=asc'), ['apple.eth', '456.eth']);
    assert.deepEqual(await order('sortBy=cost&sortOrder=desc'), ['456.eth', 'apple.eth']);
    assert.deepEqual(await order('sortBy=length&sortOrder=asc'), ['456.eth', 'apple.eth']);
    assert.deepEqual(await order('sortBy=length&sortOrder=desc&limit=1&page=2'), ['456.eth']);
    const club = (await get('/analytics/registrations?period=7d&clubs[]=999')).data;
    assert.deepEqual(club.results.map((r: { name: string }) => r.name), ['456.eth']);
    // a club of many names is read another way (a semi-join on its members): the same rows
    await sql`UPDATE clubs SET member_count = 50000 WHERE name = '999'`.execute(t.container.db);
    assert.deepEqual((await get('/analytics/registrations?period=7d&clubs[]=999&sortBy=cost')).data.results.map((r: { name: string }) => r.name), ['456.eth']);
    assert.deepEqual((await get('/analytics/sales?period=7d&clubs[]=999&sortBy=price')).data.results.map((r: { name: string }) => r.name), ['123.eth', '123.eth', '456.eth']);
    await recountClubs(t.container.db);
    const byLength = (await get('/analytics/registrations/by-length?period=7d')).data.breakdown;
    assert.deepEqual(byLength.map((r: Record<string, unknown>) => [r.name_length, r.count, r.total_cost_wei, r.avg_base_cost_wei, r.avg_premium_wei, r.median_cost_wei, r.premium_count]), [
      [3, 1, E(0.1).toString(), E(0.06).toString(), E(0.04).toString(), E(0.1).toString(), 1],
      [5, 1, E(0.01).toString(), E(0.01).toString(), '0', E(0.01).toString(), 0],
    ]);
  });

  it('sales, listings and offers feeds: the period, the source and status filters', async () => {
    const sales = (await get('/analytics/sales?period=24h')).data;
    assert.deepEqual(sales.results.map((s: { name: string; sale_price_wei: string }) => [s.name, s.sale_price_wei]).sort(),
      [['123.eth', E(1).toString()], ['123.eth', E(3).toString()], ['456.eth', '1000000000']]);
    assert.equal(sales.pagination.total, 3);
    const opensea = (await get('/analytics/sales?period=7d&source=opensea')).data.results;
    assert.deepEqual(opensea.map((s: { currency_address: string; sale_price_wei: string }) => [s.currency_address, s.sale_price_wei]), [[WETH, E(3).toString()]]);
    const byPrice = (await get('/analytics/sales?period=7d&sortBy=price')).data.results.map((s: { sale_price_wei: string }) => s.sale_price_wei);
    assert.equal(byPrice[0], E(3).toString());
    const listings = (await get('/analytics/listings?period=24h')).data.results;
    assert.deepEqual(listings.map((l: { name: string; price_wei: string; currency_address: string; status: string }) => [l.name, l.price_wei, l.currency_address, l.status]), [['123.eth', E(5).toString(), ETH, 'active']]);
    assert.deepEqual((await get('/analytics/listings?period=24h&status=cancelled')).data.results, []);
    const offers = (await get('/analytics/offers?period=24h&status=active')).data.results;
    assert.deepEqual(offers.map((o: { name: string; offer_amount_wei: string; buyer_address: string }) => [o.name, o.offer_amount_wei, o.buyer_address]), [['apple.eth', E(0.3).toString(), O]]);
    assert.deepEqual((await get('/analytics/offers?period=24h&status=accepted')).data.results, []);
  });

  it('charts: each hour bucket holds its rows, by marketplace, and a club narrows them', async () => {
    const at = (points: { date: string }[], ms: number) => points.find((p) => p.date === hourOf(ms)) as Record<string, unknown> | undefined;
    const sales = (await get('/charts/sales?period=1d')).data.points;
    assert.equal(sales.length, 24);
    assert.deepEqual(at(sales, HOUR), { date: hourOf(HOUR), total: 2, grails: 2, opensea: 0 });
    assert.deepEqual(at(sales, 2 * HOUR), { date: hourOf(2 * HOUR), total: 1, grails: 0, opensea: 1 });
    const volume = (await get('/charts/volume?period=1d')).data.points;
    assert.deepEqual(at(volume, 2 * HOUR), { date: hourOf(2 * HOUR), total: E(3).toString(), grails: '0', opensea: E(3).toString() });
    const regs = (await get('/charts/registrations?period=1d')).data.points;
    assert.deepEqual([at(regs, HOUR)?.count, at(regs, HOUR)?.total_cost_wei, at(regs, HOUR)?.total_premium_wei], [1, E(0.1).toString(), E(0.04).toString()]);
    assert.equal(at((await get('/charts/listings?period=1d')).data.points, HOUR)?.total, 1);
    assert.equal(at((await get('/charts/offers?period=1d')).data.points, HOUR)?.total, 1);
    const club = (await get('/charts/offers?period=1d&club=999')).data.points as { total: number }[];
    assert.equal(club.reduce((n, p) => n + p.total, 0), 0, 'the offer is on apple.eth, in no club');
    // daily points: every name's from the days' totals (four sales of the week), a club's from its days' rows (apple.eth's is not in 999)
    const daily = async (qs: string) => (await get(`/charts/sales?period=7d${qs}`)).data.points as { total: number; grails: number; opensea: number }[];
    const sums = (points: { total: number; grails: number; opensea: number }[]) =>
      points.reduce((n, p) => [n[0] + p.total, n[1] + p.grails, n[2] + p.opensea], [0, 0, 0]);
    assert.deepEqual(sums(await daily('')), [4, 3, 1]);
    assert.deepEqual(sums(await daily('&club=999')), [3, 2, 1]);
    await fails('/charts/sales?period=2d', 400, 'VALIDATION_ERROR');
  });

  it('club page, holders and counts', async () => {
    const club = (await get('/clubs/999')).data;
    assert.deepEqual([club.club.member_count, club.club.total_sales_count, club.club.total_sales_volume_wei, club.club.registered_count, club.club.premium_count, club.club.available_count],
      [4, 3, E(4).toString(), 2, 1, 1]);
    assert.deepEqual(club.names.map((n: { name: string }) => n.name), ['123.eth', '456.eth', '777.eth', '789.eth']);
    const holders = (await get('/clubs/999/holders')).data;
    assert.deepEqual([holders.unique_holders, holders.holders], [1, [{ address: O, name_count: 2 }]], 'names past expiry are not held');
    assert.deepEqual((await get('/clubs/holders?clubs[]=999')).data.holders, [{ address: O, name_count: 2 }]);
    assert.deepEqual(await get(`/clubs/counts/${O}`).then((r) => [r.data['999'], r.data.any]), [2, 2]);
    assert.deepEqual(await get('/clubs/counts/premium').then((r) => [r.data['999'], r.data.any]), [1, 1]);
    assert.deepEqual(await get('/clubs/counts/available').then((r) => [r.data['999'], r.data.any]), [1, 1]);
    await fails('/clubs/counts/0x1234', 400, 'INVALID_ADDRESS');
  });

  it('a club page follows its names\' clubs and labels at once (club_names, kept by a trigger)', async () => {
    const db = t.container.db;
    const page = async () => (await get('/clubs/999')).data.names.map((n: { name: string }) => n.name);
    const sameAsNames = async () => {
      const kept = await sql<{ r: string }>`SELECT club || ' ' || label || ' ' || ens_name_id AS r FROM club_names ORDER BY 1`.execute(db);
      const direct = await sql<{ r: string }>`SELECT DISTINCT c || ' ' || label || ' ' || id AS r FROM ens_names, unnest(clubs) c ORDER BY 1`.execute(db);
      assert.deepEqual(kept.rows, direct.rows);
    };
    await sameAsNames();
    await sql`UPDATE ens_names SET clubs = '{}' WHERE name = '123.eth'`.execute(db);
    assert.deepEqual(await page(), ['456.eth', '777.eth', '789.eth']);
    await sql`UPDATE ens_names SET clubs = '{999}' WHERE name = '123.eth'`.execute(db);
    assert.deepEqual(await page(), ['123.eth', '456.eth', '777.eth', '789.eth']);
    await sameAsNames();
  });

  it("user/me: the caller's activity and portfolio", async () => {
    const d = (await get('/analytics/user/me', me.headers)).data;
    assert.deepEqual(d.activity, { names_viewed: 2, names_watching: 2, votes_cast: 0, offers_made: 1, names_purchased: 1, names_sold: 1 });
    assert.deepEqual(d.portfolio, { owned_names_count: 2, listed_names_count: 1, total_listing_value_wei: E(5).toString(), total_offer_value_wei: E(0.3).toString() });
  });
});
