import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';

type Inject = TestContext['app']['inject'];
const related = (app: TestContext['app'], remoteAddress: string, headers: Record<string, string> = {}) =>
  (app.inject as Inject)({ method: 'GET', url: '/api/v1/ai/search/related?q=fruit', remoteAddress, headers });

/** Stored suggestions make every related search a cache hit, answerable without a token. */
async function storeFruitSuggestions(t: TestContext): Promise<void> {
  await t.container.db.insertInto('ai_suggestions').values({ kind: 'related', key: 'fruit', suggestions: ['pear'], expires_at: new Date(Date.now() + 86_400_000) }).execute();
}

function assertLimited(res: Awaited<ReturnType<typeof related>>): void {
  assert.equal(res.statusCode, 429, show(res));
  assert.equal(body(res).error.code, 'RATE_LIMITED');
  assert.equal(body(res).success, false);
  assert.ok(Number(res.headers['retry-after']) > 0 && Number(res.headers['retry-after']) <= 60, `Retry-After ${res.headers['retry-after']}`);
}

describe('rate limits per IP', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
    await storeFruitSuggestions(t);
  });
  after(async () => { await t?.close(); });

  it('related search: 30 a minute, the 31st is 429 RATE_LIMITED with Retry-After; other IPs unaffected', async () => {
    for (let i = 1; i <= 30; i++) {
      const res = await related(t.app, '10.1.0.1');
      assert.equal(res.statusCode, 200, `request ${i}: ${show(res)}`);
    }
    assertLimited(await related(t.app, '10.1.0.1'));
    assert.equal((await related(t.app, '10.1.0.2')).statusCode, 200);
  });

  it('keyword metrics and recommendations: 60 a minute each', async () => {
    for (const path of ['/api/v1/google-metrics/unknown.eth', '/api/v1/ai-recommendations/unknown.eth']) {
      for (let i = 1; i <= 60; i++) {
        const res = await t.app.inject({ method: 'GET', url: path, remoteAddress: '10.1.0.3' });
        assert.equal(res.statusCode, 200, `${path} request ${i}: ${show(res)}`);
      }
      assertLimited(await t.app.inject({ method: 'GET', url: path, remoteAddress: '10.1.0.3' }));
    }
  });
});

describe('rate limits behind a proxy (TRUST_PROXY)', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    await storeFruitSuggestions(t);
  });
  after(async () => { await t?.close(); });

  it('counts the client address from X-Forwarded-For', async () => {
    for (let i = 1; i <= 30; i++) assert.equal((await related(t.app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode, 200);
    assertLimited(await related(t.app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' }));
    assert.equal((await related(t.app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.8' })).statusCode, 200, 'another client behind the same proxy');
  });
});

describe('rate limits across two instances sharing Redis', () => {
  const redisUrl = process.env.REDIS_URL;
  let a: TestContext;
  let b: TestContext;
  before(async () => {
    if (!redisUrl) return;
    const shared = { REDIS_URL: redisUrl, REDIS_PREFIX: `ensm-test-shared-${randomBytes(6).toString('hex')}:` };
    a = await createTestApp(shared);
    b = await createTestApp(shared);
    await storeFruitSuggestions(a);
    await storeFruitSuggestions(b);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  it('count one budget: 15 + 15 requests, then the 31st on either instance is 429', { skip: redisUrl ? false : 'REDIS_URL is unset: run with REDIS_URL=redis://127.0.0.1:6379 to test instances sharing Redis' }, async () => {
    for (let i = 1; i <= 15; i++) {
      assert.equal((await related(a.app, '10.2.0.1')).statusCode, 200);
      assert.equal((await related(b.app, '10.2.0.1')).statusCode, 200);
    }
    assertLimited(await related(a.app, '10.2.0.1'));
    assertLimited(await related(b.app, '10.2.0.1'));
  });

  it('share the response cache: an answer cached by one instance is a HIT on the other', { skip: redisUrl ? false : 'REDIS_URL is unset' }, async () => {
    const first = await a.app.inject({ method: 'GET', url: '/api/v1/google-metrics/nowhere.eth', remoteAddress: '10.2.0.2' });
    assert.equal(first.headers['x-cache'], 'MISS', show(first));
    const second = await b.app.inject({ method: 'GET', url: '/api/v1/google-metrics/nowhere.eth', remoteAddress: '10.2.0.2' });
    assert.equal(second.headers['x-cache'], 'HIT', show(second));
  });
});
