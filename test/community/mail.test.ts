import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { freePort, startSmtpServer, verificationLinkIn, waitFor, type TestSmtpServer } from '../helpers/community.js';

/** The whole e-mail flow through pg-boss workers and a real SMTP server on 127.0.0.1. */

const APP_URL = 'https://app.example.test';

function helpers(get: () => TestContext) {
  return {
    async setEmail(who: SignedIn, email: string) {
      const res = await get().app.inject({ method: 'PUT', url: '/api/v1/users/me/email', headers: who.headers, payload: { email } });
      assert.equal(res.statusCode, 200, show(res));
    },
    verify: (token: string) => get().app.inject({ method: 'POST', url: '/api/v1/verification/email', payload: { token } }),
    resend: (who: SignedIn) => get().app.inject({ method: 'POST', url: '/api/v1/verification/resend', headers: who.headers }),
    async emailVerified(who: SignedIn): Promise<boolean> {
      return body(await get().app.inject({ method: 'GET', url: '/api/v1/users/me', headers: who.headers })).data.emailVerified;
    },
    async jobStates(): Promise<string[]> {
      const { rows } = await get().container.pool.query(`SELECT state FROM pgboss.job WHERE name = 'mail.verify-email' ORDER BY created_on`);
      return rows.map((r: { state: string }) => r.state);
    },
  };
}

describe('verification mail over SMTP', () => {
  let t: TestContext;
  let smtp: TestSmtpServer;
  const h = helpers(() => t);
  const mailTo = (address: string) => waitFor(`a mail to ${address}`, () => smtp.received.find((m) => m.to.includes(address)));

  before(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: smtp.url, APP_URL, MAIL_FROM: 'ENS Market <no-reply@example.test>', MAIL_RETRY_DELAY_SECONDS: '1' }, { workers: true });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('the mail arrives and its link verifies the address once', async () => {
    const who = await signIn(t.app, 0);
    await h.setEmail(who, 'alice@example.test');
    const mail = await mailTo('alice@example.test');
    assert.equal(mail.from, 'no-reply@example.test');
    assert.match(mail.raw, /^Subject: Verify your e-mail address/m);
    const { link, token } = verificationLinkIn(mail.raw);
    assert.ok(link.startsWith(`${APP_URL}/verify-email?token=`), link);

    assert.equal(await h.emailVerified(who), false);
    const res = await h.verify(token);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(await h.emailVerified(who), true);
    const again = await h.verify(token);
    assert.equal(again.statusCode, 400, show(again));
    assert.equal(body(again).error.code, 'INVALID_TOKEN');

    // Neither the job table nor the token table holds the raw token.
    const { rows } = await t.container.pool.query(`SELECT data::text AS data FROM pgboss.job WHERE name = 'mail.verify-email'`);
    assert.ok(rows.length >= 1);
    for (const r of rows) assert.ok(!r.data.includes(token), 'raw token in the job payload');
  });

  it('a mailed token no longer works 24 hours after it was issued', async () => {
    const who = await signIn(t.app, 1);
    await h.setEmail(who, 'bob@example.test');
    const { token } = verificationLinkIn((await mailTo('bob@example.test')).raw);
    await t.container.pool.query(
      `UPDATE email_verification_tokens SET created_at = created_at - interval '24 hours 1 second', expires_at = expires_at - interval '24 hours 1 second' WHERE user_id = $1`,
      [who.userId],
    );
    const res = await h.verify(token);
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'INVALID_TOKEN');
    assert.equal(await h.emailVerified(who), false);
  });

  it('a token still works just inside its 24 hours', async () => {
    const who = await signIn(t.app, 2);
    await h.setEmail(who, 'carol@example.test');
    const { token } = verificationLinkIn((await mailTo('carol@example.test')).raw);
    await t.container.pool.query(
      `UPDATE email_verification_tokens SET created_at = created_at - interval '23 hours 59 minutes', expires_at = expires_at - interval '23 hours 59 minutes' WHERE user_id = $1`,
      [who.userId],
    );
    const res = await h.verify(token);
    assert.equal(res.statusCode, 200, show(res));
  });

  it('resend mails a new link and the old one stops working', async () => {
    const who = await signIn(t.app, 3);
    await h.setEmail(who, 'dave@example.test');
    const first = verificationLinkIn((await mailTo('dave@example.test')).raw).token;
    const res = await h.resend(who);
    assert.equal(res.statusCode, 200, show(res));
    const second = await waitFor('the second mail', () => {
      const mails = smtp.received.filter((m) => m.to.includes('dave@example.test'));
      return mails.length >= 2 ? verificationLinkIn(mails[1].raw).token : undefined;
    });
    assert.notEqual(first, second);
    const old = await h.verify(first);
    assert.equal(old.statusCode, 400, show(old));
    assert.equal(body(old).error.code, 'INVALID_TOKEN');
    assert.equal((await h.verify(second)).statusCode, 200);
    assert.equal(await h.emailVerified(who), true);
  });
});

