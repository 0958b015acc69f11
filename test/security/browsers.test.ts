import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CORS_HEADERS } from '../../src/app.js';
import { signIn } from '../helpers/accounts.js';
import { createTestApp, show, type TestContext } from '../helpers/app.js';

const ORIGIN = 'https://app.example.test';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A browser on the configured origin can call every route of the OpenAPI document. */
describe('CORS preflights', () => {
  let t: TestContext;
  let operations: Array<{ method: string; url: string }>;
  before(async () => {
    t = await createTestApp({ CORS_ORIGINS: `${ORIGIN},https://other.example.test` });
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body) as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '1') })),
    );
  });
  after(async () => { await t?.close(); });

  it('allow every method and header of every route for a configured origin', async () => {
    assert.ok(operations.length > 40, `${operations.length} operations`);
    assert.ok(['PUT', 'PATCH', 'DELETE'].every((m) => operations.some((o) => o.method === m)), 'the document has PUT, PATCH and DELETE routes');
    const wanted = CORS_HEADERS.map((h) => h.toLowerCase());
    for (const { method, url } of operations) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': wanted.join(',') },
      });
      const where = `${method} ${url}: ${show(res)} ${JSON.stringify(res.headers)}`;
      assert.equal(res.statusCode, 204, where);
      assert.equal(res.headers['access-control-allow-origin'], ORIGIN, where);
      const methods = String(res.headers['access-control-allow-methods']).split(',').map((m) => m.trim());
      assert.ok(methods.includes(method), where);
      const headers = String(res.headers['access-control-allow-headers']).toLowerCase().split(',').map((h) => h.trim());
      for (const h of wanted) assert.ok(headers.includes(h), `${h} not allowed: ${where}`);
      assert.equal(res.headers['access-control-allow-credentials'], undefined, 'bearer tokens, no cookies');
    }
  });

  it('do not open the API to an origin that is not configured', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/cart', headers: { origin: 'https://evil.example.test', 'access-control-request-method': 'DELETE' } });
    assert.equal(res.headers['access-control-allow-origin'], undefined, JSON.stringify(res.headers));
  });

  it('the answer itself carries the origin and exposes the request id', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/cart', headers: { origin: ORIGIN } });
    assert.equal(res.statusCode, 401, show(res));
    assert.equal(res.headers['access-control-allow-origin'], ORIGIN);
    assert.match(String(res.headers['access-control-expose-headers']), /x-request-id/);
  });
});

describe('CORS on every answer', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp({ CORS_ORIGINS: ORIGIN }); });
  after(async () => { await t?.close(); });

  it('answers a preflight with no body, and an OPTIONS without preflight headers the same way, never in plain text', async () => {
    for (const headers of [{ origin: ORIGIN, 'access-control-request-method': 'POST' }, {}]) {
      const res = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/listings', headers });
      assert.equal(res.statusCode, 204, show(res));
      assert.equal(res.body, '');
      assert.equal(res.headers['access-control-max-age'], '600');
      assert.equal(res.headers['access-control-allow-origin'], 'origin' in headers ? ORIGIN : undefined);
    }
  });

  it('says Vary: Origin on every answer, and keeps it where an answer also varies by the caller', async () => {
    const { headers: signedIn } = await signIn(t.app, 1);
    for (const url of ['/health', '/api/v1/listings', '/api/v1/nope', '/api/v1/ai/search/related?q=coffee']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { origin: ORIGIN, ...(url.includes('/ai/') ? signedIn : {}) } });
      const vary = String(res.headers.vary).split(',').map((v) => v.trim());
      assert.ok(vary.includes('Origin'), `${url}: ${show(res)} vary ${res.headers.vary}`);
      if (url.includes('/ai/')) assert.ok(vary.includes('Authorization'), `${url}: ${show(res)} vary ${res.headers.vary}`);
    }
    const other = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://elsewhere.example.test' } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.equal(other.headers['access-control-expose-headers'], undefined);
  });
});
