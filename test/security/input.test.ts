import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ERROR_STATUS } from '../../src/errors.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';

/** Hostile inputs the issue found answering 500 or outside the envelope: each is now a catalogued 4xx. */
describe('hostile input', () => {
  let ctx: TestContext;
  let me: SignedIn;
  before(async () => {
    ctx = await createTestApp();
    me = await signIn(ctx.app, 1);
  });
  after(() => ctx.close());

  async function expectError(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, status: number, code: string, field?: string, payload?: unknown) {
    const res = await ctx.app.inject({ method, url, headers: me.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    assert.equal(res.statusCode, status, `${method} ${url}: ${show(res)}`);
    const b = body(res);
    assert.equal(b.success, false, show(res));
    assert.equal(b.error.code, code, show(res));
    assert.equal(ERROR_STATUS[b.error.code as keyof typeof ERROR_STATUS], status, show(res));
    assert.equal(typeof b.meta.timestamp, 'string', show(res));
    if (field) assert.equal(b.error.details?.field, field, show(res));
  }

  it('refuses non-finite and out-of-range integers in queries and paths', async () => {
    for (const bad of ['Infinity', '-Infinity', '1e309', 'NaN', '99999999999999999999', '0x10']) {
      await expectError('GET', `/api/v1/listings?page=${bad}`, 400, 'VALIDATION_ERROR', 'query.page');
      await expectError('GET', `/api/v1/offers?limit=${bad}`, 400, 'VALIDATION_ERROR', 'query.limit');
      await expectError('GET', `/api/v1/listings/${bad}`, 400, 'VALIDATION_ERROR', 'params.id');
      await expectError('PATCH', `/api/v1/notifications/${bad}/read`, 400, 'VALIDATION_ERROR', 'params.id');
    }
    await expectError('GET', '/api/v1/listings?page=2147483648', 400, 'VALIDATION_ERROR', 'query.page');
    // a body number given as a string the validator would coerce to Infinity (a fuzz find: it reached PostgreSQL)
    for (const bad of ['1e309', 'Infinity', '-Infinity', '0x10']) {
      await expectError('PATCH', '/api/v1/users/me', 400, 'VALIDATION_ERROR', 'body.minOfferThreshold', { minOfferThreshold: bad });
      // and inside an array of numbers (a fuzz find: DELETE /watchlist/bulk with ids ["-Infinity"]), by index
      await expectError('DELETE', '/api/v1/watchlist/bulk', 400, 'VALIDATION_ERROR', 'body.ids.1', { ids: [3, bad] });
      // or alone where an array is asked for (the validator makes it a one-item array)
      await expectError('DELETE', '/api/v1/watchlist/bulk', 400, 'VALIDATION_ERROR', 'body.ids', { ids: bad });
      // and in the objects of an array (a fuzz find: POST /cart/bulk with items[0].ensNameId "Infinity", a 500)
      await expectError('POST', '/api/v1/cart/bulk', 400, 'VALIDATION_ERROR', 'body.items.1.ensNameId',
        { items: [{ ensNameId: 1, cartType: 'sales' }, { ensNameId: bad, cartType: 'sales' }] });
    }
  });

  it('refuses an amount above 2^256 − 1, even with 78 digits', async () => {
    const over = '9'.repeat(78);
    await expectError('PUT', '/api/v1/offers/1', 400, 'VALIDATION_ERROR', 'body.offerAmountWei', { offerAmountWei: over });
    const max = ((1n << 256n) - 1n).toString();
    const res = await ctx.app.inject({ method: 'PUT', url: '/api/v1/offers/1', headers: me.headers, payload: { offerAmountWei: max } });
    assert.equal(body(res).error.code, 'OFFER_NOT_FOUND', `2^256 − 1 itself passes validation: ${show(res)}`);
  });

  it('refuses NUL in any string, naming the field', async () => {
    await expectError('GET', '/api/v1/search?q=ab%00c', 400, 'VALIDATION_ERROR', 'query.q');
    await expectError('PATCH', '/api/v1/users/me', 400, 'VALIDATION_ERROR', 'body.telegram', { telegram: 'a\u0000b' });
    await expectError('POST', '/api/v1/cart', 400, 'VALIDATION_ERROR', 'body.cartType', { cartType: 'x\u0000', ensNameId: 1 });
    await expectError('POST', '/api/v1/subgraph', 400, 'INVALID_REQUEST', 'body.variables.a', { query: '{ domains { id } }', variables: { a: '\u0000' } });
    // Inside an array, by index, among many clean items.
    await expectError('POST', '/api/v1/search/bulk', 400, 'VALIDATION_ERROR', 'body.terms.2', { terms: ['coffee', 'tea', 'c\u0000la', 'milk'] });
    await expectError('POST', '/api/v1/subgraph', 400, 'INVALID_REQUEST', 'body.variables.list.1.a', { query: '{ domains { id } }', variables: { list: ['x', { a: '\u0000' }] } });
  });

  it('refuses bodies nested deeper than the limit, and a 2,000-level GraphQL argument', async () => {
    const deepJson = `{"telegram":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await ctx.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: { ...me.headers, 'content-type': 'application/json' }, payload: deepJson });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    for (const [open, close] of [['{a:', '}'], ['[', ']']]) {
      const query = `{ domains(where: ${open.repeat(2000)}1${close.repeat(2000)}) { id } }`;
      await expectError('POST', '/api/v1/subgraph', 400, 'INVALID_REQUEST', 'body.query', { query });
    }
  });

  it('answers framework errors in the envelope: bad URL, long parameter, unknown route, 413, 415', async () => {
    await expectError('GET', '/api/v1/names/%FF', 400, 'VALIDATION_ERROR', 'url');
    await expectError('GET', '/api/v1/listings/%E0%A4%A', 400, 'VALIDATION_ERROR', 'url');
    await expectError('GET', `/api/v1/votes/${'a'.repeat(600)}`, 414, 'URI_TOO_LONG');
    await expectError('GET', '/api/v1/no-such-route', 404, 'NOT_FOUND');
    const big = await ctx.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: me.headers, payload: { telegram: 'x'.repeat(ctx.config.bodyLimitBytes) } });
    assert.equal(big.statusCode, 413, show(big));
    assert.equal(body(big).error.code, 'PAYLOAD_TOO_LARGE');
    const form = await ctx.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: { ...me.headers, 'content-type': 'application/xml' }, payload: '<telegram/>' });
    assert.equal(form.statusCode, 415, show(form));
    assert.equal(body(form).error.code, 'UNSUPPORTED_MEDIA_TYPE');
    const json = await ctx.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: { ...me.headers, 'content-type': 'application/json' }, payload: '{"telegram":' });
    assert.equal(json.statusCode, 400, show(json));
    assert.equal(body(json).error.details.field, 'body');
  });

  it('names the limit and its period when a rate limit is exceeded', async () => {
    let last;
    for (let i = 0; i < 31; i++) last = await ctx.app.inject({ method: 'POST', url: '/api/v1/verification/email', payload: { token: 'nope' } });
    assert.ok(last);
    assert.equal(last.statusCode, 429, show(last));
    assert.equal(body(last).error.code, 'RATE_LIMITED');
    assert.match(body(last).error.message, /^Rate limit of 30 requests per 1 minute exceeded/, show(last));
  });

  it("answers Node's own 431 and 400 (before any request exists) in the envelope", async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text));
        let out = '';
        socket.on('data', (d) => (out += d.toString()));
        socket.on('close', () => resolve(out));
        socket.on('error', reject);
        socket.setTimeout(5000, () => socket.destroy());
      });
    const huge = await raw(`GET /api/v1/listings?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(huge, /^HTTP\/1.1 431 /, huge.slice(0, 200));
    const hugeBody = JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4));
    assert.equal(hugeBody.error.code, 'HEADERS_TOO_LARGE');
    assert.equal(hugeBody.success, false);
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    assert.match(garbage, /^HTTP\/1.1 400 /, garbage.slice(0, 200));
    assert.equal(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)).error.code, 'BAD_REQUEST');
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    assert.equal(health.status, 200);
  });
});
