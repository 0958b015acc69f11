import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { searchPurgeJob } from '../../src/jobs/handlers/search-purge.job.js';

describe('search.purge-expired job', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('deletes expired suggestions and metrics and keeps the rest; running twice is harmless', async () => {
    const db = t.container.db;
    const past = new Date(Date.now() - 1000);
    const future = new Date(Date.now() + 86_400_000);
    await db.insertInto('ai_suggestions').values([
      { kind: 'related', key: 'old', suggestions: ['a'], expires_at: past },
      { kind: 'related', key: 'fresh', suggestions: ['b'], expires_at: future },
    ]).execute();
    await db.insertInto('keyword_metrics').values([
      { label: 'old', metrics: null, expires_at: past },
      { label: 'fresh', metrics: null, expires_at: future },
    ]).execute();
    await searchPurgeJob.handle({}, t.container);
    await searchPurgeJob.handle({}, t.container);
    assert.deepEqual((await db.selectFrom('ai_suggestions').select('key').execute()).map((r) => r.key), ['fresh']);
    assert.deepEqual((await db.selectFrom('keyword_metrics').select('label').execute()).map((r) => r.label), ['fresh']);
  });
});
