import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { purgeExpiredJob } from '../../src/jobs/handlers/maintenance.js';
import { signIn } from '../helpers/accounts.js';

describe('maintenance.purge-expired', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('deletes nonces and refresh tokens a week past expiry and keeps the rest', async () => {
    const { db } = t.container;
    await signIn(t.app, 0);
    const old = new Date(Date.now() - 8 * 86_400_000);
    await db.insertInto('auth_nonces').values([{ nonce: 'oldnonce1', expires_at: old }, { nonce: 'oldnonce2', expires_at: old }]).execute();
    await purgeExpiredJob.handle({}, t.container);
    const nonces = await db.selectFrom('auth_nonces').select('nonce').execute();
    assert.ok(!nonces.some((n) => n.nonce.startsWith('oldnonce')), 'old nonces deleted');
    assert.equal(nonces.length, 1, 'the recent, used nonce stays');
    const tokens = await db.selectFrom('refresh_tokens').select('id').execute();
    assert.equal(tokens.length, 1, 'a live refresh token stays');
  });
});
