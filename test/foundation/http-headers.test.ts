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

  it('the latency histogram is cumulative, its +Inf bucket is its count, and its sum grows', async () => {
    for (let i = 0; i < 3; i += 1) await t.app.inject({ method: 'GET', url: '/health' });
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const series = (prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix) && l.includes('route="/health"')).map((l) => Number(l.split(' ').pop()));
    const buckets = series('http_request_duration_seconds_bucket{');
    const les = text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds_bucket{') && l.includes('route="/health"')).map((l) => /le="([^"]+)"/.exec(l)?.[1]);
    assert.deepEqual(les, ['0.001', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '+Inf']);
    assert.ok(buckets.every((n, i) => i === 0 || n >= buckets[i - 1]!), `not cumulative: ${buckets.join(',')}`);
    const [countValue] = series('http_request_duration_seconds_count{');
    const [sum] = series('http_request_duration_seconds_sum{');
    assert.ok(countValue! >= 3);
    assert.equal(buckets.at(-1), countValue);
    assert.ok(sum! > 0);
    const requests = text.split('\n').find((l) => l.startsWith('http_requests_total{method="GET",route="/health",status="200"} '));
    assert.equal(Number(requests?.split(' ').pop()), countValue, 'every /health request answered 200 and timed once');
  });
});
