import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { createSearchName, googleMetricsBody, startGoogleAdsServer, type TestServer } from '../helpers/search.js';

const DAY_MS = 86_400_000;
const EXPECTED = { avgMonthlySearches: 12100, avgCpc: 1.25, monthlyTrend: [9900, 12100, 14800], competition: 'HIGH' };

/** The keyword metrics scenario table, row by row, against a Google Ads REST server on 127.0.0.1. */
describe('GET /api/v1/google-metrics/:name', () => {
  let t: TestContext;
  let ads: TestServer & { env: Record<string, string>; revokeTokens(): void };
  let me: SignedIn;
  let failing = false;
  const get = (name: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/google-metrics/${encodeURIComponent(name)}`, headers });
  const adsCalls = () => ads.requests.filter((r) => r.path.includes('generateKeywordHistoricalMetrics')).length;
  const tokenCalls = () => ads.requests.filter((r) => r.path === '/token').length;

  before(async () => {
    ads = await startGoogleAdsServer((keyword) => {
      if (failing) return { status: 500, body: { error: { code: 500 } } };
      if (keyword === 'nodata') return { status: 200, body: { results: [{ text: 'nodata' }] } };
      return { status: 200, body: googleMetricsBody(keyword) };
    });
    t = await createTestApp(ads.env);
    me = await signIn(t.app, 1);
    for (const n of ['apple.eth', 'banana.eth', 'nodata.eth', 'twentycharacterslong.eth']) await createSearchName(t.container.db, n);
  });
  after(async () => {
    await t?.close();
    await ads?.close();
  });

  it('name not in the database: 200 with data null, cached 5 minutes', async () => {
    const res = await get('unknown.eth');
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).data, null);
    assert.deepEqual(body(res).meta, { timestamp: body(res).meta.timestamp, version: '1.0.0', provider: 'google-ads', reason: 'unknown_name' });
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.equal((await get('unknown')).headers['x-cache'], 'HIT');
    assert.equal(adsCalls(), 0);
  });

  it('cache miss without a token: 401 UNAUTHORIZED', async () => {
    const res = await get('apple.eth');
    assert.equal(res.statusCode, 401, show(res));
    assert.equal(body(res).error.code, 'UNAUTHORIZED');
    assert.equal(adsCalls(), 0);
  });

  it('cache miss with a token: fetched from Google Ads with an OAuth token, mapped, cached 30 days', async () => {
    const res = await get('Apple.eth', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['x-cache'], 'MISS');
    assert.deepEqual(body(res).data, EXPECTED);
    assert.equal(body(res).meta.provider, 'google-ads');
    assert.equal(body(res).meta.reason, undefined, 'no reason when there are metrics');
    assert.equal(tokenCalls(), 1);
    const call = ads.requests.find((r) => r.path.includes('generateKeywordHistoricalMetrics'))!;
    assert.deepEqual(JSON.parse(call.body).keywords, ['apple']);
    assert.equal(call.headers['developer-token'], 'dev-token-1');
    const row = await t.container.db.selectFrom('keyword_metrics').selectAll().where('label', '=', 'apple').executeTakeFirstOrThrow();
    assert.deepEqual(row.metrics, EXPECTED);
    const days = (new Date(row.expires_at).getTime() - Date.now()) / DAY_MS;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
  });

  it('cache hit: the cached metrics for any caller, from the 15 s tier and from the database', async () => {
    const calls = adsCalls();
    const shared = await get('apple');
    assert.equal(shared.statusCode, 200, show(shared));
    assert.equal(shared.headers['x-cache'], 'HIT');
    await t.container.cache.delPrefix('search:');
    const stored = await get('apple.eth');
    assert.equal(stored.headers['x-cache'], 'HIT');
    assert.equal(stored.headers['cache-control'], 'public, max-age=15');
    assert.deepEqual(body(stored).data, EXPECTED);
    assert.equal(adsCalls(), calls);
  });

  it('keeps the access token for later requests', async () => {
    const res = await get('banana.eth', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(tokenCalls(), 1);
  });

  it('renews a rejected access token once and carries on', async () => {
    ads.revokeTokens();
    await createSearchName(t.container.db, 'cherry.eth');
    const res = await get('cherry.eth', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, EXPECTED);
    assert.equal(tokenCalls(), 2);
  });

  it('keyword without metrics: data null, cached like any answer', async () => {
    const res = await get('nodata.eth', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).data, null);
    assert.equal(body(res).meta.reason, 'no_data', show(res));
    await t.container.cache.delPrefix('search:');
    const again = await get('nodata.eth');
    assert.equal(again.statusCode, 200, show(again));
    assert.equal(again.headers['x-cache'], 'HIT');
  });

  it('provider failure: 200 with data null, not cached (one retry)', async () => {
    failing = true;
    const before = adsCalls();
    const res = await get('twentycharacterslong.eth', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).data, null);
    assert.deepEqual([body(res).meta.provider, body(res).meta.reason], ['google-ads', 'provider_failed'], show(res));
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(adsCalls() - before, 2);
    const row = await t.container.db.selectFrom('keyword_metrics').select('label').where('label', '=', 'twentycharacterslong').executeTakeFirst();
    assert.equal(row, undefined);
    assert.equal((await get('twentycharacterslong.eth')).statusCode, 401, 'still a miss');
    failing = false;
    assert.deepEqual(body(await get('twentycharacterslong.eth', me.headers)).data, EXPECTED);
  });

  it('answers 400 INVALID_NAME over 20 characters after normalization, over 40 as sent, or invalid', async () => {
    for (const name of ['twentyonecharacterslong', 'twentyonecharacterslong.eth', 'a'.repeat(41), 'a b', 'x.apple.eth']) {
      const res = await get(name);
      assert.equal(res.statusCode, 400, `${name}: ${show(res)}`);
      assert.equal(body(res).error.code, 'INVALID_NAME', `${name}: ${show(res)}`);
    }
  });
});

describe('GET /api/v1/google-metrics/:name without a provider configured', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
    await createSearchName(t.container.db, 'apple.eth');
  });
  after(async () => { await t?.close(); });

  it('is a provider failure: 200 with data null that says so (meta.provider none), not cached, no invented numbers', async () => {
    const me = await signIn(t.app, 1);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/google-metrics/apple.eth', headers: me.headers });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).data, null);
    assert.deepEqual([body(res).meta.provider, body(res).meta.reason, body(res).meta.version], ['none', 'no_provider', '1.0.0'], show(res));
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(await t.container.db.selectFrom('keyword_metrics').select('label').executeTakeFirst(), undefined);
  });
});
