import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { answer, createSearchName, startModelServer, type ModelBehaviour, type TestServer } from '../helpers/search.js';

const DAY_MS = 86_400_000;

/** Related search, row by row, against an OpenAI-compatible server on 127.0.0.1. */
describe('GET /api/v1/ai/search/related', () => {
  let t: TestContext;
  let model: TestServer;
  let me: SignedIn;
  let behaviour: (prompt: string) => ModelBehaviour = () => answer([]);
  let ip = 0;
  // Each test comes from its own address so the 30-per-minute limit never interferes here.
  const get = (qs: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/ai/search/related?${qs}`, headers, remoteAddress: `10.0.0.${ip}` });
  const chatCalls = () => model.requests.filter((r) => r.path === '/v1/chat/completions').length;
  const names = (res: { body: string }) => (JSON.parse(res.body).data.results as Array<{ name: string }>).map((r) => r.name);

  before(async () => {
    model = await startModelServer((prompt) => behaviour(prompt));
    t = await createTestApp({ LLM_BASE_URL: `${model.url}/v1`, LLM_API_KEY: 'test-key', LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '1500' }); // the budget holds the one retry
    me = await signIn(t.app, 1);
    const db = t.container.db;
    await createSearchName(db, 'pear.eth', { listing: { priceWei: '3000', seller: addressOf(2) } });
    await createSearchName(db, 'plum.eth', { listing: { priceWei: '1000', seller: addressOf(2) } });
    await createSearchName(db, 'banana.eth');
    await createSearchName(db, 'mango.eth', { listing: { priceWei: '2000', seller: addressOf(2) } });
  });
  after(async () => {
    await t?.close();
    await model?.close();
  });

  it('cache miss without a token: 401 UNAUTHORIZED saying how to get past it, and the model is not asked', async () => {
    ip = 1;
    const res = await get('q=fruit');
    assert.equal(res.statusCode, 401, show(res));
    assert.equal(body(res).error.code, 'UNAUTHORIZED');
    assert.equal(body(res).error.details.reason, 'not_cached', show(res));
    assert.match(body(res).error.details.signIn, /\/api\/v1\/auth\/verify.*Authorization: Bearer/, show(res));
    assert.equal(chatCalls(), 0);
  });

  it('cache miss with a token: generates, keeps the suggestions 30 days, returns only existing names', async () => {
    ip = 2;
    behaviour = () => answer(['pear', 'Plum.eth', 'kiwi', 'banana', 'pear', 'not a name!', 'sub.fruit', 'mango']);
    const res = await get('q=Fruit', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['x-cache'], 'MISS');
    assert.equal(chatCalls(), 1);
    const b = body(res);
    assert.deepEqual(names(res), ['pear.eth', 'plum.eth', 'banana.eth', 'mango.eth'], 'model order, existing names only');
    assert.deepEqual(Object.keys(b.meta).sort(), ['suggestionsCount', 'timestamp', 'version']);
    assert.equal(b.meta.suggestionsCount, 5, 'pear, plum, kiwi, banana, mango after normalization and de-duplication');
    assert.deepEqual(b.data.pagination, { page: 1, limit: 20, total: 4, totalPages: 1, hasNext: false, hasPrev: false });
    assert.equal(res.headers['cache-control'], 'private, max-age=15');
    const row = await t.container.db.selectFrom('ai_suggestions').selectAll().where('kind', '=', 'related').where('key', '=', 'fruit').executeTakeFirstOrThrow();
    assert.deepEqual(row.suggestions, ['pear', 'plum', 'kiwi', 'banana', 'mango']);
    const days = (new Date(row.expires_at).getTime() - Date.now()) / DAY_MS;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    const prompt = JSON.parse(model.requests.at(-1)!.body);
    assert.equal(prompt.model, 'test-model');
    assert.deepEqual(prompt.response_format, { type: 'json_object' });
    assert.equal(model.requests.at(-1)!.headers.authorization, 'Bearer test-key');
  });

  it('cache hit: any caller gets the stored suggestions, with filters, sorts and pages', async () => {
    ip = 3;
    const calls = chatCalls();
    const res = await get('q=fruit&sortBy=price&limit=2');
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['x-cache'], 'HIT');
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    assert.deepEqual(names(res), ['plum.eth', 'mango.eth']);
    assert.deepEqual(body(res).data.pagination, { page: 1, limit: 2, total: 4, totalPages: 2, hasNext: true, hasPrev: false });
    assert.deepEqual(names(await get('q=fruit&sortBy=price&limit=2&page=2')), ['pear.eth', 'banana.eth']);
    assert.deepEqual(names(await get('q=fruit&filters[listed]=false')), ['banana.eth']);
    assert.deepEqual(names(await get('q=fruit&maxPrice=2000&sortBy=price&sortOrder=desc')), ['mango.eth', 'plum.eth']);
    assert.equal(body(await get('q=fruit&listed=false')).meta.suggestionsCount, 5);
    assert.equal(chatCalls(), calls, 'no generation on a hit');
    const bad = await get('q=fruit&filters[colour]=red');
    assert.equal(bad.statusCode, 400, show(bad));
    assert.equal(body(bad).error.details.field, 'query.filters.colour');
  });

  it('keeps a response page 15 s in the shared cache', async () => {
    ip = 4;
    assert.equal((await get('q=fruit&limit=3')).statusCode, 200);
    await t.container.db.deleteFrom('ai_suggestions').where('key', '=', 'fruit').execute();
    const cached = await get('q=fruit&limit=3');
    assert.equal(cached.statusCode, 200, show(cached));
    assert.equal(cached.headers['x-cache'], 'HIT');
    assert.deepEqual(names(cached), ['pear.eth', 'plum.eth', 'banana.eth']);
    const other = await get('q=fruit&limit=4');
    assert.equal(other.statusCode, 401, 'another page is a miss once the stored suggestions are gone');
  });

  it("adds the caller's user_vote to results when signed in", async () => {
    ip = 5;
    behaviour = () => answer(['banana']);
    const res = await get('q=yellow', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).data.results[0].user_vote, null);
    assert.equal(res.headers.vary, 'Origin, Authorization');
    const anonymous = await get('q=yellow');
    assert.equal('user_vote' in body(anonymous).data.results[0], false);
  });

  it('generation failure: 200 with no results, not cached, after one retry', async () => {
    ip = 6;
    behaviour = () => ({ kind: 'status', status: 500 });
    const before = chatCalls();
    const res = await get('q=broken', me.headers);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data.results, []);
    assert.equal(body(res).meta.suggestionsCount, 0);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(chatCalls() - before, 2, 'one retry');
    const stored = await t.container.db.selectFrom('ai_suggestions').select('key').where('key', '=', 'broken').executeTakeFirst();
    assert.equal(stored, undefined);
    assert.equal((await get('q=broken')).statusCode, 401, 'still a miss for an anonymous caller');
    behaviour = () => answer(['plum']);
    const retried = await get('q=broken', me.headers);
    assert.deepEqual(names(retried), ['plum.eth'], 'the next signed-in request generates again');
  });

  it('generation failure by timeout or an unusable answer: 200 with no results', async () => {
    ip = 7;
    behaviour = () => ({ kind: 'hang' });
    const slow = await get('q=slowmodel', me.headers);
    assert.equal(slow.statusCode, 200, show(slow));
    assert.deepEqual(body(slow).data.results, []);
    behaviour = () => ({ kind: 'answer', content: 'I cannot help with that.' });
    const prose = await get('q=prosemodel', me.headers);
    assert.equal(prose.statusCode, 200, show(prose));
    assert.equal(body(prose).meta.suggestionsCount, 0);
  });

  it('reads answers defensively: fenced JSON, bare arrays, objects with names', async () => {
    ip = 8;
    behaviour = () => ({ kind: 'answer', content: '```json\n["mango", "kiwi"]\n```' });
    assert.deepEqual(names(await get('q=fenced', me.headers)), ['mango.eth']);
    behaviour = () => ({ kind: 'answer', content: 'Sure! {"names": [{"name": "banana.eth"}, {"name": "pear"}]}' });
    assert.deepEqual(names(await get('q=objects', me.headers)), ['banana.eth', 'pear.eth']);
  });

  it('answers 400 VALIDATION_ERROR for a missing or too short query', async () => {
    ip = 9;
    for (const qs of ['', 'q=a', 'q=%20a%20', 'q=ab&limit=101', 'q=ab&page=0', 'q=ab&sortBy=rarity']) {
      const res = await get(qs);
      assert.equal(res.statusCode, 400, `${qs}: ${show(res)}`);
      assert.equal(body(res).error.code, 'VALIDATION_ERROR', `${qs}: ${show(res)}`);
    }
    assert.equal(body(await get('q=a')).error.details.field, 'query.q');
  });
});
