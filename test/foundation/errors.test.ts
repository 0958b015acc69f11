import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn } from '../helpers/accounts.js';

describe('error envelope', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp({ BODY_LIMIT_BYTES: '2048' }); });
  after(async () => { await t?.close(); });

  function assertEnvelope(res: Awaited<ReturnType<typeof t.app.inject>>, status: number, code: string) {
    assert.equal(res.statusCode, status, show(res));
    const b = body(res);
    assert.equal(b.success, false, show(res));
    assert.equal(b.error.code, code, show(res));
    assert.equal(typeof b.error.message, 'string');
    assert.equal(b.meta.version, '1.0.0');
    assert.ok(!Number.isNaN(Date.parse(b.meta.timestamp)));
    assert.ok(res.headers['x-request-id']);
    assert.ok(!res.body.includes('    at '), 'no stack trace');
    return b;
  }

  it('unknown route is 404 NOT_FOUND', async () => {
    assertEnvelope(await t.app.inject({ method: 'GET', url: '/api/v1/nope' }), 404, 'NOT_FOUND');
  });

  it('malformed JSON is 400 VALIDATION_ERROR on the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', headers: { 'content-type': 'application/json' }, payload: '{"message": ' });
    const b = assertEnvelope(res, 400, 'VALIDATION_ERROR');
    assert.equal(b.error.details.field, 'body');
  });

  it('schema failure names the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { message: 'x' } });
    const b = assertEnvelope(res, 400, 'VALIDATION_ERROR');
    assert.equal(b.error.details.field, 'body.signature');
  });

  it('bad query value names the query field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/nonce?address=0x123' });
    const b = assertEnvelope(res, 400, 'VALIDATION_ERROR');
    assert.equal(b.error.details.field, 'query.address');
  });

  it('a value outside a fixed set names the allowed values', async () => {
    const sort = await t.app.inject({ method: 'GET', url: '/api/v1/listings?sort=cheapest' });
    const b = assertEnvelope(sort, 400, 'VALIDATION_ERROR');
    assert.equal(b.error.details.field, 'query.sort');
    assert.deepEqual(b.error.details.allowed, ['price', 'created', 'expiry', 'name']);
  });

  it('oversized body is 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { message: 'x'.repeat(5000), signature: '0x00' } });
    assertEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a GET with Content-Type: application/json and no body is served', async () => {
    const me = await signIn(t.app, 0);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { ...me.headers, 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 200, show(res));
  });

  it('a caller-given X-Request-Id is echoed back', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    assert.equal(res.headers['x-request-id'], 'abc-123');
  });

  it('serves the OpenAPI document and the reference page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(doc.statusCode, 200);
    const spec = body(doc);
    assert.match(spec.openapi, /^3\./);
    assert.ok(spec.paths['/api/v1/auth/verify'].post);
    assert.ok(spec.components.securitySchemes.bearerAuth);
    assert.deepEqual(spec.paths['/api/v1/users/me'].get.security, [{ bearerAuth: [] }]);
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger/i);
  });

  it('serves Prometheus metrics by route', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /http_requests_total\{method="GET",route="\/health",status="200"\} \d+/);
    assert.match(res.body, /http_request_duration_seconds_bucket/);
  });
});
