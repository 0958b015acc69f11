import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { createVerificationToken } from '../helpers/community.js';
import { openToken } from '../../src/services/email-verification.service.js';
import { sha256 } from '../../src/services/tokens.js';
import { HOUR, SECOND } from '../../src/lib/time.js';

describe('e-mail verification endpoints', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  const verify = (payload?: unknown) => t.app.inject({ method: 'POST', url: '/api/v1/verification/email', ...(payload === undefined ? {} : { payload: payload as object }) });
  const resend = (headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: '/api/v1/verification/resend', headers });
  const setEmail = async (who: SignedIn, email: string) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/v1/users/me/email', headers: who.headers, payload: { email } });
    assert.equal(res.statusCode, 200, show(res));
  };
  const me = async (who: SignedIn) => body(await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: who.headers })).data;
  const jobs = async (userId: number) => (await t.container.pool.query(
    `SELECT data, retry_limit, retry_backoff FROM pgboss.job WHERE name = 'mail.verify-email' AND (data->>'userId')::bigint = $1 ORDER BY created_on`, [userId])).rows;
  const expectCode = (res: Awaited<ReturnType<typeof verify>>, status: number, code: string) => {
    assert.equal(res.statusCode, status, show(res));
    assert.equal(body(res).error.code, code, show(res));
  };

  it('setting an address stores a hashed 24-hour token and queues a mail whose payload holds no usable token', async () => {
    const who = await signIn(t.app, 0);
    await setEmail(who, 'zero@example.test');
    const rows = await t.container.db.selectFrom('email_verification_tokens').selectAll().where('user_id', '=', who.userId).execute();
    assert.equal(rows.length, 1);
    const hours = (rows[0].expires_at.getTime() - rows[0].created_at.getTime()) / HOUR;
    assert.ok(Math.abs(hours - 24) < 0.01, `valid ${hours} h`);
    assert.equal(rows[0].token_hash.length, 32);

    const [job] = await jobs(who.userId);
    assert.equal(job.data.email, 'zero@example.test');
    assert.equal('token' in job.data, false);
    assert.equal(job.retry_limit, 10);
    assert.equal(job.retry_backoff, true);
    // The sealed token opens only with the server's secret, and is the one whose hash is stored.
    const token = openToken(t.config, job.data.sealedToken, who.userId, 'zero@example.test');
    assert.ok(token);
    assert.deepEqual(sha256(token), rows[0].token_hash);
    assert.equal(openToken(t.config, job.data.sealedToken, who.userId + 1, 'zero@example.test'), undefined, 'bound to its user');
  });

  it('a valid token verifies the address once; the second time is INVALID_TOKEN', async () => {
    const who = await signIn(t.app, 1);
    await setEmail(who, 'one@example.test');
    assert.equal((await me(who)).emailVerified, false);
    const token = await createVerificationToken(t.container.db, who.userId, 'one@example.test');

    const ok = await verify({ token });
    assert.equal(ok.statusCode, 200, show(ok));
    assert.equal(typeof body(ok).data.message, 'string');
    assert.equal((await me(who)).emailVerified, true);
    const row = await t.container.db.selectFrom('users').select('email_verified_at').where('id', '=', who.userId).executeTakeFirstOrThrow();
    assert.ok(row.email_verified_at instanceof Date);

    expectCode(await verify({ token }), 400, 'INVALID_TOKEN');
  });

  it('unknown, expired and superseded tokens are INVALID_TOKEN', async () => {
    const who = await signIn(t.app, 2);
    await setEmail(who, 'two@example.test');
    expectCode(await verify({ token: 'not-a-real-token' }), 400, 'INVALID_TOKEN');
    expectCode(await verify({ token: 'A'.repeat(43) }), 400, 'INVALID_TOKEN');

    const expired = await createVerificationToken(t.container.db, who.userId, 'two@example.test', { expiresAt: new Date(Date.now() - SECOND) });
    expectCode(await verify({ token: expired }), 400, 'INVALID_TOKEN');

    const early = await createVerificationToken(t.container.db, who.userId, 'two@example.test');
    const res = await resend(who.headers);
    assert.equal(res.statusCode, 200, show(res));
    expectCode(await verify({ token: early }), 400, 'INVALID_TOKEN');
    assert.equal((await me(who)).emailVerified, false);
  });

  it('a token for an address the user has since replaced is INVALID_TOKEN', async () => {
    const who = await signIn(t.app, 3);
    await setEmail(who, 'old@example.test');
    const token = await createVerificationToken(t.container.db, who.userId, 'old@example.test');
    await setEmail(who, 'new@example.test');
    expectCode(await verify({ token }), 400, 'INVALID_TOKEN');
    assert.equal((await me(who)).emailVerified, false);
  });

  it('a missing or non-string token is VALIDATION_ERROR', async () => {
    for (const payload of [undefined, {}, { token: 123 }, { token: null }, { token: ['x'] }, { token: '' }, { token: 'x'.repeat(600) }]) {
      expectCode(await verify(payload), 400, 'VALIDATION_ERROR');
    }
  });

  it('resend: 401 without a valid token, NO_EMAIL, ALREADY_VERIFIED, USER_NOT_FOUND', async () => {
    expectCode(await resend(), 401, 'UNAUTHORIZED');
    expectCode(await resend({ authorization: 'Bearer bad.token.value' }), 401, 'UNAUTHORIZED');

    const noEmail = await signIn(t.app, 4);
    expectCode(await resend(noEmail.headers), 400, 'NO_EMAIL');

    const verified = await signIn(t.app, 5);
    await setEmail(verified, 'five@example.test');
    const token = await createVerificationToken(t.container.db, verified.userId, 'five@example.test');
    assert.equal((await verify({ token })).statusCode, 200);
    expectCode(await resend(verified.headers), 400, 'ALREADY_VERIFIED');

    const gone = await signIn(t.app, 6);
    await t.container.db.deleteFrom('users').where('id', '=', gone.userId).execute();
    expectCode(await resend(gone.headers), 404, 'USER_NOT_FOUND');
  });

  it('resend issues a new token, revokes the earlier ones and queues one more mail', async () => {
    const who = await signIn(t.app, 7);
    await setEmail(who, 'seven@example.test');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/verification/resend', headers: { ...who.headers, 'content-type': 'application/json' }, payload: '' });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(typeof body(res).data.message, 'string');
    const rows = await t.container.db.selectFrom('email_verification_tokens').select(['used_at']).where('user_id', '=', who.userId).orderBy('id').execute();
    assert.equal(rows.length, 2);
    assert.ok(rows[0].used_at !== null, 'the first token is revoked');
    assert.equal(rows[1].used_at, null);
    const queued = await jobs(who.userId);
    assert.equal(queued.length, 2);
    const second = openToken(t.config, queued[1].data.sealedToken, who.userId, 'seven@example.test');
    assert.ok(second);
    const first = openToken(t.config, queued[0].data.sealedToken, who.userId, 'seven@example.test');
    assert.ok(first);
    expectCode(await verify({ token: first }), 400, 'INVALID_TOKEN');
    assert.equal((await verify({ token: second })).statusCode, 200);
  });

  it('unexpected failures are 500 VERIFICATION_FAILED and RESEND_FAILED', async () => {
    const who = await signIn(t.app, 8);
    await setEmail(who, 'eight@example.test');
    await t.container.pool.query('ALTER TABLE email_verification_tokens RENAME TO email_verification_tokens_away');
    try {
      expectCode(await verify({ token: 'whatever-token' }), 500, 'VERIFICATION_FAILED');
      expectCode(await resend(who.headers), 500, 'RESEND_FAILED');
    } finally {
      await t.container.pool.query('ALTER TABLE email_verification_tokens_away RENAME TO email_verification_tokens');
    }
    const res = await verify({ token: 'whatever-token' });
    assert.equal(body(res).error.code, 'INVALID_TOKEN');
    assert.doesNotMatch(res.body, /relation|does not exist/);
  });
});
