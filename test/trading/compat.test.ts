import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { signIn } from '../helpers/accounts.js';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';

describe('compatibility with the web app: health, token lifetime, profile', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('/api/v1/health and /api/v1/health/ready answer as /health and /health/ready, not cached', async () => {
    for (const [alias, original] of [['/api/v1/health', '/health'], ['/api/v1/health/ready', '/health/ready']]) {
      const [a, o] = await Promise.all([t.app.inject({ method: 'GET', url: alias }), t.app.inject({ method: 'GET', url: original })]);
      assert.equal(a.statusCode, 200, show(a));
      assert.equal(a.headers['cache-control'], 'no-store');
      const { timestamp: _a, ...restA } = body(a);
      const { timestamp: _o, ...restO } = body(o);
      assert.deepEqual(restA, restO);
      assert.equal(body(a).success, undefined, 'not enveloped');
    }
  });

  it('ACCESS_TOKEN_TTL_SECONDS takes up to 7 days, not more; the default stays 15 minutes', () => {
    const base = { NODE_ENV: 'test', JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789', DATA_DIR: '/tmp/ensm-compat-test' };
    assert.equal(loadConfig(base).accessTokenTtlSeconds, 900);
    assert.equal(loadConfig({ ...base, ACCESS_TOKEN_TTL_SECONDS: String(7 * 86_400) }).accessTokenTtlSeconds, 604_800);
    assert.throws(() => loadConfig({ ...base, ACCESS_TOKEN_TTL_SECONDS: String(7 * 86_400 + 1) }), /ACCESS_TOKEN_TTL_SECONDS/);
  });

  it('PATCH /users/me takes the web app\'s body: "" clears, notification preferences are stored and returned', async () => {
    const who = await signIn(t.app, 3);
    const patch = (payload: object, method: 'PATCH' | 'POST' = 'PATCH') => t.app.inject({ method, url: '/api/v1/users/me', headers: who.headers, payload });

    const set = await patch({ email: 'three@example.test', telegram: '@three', discord: 'three', notifyOnOfferReceived: false, minOfferThreshold: 0.05 });
    assert.equal(set.statusCode, 200, show(set));
    const d = body(set).data;
    assert.equal(d.email, 'three@example.test');
    assert.equal(d.emailVerified, false);
    assert.equal(d.notifyOnOfferReceived, false);
    assert.equal(d.notifyOnListingSold, true);
    assert.equal(d.minOfferThreshold, 0.05);
    assert.ok(!Number.isNaN(Date.parse(d.updatedAt)));

    // The profile form sends every field; empty ones as "".
    const clear = await patch({ email: '', telegram: '', discord: '' }, 'POST');
    assert.equal(clear.statusCode, 200, show(clear));
    assert.equal(body(clear).data.email, null);
    assert.equal(body(clear).data.telegram, null);
    assert.equal(body(clear).data.discord, null);

    const me = body(await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: who.headers })).data;
    assert.equal(me.email, null);
    assert.equal(me.notifyOnOfferReceived, false, 'preferences kept across reads');
    assert.equal(me.minOfferThreshold, 0.05);
    const resend = await t.app.inject({ method: 'POST', url: '/api/v1/verification/resend', headers: who.headers });
    assert.equal(body(resend).error.code, 'NO_EMAIL', show(resend));

    const none = await patch({ minOfferThreshold: null, notifyOnListingSold: false });
    assert.equal(body(none).data.minOfferThreshold, null);
    assert.equal(body(none).data.notifyOnListingSold, false);
  });

  it('PATCH /users/me refuses a bad address, a negative threshold and unknown fields with details.field; 401 without a token', async () => {
    const who = await signIn(t.app, 4);
    for (const [payload, field] of [[{ email: 'not-an-address' }, 'email'], [{ minOfferThreshold: -1 }, 'minOfferThreshold'], [{ notifyOnOfferReceived: 'maybe' }, 'notifyOnOfferReceived']] as const) {
      const res = await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: who.headers, payload });
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
      assert.match(String(body(res).error.details?.field), new RegExp(field), show(res));
    }
    const anonymous = await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me', payload: { email: '' } });
    assert.equal(anonymous.statusCode, 401, show(anonymous));
  });
});
