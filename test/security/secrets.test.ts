import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { ConfigError, loadConfig } from '../../src/config.js';
import { signIn } from '../helpers/accounts.js';
import { createTestApp, show, type TestContext } from '../helpers/app.js';
import { verificationLinkIn, waitFor } from '../helpers/community.js';

/** Every log line of a test app at the most verbose level, as text. */
function capture(): { logger: pino.Logger; text(): string } {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } });
  return { logger: pino({ level: 'trace' }, sink), text: () => lines.join('') };
}

describe('no token of any kind in the logs', () => {
  let t: TestContext;
  const logs = capture();
  before(async () => { t = await createTestApp({ SMTP_URL: undefined, APP_URL: 'https://app.example.test' }, { workers: true, logger: logs.logger }); });
  after(async () => { await t?.close(); });

  it('sign-in, refresh, a bad token and a mailed verification link leave no secret in the log; the mail file is named', async () => {
    const who = await signIn(t.app, 0);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: who.refreshToken } });
    assert.equal(refreshed.statusCode, 200, show(refreshed));
    const second = JSON.parse(refreshed.body).data as { accessToken: string; refreshToken: string };
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${who.token}x` } });
    assert.equal(bad.statusCode, 401, show(bad));
    const set = await t.app.inject({ method: 'PUT', url: '/api/v1/users/me/email', headers: { authorization: `Bearer ${second.accessToken}` }, payload: { email: 'secret@example.test' } });
    assert.equal(set.statusCode, 200, show(set));

    const dir = path.join(t.config.dataDir, 'mail');
    const file = await waitFor('an .eml file', () => (existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.eml')) : undefined));
    const { token } = verificationLinkIn(readFileSync(path.join(dir, file), 'utf8'));
    await waitFor('the mail log line', () => logs.text().includes(file));
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/verification/email', payload: { token } });
    assert.equal(verified.statusCode, 200, show(verified));

    const text = logs.text();
    assert.ok(text.length > 0, 'the app logged something');
    for (const [what, secret] of Object.entries({ access: who.token, refresh: who.refreshToken, access2: second.accessToken, refresh2: second.refreshToken, verification: token, jwtSecret: Buffer.from(t.config.jwtSecret).toString('utf8') })) {
      assert.ok(!text.includes(secret), `the ${what} token appears in the log`);
    }
    assert.ok(!text.includes('verify-email?token='), 'a verification link appears in the log');
  });
});

describe('the embedded mail folder in production', () => {
  const base = { NODE_ENV: 'production', JWT_SECRET: 'production-secret-production-secret-0123456789', DATABASE_URL: 'postgres://u@127.0.0.1:1/x' };

  it('is refused without SMTP_URL, naming the variable', () => {
    assert.throws(() => loadConfig(base), (e: unknown) => e instanceof ConfigError && e.message.includes('SMTP_URL'));
  });

  it('is allowed with ALLOW_FILE_MAIL=true, and SMTP_URL alone is enough', () => {
    assert.equal(loadConfig({ ...base, ALLOW_FILE_MAIL: 'true' }).smtpUrl, undefined);
    assert.equal(loadConfig({ ...base, SMTP_URL: 'smtp://127.0.0.1:2525' }).smtpUrl, 'smtp://127.0.0.1:2525');
  });
});
