import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { freePort, waitFor } from '../helpers/community.js';
import { freezePostgres, postmasterPid, removeDataDir } from './helpers/server-process.js';

const TIMEOUT_MS = 1500;

/**
 * The app on a PostgreSQL of its own (never the shared one), which the test freezes with
 * SIGSTOP (the postmaster and every backend) and then stops: readiness
 * says 503 within 2 s, other requests 503 SERVICE_UNAVAILABLE within DB_TIMEOUT_MS, and both
 * recover without a restart.
 */
describe('database outage', () => {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'ensm-outage-')), 'data');
  let port: number;
  let database: EmbeddedDatabase;
  let t: TestContext;

  const timed = async (url: string) => {
    const start = Date.now();
    const res = await t.app.inject({ method: 'GET', url });
    return { res, ms: Date.now() - start };
  };
  // A name lookup always reaches the database (no cache in front of it).
  const nameUrl = () => `/api/v1/names/outage-${Math.random().toString(36).slice(2)}.eth`;
  const assertUnavailable = async () => {
    const ready = await timed('/health/ready');
    assert.equal(ready.res.statusCode, 503, show(ready.res));
    assert.ok(ready.ms < 2500, `readiness took ${ready.ms} ms`);
    assert.equal(body(ready.res).checks.database, false);
    const name = await timed(nameUrl());
    assert.equal(name.res.statusCode, 503, show(name.res));
    assert.equal(body(name.res).error.code, 'SERVICE_UNAVAILABLE');
    assert.ok(name.ms < TIMEOUT_MS + 1500, `a request took ${name.ms} ms`);
  };
  const recovered = () => waitFor('recovery', async () => {
    const [ready, name] = await Promise.all([timed('/health/ready'), timed(nameUrl())]);
    return ready.res.statusCode === 200 && name.res.statusCode === 404;
  }, 20_000);

  before(async () => {
    port = await freePort();
    database = await startEmbeddedPostgres(path.join(dataDir, 'pg'), port);
    t = await createTestApp({ DB_TIMEOUT_MS: String(TIMEOUT_MS), STATEMENT_TIMEOUT_MS: '1000' }, { database: { url: database.url, drop: async () => {} } });
  });
  after(async () => {
    const pid = postmasterPid(dataDir);
    if (pid !== undefined) freezePostgres(pid, false);
    await t?.close();
    await database?.stop();
    removeDataDir(dataDir);
  });

  it('answers normally while PostgreSQL runs', async () => {
    assert.equal((await timed('/health/ready')).res.statusCode, 200);
    assert.equal((await timed(nameUrl())).res.statusCode, 404);
  });

  it('a frozen PostgreSQL: 503 within the client-side timeout, also for requests that hold a connection, then recovery', async () => {
    const pid = postmasterPid(dataDir)!;
    freezePostgres(pid, true);
    try {
      // Requests in flight together: more than one holds a pooled connection when it stops answering.
      const results = await Promise.all(Array.from({ length: 5 }, () => timed(nameUrl())));
      for (const { res, ms } of results) {
        assert.equal(res.statusCode, 503, show(res));
        assert.ok(ms < TIMEOUT_MS + 1500, `a request took ${ms} ms`);
      }
      await assertUnavailable();
    } finally {
      freezePostgres(pid, false);
    }
    await recovered();
  });

  it('a stopped PostgreSQL: 503 at once, then recovery once it is back on the same port', async () => {
    await database.stop();
    await assertUnavailable();
    database = await startEmbeddedPostgres(path.join(dataDir, 'pg'), port);
    await recovered();
  });
});
