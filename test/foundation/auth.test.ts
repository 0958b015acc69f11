import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { account, addressOf, signIn, siweMessage } from '../helpers/accounts.js';
import { verifyAccessToken } from '../../src/services/tokens.js';

const SECRET = new TextEncoder().encode('test-secret-test-secret-test-secret-0123456789');

describe('sign-in with Ethereum', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  const verify = (payload: object, host = 'localhost') => t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', headers: { host }, payload });

  it('nonce endpoint hands out a single-use nonce that expires in 5-10 minutes', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/nonce?address=${addressOf(0)}` });
    assert.equal(res.statusCode, 200, show(res));
    const { nonce, expiresAt } = body(res).data;
    assert.match(nonce, /^[a-zA-Z0-9]{8,}$/);
    const minutes = (Date.parse(expiresAt) - Date.now()) / 60000;
    assert.ok(minutes > 4.9 && minutes <= 10, `expires in ${minutes} min`);
  });

  it('signs in demo account 0 and returns tokens and the user', async () => {
    const { message, signature } = await siweMessage(t.app, 0);
    const res = await verify({ message, signature });
    assert.equal(res.statusCode, 200, show(res));
    const d = body(res).data;
    assert.equal(d.token, d.accessToken);
    assert.equal(d.tokenType, 'Bearer');
    assert.ok(d.expiresIn > 0);
    assert.equal(d.user.address, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    assert.equal(d.user.emailVerified, false);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${d.accessToken}` } });
    assert.equal(me.statusCode, 200, show(me));
    assert.equal(body(me).data.address, addressOf(0));
    const me2 = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${d.accessToken}` } });
    assert.equal(body(me2).data.id, d.user.id);
  });

  it('refuses a replayed nonce', async () => {
    const { message, signature } = await siweMessage(t.app, 1);
    assert.equal((await verify({ message, signature })).statusCode, 200);
    const again = await verify({ message, signature });
    assert.equal(again.statusCode, 401, show(again));
    assert.equal(body(again).error.code, 'UNAUTHORIZED');
  });

  it('refuses a domain that is not ours', async () => {
    const { message, signature } = await siweMessage(t.app, 0, { domain: 'evil.example' });
    const res = await verify({ message, signature });
    assert.equal(res.statusCode, 401, show(res));
  });

  it('refuses a message signed by another address', async () => {
    const { message } = await siweMessage(t.app, 0);
    const signature = await account(2).signMessage({ message });
    const res = await verify({ message, signature });
    assert.equal(res.statusCode, 401, show(res));
  });

  it('refuses a nonce issued for another address', async () => {
    const nonceRes = await t.app.inject({ method: 'GET', url: `/api/v1/auth/nonce?address=${addressOf(5)}` });
    const nonce = body(nonceRes).data.nonce;
    const { message: base } = await siweMessage(t.app, 3);
    const message = base.replace(/Nonce: \w+/, `Nonce: ${nonce}`);
    const signature = await account(3).signMessage({ message });
    assert.equal((await verify({ message, signature })).statusCode, 401);
  });

  it('refuses a wrong chain id and an expired message', async () => {
    const wrongChain = await siweMessage(t.app, 0, { chainId: 5 });
    assert.equal((await verify(wrongChain)).statusCode, 401);
    const expired = await siweMessage(t.app, 0, { issuedAt: new Date(Date.now() - 3600_000), expirationTime: new Date(Date.now() - 60_000) });
    assert.equal((await verify(expired)).statusCode, 401);
  });

  it('a text that is not an EIP-4361 message is 400', async () => {
    const res = await verify({ message: 'hello', signature: '0x1234' });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'INVALID_MESSAGE');
  });

  it('refresh rotates: the new token works, the old one stops working and revokes the family', async () => {
    const s = await signIn(t.app, 4);
    const r1 = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: s.refreshToken } });
    assert.equal(r1.statusCode, 200, show(r1));
    const next = body(r1).data;
    assert.notEqual(next.refreshToken, s.refreshToken);
    assert.equal(next.user.address, addressOf(4));
    const reuse = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: s.refreshToken } });
    assert.equal(reuse.statusCode, 401, show(reuse));
    // reuse of a rotated token revokes the whole family, including the newest token
    const afterTheft = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: next.refreshToken } });
    assert.equal(afterTheft.statusCode, 401, show(afterTheft));
  });

  it('logout ends the session of its refresh token', async () => {
    const s = await signIn(t.app, 6);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: s.headers, payload: { refreshToken: s.refreshToken } });
    assert.equal(out.statusCode, 200, show(out));
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: s.refreshToken } });
    assert.equal(res.statusCode, 401);
  });
});

describe('SIWE_DOMAINS', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp({ SIWE_DOMAINS: 'app.example.org,grails.app' }); });
  after(async () => { await t?.close(); });

  it('accepts a listed domain with an expiration time, and refuses localhost then', async () => {
    const ok = await siweMessage(t.app, 0, { domain: 'grails.app', expirationTime: new Date(Date.now() + 600_000) });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', headers: { host: 'api.grails.app' }, payload: ok });
    assert.equal(res.statusCode, 200, show(res));
    const local = await siweMessage(t.app, 0);
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', headers: { host: 'localhost' }, payload: local });
    assert.equal(refused.statusCode, 401, show(refused));
  });
});

describe('bearer tokens', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  const required = (authorization?: string) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: authorization ? { authorization } : {} });
  const optional = (authorization?: string) => t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: authorization ? { authorization } : {}, payload: {} });

  async function forged(options: { exp?: number; alg?: string; secret?: Uint8Array }) {
    if (options.alg === 'none') {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub: '1', address: addressOf(0), iss: 'ens-market', aud: 'ens-market-api', exp: Math.floor(Date.now() / 1000) + 600 })}.`;
    }
    return new SignJWT({ address: addressOf(0) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1').setIssuer('ens-market').setAudience('ens-market-api')
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(options.secret ?? SECRET);
  }

  it('every bad token is 401 on a required route', async () => {
    const good = await signIn(t.app, 0);
    const tampered = good.token.slice(0, -3) + (good.token.endsWith('AAA') ? 'BBB' : 'AAA');
    const cases: Record<string, string | undefined> = {
      missing: undefined,
      'not bearer': `Basic ${good.token}`,
      malformed: 'Bearer not-a-jwt',
      expired: `Bearer ${await forged({ exp: Math.floor(Date.now() / 1000) - 10 })}`,
      tampered: `Bearer ${tampered}`,
      'wrong secret': `Bearer ${await forged({ secret: new TextEncoder().encode('another-secret-another-secret-another-secret') })}`,
      'alg none': `Bearer ${await forged({ alg: 'none' })}`,
    };
    for (const [name, header] of Object.entries(cases)) {
      const res = await required(header);
      assert.equal(res.statusCode, 401, `${name}: ${show(res)}`);
      assert.equal(body(res).error.code, 'UNAUTHORIZED', name);
    }
    assert.equal((await required(`Bearer ${good.token}`)).statusCode, 200);
    assert.equal((await required(`Bearer ${await forged({})}`)).statusCode, 200, 'a well-signed token is accepted');
  });

  it('a token accepted before is refused from its expiry on, under another secret, and without an expiry', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = await forged({ exp });
    assert.equal((await required(`Bearer ${token}`)).statusCode, 200);
    assert.equal((await required(`Bearer ${token}`)).statusCode, 200, 'accepted again');
    const other = { ...t.container.config, jwtSecret: new TextEncoder().encode('another-secret-another-secret-another-secret') };
    assert.equal(await verifyAccessToken(other, token), undefined, 'a token verified under one secret is not under another');
    while (Math.floor(Date.now() / 1000) < exp) await new Promise((r) => setTimeout(r, 100));
    const late = await required(`Bearer ${token}`);
    assert.equal(late.statusCode, 401, show(late));
    const forever = await new SignJWT({ address: addressOf(0) }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setIssuer('ens-market').setAudience('ens-market-api').sign(SECRET);
    assert.equal((await required(`Bearer ${forever}`)).statusCode, 401, 'a token without an expiry');
  });

  it('a bad token on an optional route is 401, never silently anonymous', async () => {
    const res = await optional('Bearer not-a-jwt');
    assert.equal(res.statusCode, 401, show(res));
    const expired = await optional(`Bearer ${await forged({ exp: Math.floor(Date.now() / 1000) - 10 })}`);
    assert.equal(expired.statusCode, 401, show(expired));
  });
});
