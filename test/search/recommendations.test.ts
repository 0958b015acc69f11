import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { answer, createSearchName, startModelServer, type ModelBehaviour, type TestServer } from '../helpers/search.js';

const DAY_MS = 86_400_000;

/** The recommendations scenario table, row by row, against an OpenAI-compatible server on 127.0.0.1. */
describe('GET /api/v1/ai-recommendations/:name', () => {
  let t: TestContext;
  let model: TestServer;
  let me: SignedIn;
  let behaviour: (prompt: string) => ModelBehaviour = () => answer([]);
  const get = (name: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/ai-recommendations/${encodeURIComponent(name)}`, headers });
  const chatCalls = () => model.requests.length;

  before(async () => {
    model = await startModelServer((prompt) => behaviour(prompt));
    t = await createTestApp({ LLM_BASE_URL: `${model.url}/v1` });
    me = await signIn(t.app, 1);
    await createSearchName(t.container.db, '007.eth');
    await createSearchName(t.container.db, 'apple.eth');
  });
  after(async () => {
    await t?.close();
    await model?.close();
  });

  it('name not in the database: 200 with empty suggestions, cached 5 minutes, no token needed', async () => {
    const res = await get('nothere.eth');
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { suggestions: [] });
    assert.equal(res.headers['x-cache'], 'MISS');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    const again = await get('nothere');
    assert.equal(again.headers['x-cache'], 'HIT');
    assert.ok(Number(/max-age=(\d+)/.exec(String(again.headers['cache-control']))![1]) <= 300);
    assert.equal(chatCalls(), 0);
  });

  it('cache miss without a token: 401 UNAUTHORIZED', async () => {
    const res = await get('007.eth');
    assert.equal(res.statusCode, 401, show(res));
    assert.equal(body(res).error.code, 'UNAUTHORIZED');
    assert.equal(chatCalls(), 0);
  });

  it('cache miss with a token: generated with the clubs in the prompt, cached 60 days, returned', async () => {
    behaviour = (prompt) => (prompt.includes('999') ? answer(['008', '006', '007', '700', 'not valid!']) : answer([]));
    const res = await get('007.eth', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['x-cache'], 'MISS');
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    assert.deepEqual(body(res).data, { suggestions: ['008.eth', '006.eth', '700.eth'] });
    assert.deepEqual(Object.keys(body(res).meta), ['timestamp', 'version']);
    assert.match(model.requests[0].body, /999/, 'the name’s club is in the prompt');
    const row = await t.container.db.selectFrom('ai_suggestions').selectAll().where('kind', '=', 'recommendations').where('key', '=', '007').executeTakeFirstOrThrow();
    const days = (new Date(row.expires_at).getTime() - Date.now()) / DAY_MS;
    assert.ok(days > 59.9 && days <= 60, `expires in ${days} days`);
  });

  it('database cache hit: the cached suggestions for any caller', async () => {
    const calls = chatCalls();
    await t.container.cache.delPrefix('search:'); // past the 15 s tier: straight to the database
    const res = await get('007');
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['x-cache'], 'HIT');
    assert.deepEqual(body(res).data.suggestions, ['008.eth', '006.eth', '700.eth']);
    assert.equal(chatCalls(), calls);
  });

  it('generation failure: 200 with empty suggestions, not cached', async () => {
    behaviour = () => ({ kind: 'status', status: 503 });
    const res = await get('apple.eth', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { suggestions: [] });
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-cache'], 'MISS');
    assert.equal((await get('apple.eth')).statusCode, 401, 'nothing was cached');
    behaviour = () => answer(['pear', 'plum']);
    const next = await get('apple.eth', me.headers);
    assert.deepEqual(body(next).data.suggestions, ['pear.eth', 'plum.eth']);
  });

  it('answers 400 INVALID_NAME for invalid names and names under 3 characters', async () => {
    for (const name of ['ab', 'ab.eth', 'a'.repeat(41), 'a b', 'sub.apple.eth', '[' + 'a'.repeat(64) + ']']) {
      const res = await get(name);
      assert.equal(res.statusCode, 400, `${name}: ${show(res)}`);
      assert.equal(body(res).error.code, 'INVALID_NAME', `${name}: ${show(res)}`);
    }
    const emoji = await get('😀😀😀.eth');
    assert.equal(emoji.statusCode, 200, `three emoji are three characters: ${show(emoji)}`);
  });

  it('answers 401 for a bad token even on a hit', async () => {
    const res = await get('007.eth', { authorization: 'Bearer bad.bad.bad' });
    assert.equal(res.statusCode, 401, show(res));
  });
});

describe('GET /api/v1/ai-recommendations/:name with the embedded generator', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp({ LLM_BASE_URL: undefined });
    await createSearchName(t.container.db, 'apple.eth');
  });
  after(async () => { await t?.close(); });

  it('suggests related names without any model server', async () => {
    const me = await signIn(t.app, 2);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/ai-recommendations/apple.eth', headers: me.headers });
    assert.equal(res.statusCode, 200, show(res));
    const suggestions: string[] = body(res).data.suggestions;
    assert.ok(suggestions.length >= 10, show(res));
    assert.ok(suggestions.includes('pear.eth'), show(res));
  });
});
