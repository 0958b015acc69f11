import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, show, type TestContext } from '../helpers/app.js';

/** What @fastify/helmet sent before its headers became constants (src/plugins/http.ts). */
const SECURITY = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('headers and metrics on every response', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('security headers, request id, cache-control and CORS on a success, a 400 and an unknown route', async () => {
    for (const [url, status] of [['/health', 200], ['/api/v1/listings?limit=0', 400], ['/api/v1/no-such-thing', 404]] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { origin: 'https://app.example', 'x-request-id': 'req-42' } });
      assert.equal(res.statusCode, status, show(res));
      for (const [name, value] of Object.entries(SECURITY)) assert.equal(res.headers[name], value, `${url}: ${name}`);
      assert.equal(res.headers['x-request-id'], 'req-42', url);
      assert.equal(res.headers['cache-control'], 'no-store', url);
      assert.equal(res.headers['access-control-allow-origin'], 'https://app.example', url);
      assert.match(String(res.headers.vary), /Origin/, url);
    }
  });

  it('a cacheable route says for how long', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/leaderboard' });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['cache-control']), /^public, max-age=\d+$/);
  });

  it('metrics count requests by route pattern and status', async () => {
    const count = async (series: string) => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.doesNotMatch(text, /route="\/metrics"/);
      const line = text.split('\n').find((l) => l.startsWith(series + ' '));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    const byPattern = 'http_requests_total{method="GET",route="/api/v1/votes/:ensName",status="404"}';
    const unmatched = 'http_requests_total{method="GET",route="unmatched",status="404"}';
    const timed = 'http_request_duration_seconds_count{method="GET",route="/api/v1/votes/:ensName"}';
    const before = [await count(byPattern), await count(unmatched), await count(timed)];
    await t.app.inject({ method: 'GET', url: '/api/v1/votes/some-name.eth' });
    await t.app.inject({ method: 'GET', url: '/api/v1/nowhere' });
    assert.deepEqual([await count(byPattern), await count(unmatched), await count(timed)], before.map((n) => n + 1));
  });
});