describe('verification mail while the SMTP server is down', () => {
  let t: TestContext;
  let smtp: TestSmtpServer | undefined;
  let port: number;
  const h = helpers(() => t);

  before(async () => {
    port = await freePort(); // nothing listens there yet
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, APP_URL, MAIL_RETRY_DELAY_SECONDS: '1', SMTP_TIMEOUT_MS: '2000' }, { workers: true });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('is retried with back-off and delivered once the server comes back', async () => {
    const who = await signIn(t.app, 0);
    await h.setEmail(who, 'patient@example.test');
    // The first attempt fails and pg-boss schedules a retry.
    await waitFor('a failed first attempt', async () => (await h.jobStates()).includes('retry'));
    smtp = await startSmtpServer(port);
    const server = smtp;
    const mail = await waitFor('the mail after the server came back', () => server.received.find((m) => m.to.includes('patient@example.test')));
    await waitFor('the job to complete', async () => (await h.jobStates()).every((s) => s === 'completed'));
    assert.equal(server.received.length, 1, 'delivered exactly once');
    const res = await h.verify(verificationLinkIn(mail.raw).token);
    assert.equal(res.statusCode, 200, show(res));
  });
});

describe('verification mail with no SMTP configured (the embedded default)', () => {
  let t: TestContext;
  const h = helpers(() => t);
  before(async () => { t = await createTestApp({ SMTP_URL: undefined, APP_URL }, { workers: true }); });
  after(async () => { await t?.close(); });

  it('writes each mail as an .eml file under DATA_DIR/mail and the link in it works', async () => {
    const dir = path.join(t.config.dataDir, 'mail');
    const who = await signIn(t.app, 0);
    await h.setEmail(who, 'offline@example.test');
    const file = await waitFor('an .eml file', () => (existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.eml')) : undefined));
    const raw = readFileSync(path.join(dir, file), 'utf8');
    assert.match(raw, /^To: offline@example\.test\r$/m);
    assert.match(raw, /^Subject: Verify your e-mail address\r$/m);
    assert.match(raw, /^Message-ID: </m);
    const { link, token } = verificationLinkIn(raw);
    assert.ok(link.startsWith(`${APP_URL}/verify-email?token=`), link);
    const res = await h.verify(token);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(await h.emailVerified(who), true);
  });
});

describe('queued verification mails and workers that start later', () => {
  let t: TestContext;
  let smtp: TestSmtpServer;
  const h = helpers(() => t);
  before(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: smtp.url, APP_URL }); // no workers yet: as if the worker had crashed
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('are sent when a worker starts; a mail whose token was superseded is not sent', async () => {
    const who = await signIn(t.app, 0);
    await h.setEmail(who, 'queued@example.test');
    assert.equal((await h.resend(who)).statusCode, 200);
    assert.deepEqual(await h.jobStates(), ['created', 'created']);

    await t.container.startWorkers();
    await waitFor('both jobs to complete', async () => {
      const states = await h.jobStates();
      return states.length === 2 && states.every((s) => s === 'completed');
    });
    assert.equal(smtp.received.length, 1, 'only the live token is mailed');
    const res = await h.verify(verificationLinkIn(smtp.received[0].raw).token);
    assert.equal(res.statusCode, 200, show(res));
  });
});
