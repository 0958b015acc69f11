import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';

describe('health', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('GET /health answers healthy with version, not enveloped, not cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 200, show(res));
    const b = body(res);
    assert.equal(b.status, 'healthy');
    assert.equal(b.version, '1.0.0');
    assert.ok(!Number.isNaN(Date.parse(b.timestamp)));
    assert.equal(b.success, undefined);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.ok(res.headers['x-request-id']);
  });

  it('GET /health/ready is ready when database and search index answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).checks, { database: true, search_index: true });
    assert.equal(body(res).status, 'ready');
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 with the failed checks false, and ready again once the database is back', async () => {
    const t = await createTestApp();
    const name = new URL(t.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_URL });
    await admin.connect();
    try {
      // An outage: the server refuses new connections and drops the open ones.
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 503, show(res));
      const b = body(res);
      assert.equal(b.status, 'not ready');
      assert.equal(b.checks.database, false);
      assert.equal(b.checks.search_index, false);
      assert.ok(!Number.isNaN(Date.parse(b.timestamp)));

      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      const back = await t.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(back.statusCode, 200, show(back));
    } finally {
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
      await t.close();
    }
  });
});
