import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createSearchName, json, startServer, type TestServer } from '../helpers/search.js';

const names = (res: { body: string }) => (JSON.parse(res.body).data.results as Array<{ name: string }>).map((r) => r.name);
const OCEAN = ['ocean', 'sea', 'bay', 'oceanview', 'wave'];

async function seed(t: TestContext) {
  const db = t.container.db;
  for (const label of [...OCEAN, 'apple', 'banana']) await createSearchName(db, `${label}.eth`);
  await createSearchName(db, 'gulf.eth', { listing: { priceWei: '1000', seller: addressOf(2) } });
}

describe('GET /api/v1/ai/search/semantic without a model server (embedded WordNet)', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); await seed(t); });
  after(async () => { await t?.close(); });

  it('a phrase answers names about it that exist, to anyone (never 401), saying who answered', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/ai/search/semantic?q=names%20about%20the%20ocean', remoteAddress: '10.1.0.1' });
    assert.equal(res.statusCode, 200, show(res));
    const b = body(res);
    assert.equal(b.meta.provider, 'local-wordnet');
    assert.equal(b.meta.ranking, 'expansions');
    assert.ok(b.meta.expansionsCount >= 10, show(res));
    const found = names(res);
    assert.equal(found[0], 'ocean.eth', 'the topic word itself first');
    for (const n of ['sea.eth', 'bay.eth', 'gulf.eth', 'oceanview.eth']) assert.ok(found.includes(n), `${n} in ${found.join()}`);
    assert.ok(!found.includes('apple.eth') && !found.includes('banana.eth'), found.join());
    assert.equal(b.meta.semanticTotal, b.data.pagination.total);
  });

  it('takes the global search filters and sorts', async () => {
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/ai/search/semantic?q=ocean&filters[listed]=true', remoteAddress: '10.1.0.2' });
    assert.deepEqual(names(listed), ['gulf.eth'], show(listed));
    const short = await t.app.inject({ method: 'GET', url: '/api/v1/ai/search/semantic?q=ocean&filters[maxLength]=3&sortBy=alphabetical', remoteAddress: '10.1.0.2' });
    assert.deepEqual(names(short), ['bay.eth', 'sea.eth'], show(short));
    assert.equal(body(short).meta.ranking, 'sort');
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/ai/search/semantic?q=ocean&filters[nope]=1', remoteAddress: '10.1.0.2' });
    assert.equal(bad.statusCode, 400, show(bad));
    assert.equal(body(bad).error.details.field, 'query.filters.nope');
    const tooShort = await t.app.inject({ method: 'GET', url: '/api/v1/ai/search/semantic?q=o', remoteAddress: '10.1.0.2' });
    assert.equal(body(tooShort).error.code, 'VALIDATION_ERROR', show(tooShort));
  });
});

/** Vectors of a tiny two-axis world: the first axis is "the sea", the second "fruit". */
const VECTORS: Record<string, number[]> = {
  'names about the ocean': [1, 0], ocean: [0.99, 0.05], sea: [0.95, 0.1], wave: [0.8, 0.3], oceanview: [0.7, 0.4], bay: [0.6, 0.5], apple: [0.05, 1],
};

describe('GET /api/v1/ai/search/semantic with a model server (chat expansions, embeddings ranking)', () => {
  let t: TestContext;
  let model: TestServer;
  let embeddingsFail = false;
  const embedded: string[] = [];

  before(async () => {
    model = await startServer((req, res) => {
      const b = JSON.parse(req.body) as { model: string; input?: string[] };
      if (req.path === '/v1/chat/completions') {
        return json(res, 200, { id: 'c', object: 'chat.completion', created: 0, model: b.model, choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ suggestions: ['bay', 'apple', 'sea', 'wave'] }) }, finish_reason: 'stop' }] });
      }
      if (req.path === '/v1/embeddings') {
        if (embeddingsFail) return json(res, 400, { error: { message: 'no such model' } });
        embedded.push(...(b.input ?? []));
        return json(res, 200, { object: 'list', model: b.model, data: (b.input ?? []).map((text, index) => ({ object: 'embedding', index, embedding: VECTORS[text] ?? [0, 0.2] })) });
      }
      json(res, 404, { error: { message: 'not found' } });
    });
    t = await createTestApp({ LLM_BASE_URL: `${model.url}/v1`, LLM_API_KEY: 'k', LLM_MODEL: 'chat-model', LLM_EMBEDDING_MODEL: 'embed-model', LLM_TIMEOUT_MS: '2000' });
    await seed(t);
  });
  after(async () => { await t?.close(); await model?.close(); });

  it('a new phrase needs a signed-in caller; then names rank by meaning, and vectors are stored once', async () => {
    const url = '/api/v1/ai/search/semantic?q=names%20about%20the%20ocean';
    const anonymous = await t.app.inject({ method: 'GET', url, remoteAddress: '10.2.0.1' });
    assert.equal(anonymous.statusCode, 401, show(anonymous));

    const me = await signIn(t.app, 1);
    const res = await t.app.inject({ method: 'GET', url, headers: me.headers, remoteAddress: '10.2.0.1' });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).meta.provider, 'openai-compatible');
    assert.equal(body(res).meta.ranking, 'embeddings');
    assert.deepEqual(names(res), ['ocean.eth', 'sea.eth', 'wave.eth', 'oceanview.eth', 'bay.eth', 'apple.eth'], show(res));
    const rows = await t.container.db.selectFrom('label_embeddings').select(['label', 'model']).execute();
    assert.ok(rows.every((r) => r.model === 'embed-model') && rows.length === 7, JSON.stringify(rows));

    // Expansions and vectors are stored: anyone may ask again, and nothing is embedded twice.
    const before = embedded.length;
    const again = await t.app.inject({ method: 'GET', url, remoteAddress: '10.2.0.2' });
    assert.equal(again.statusCode, 200, show(again));
    assert.deepEqual(names(again), names(res));
    assert.equal(embedded.length, before);
  });

  it('when the embeddings endpoint fails the answer keeps the expansion order and says so', async () => {
    embeddingsFail = true;
    const me = await signIn(t.app, 2);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/ai/search/semantic?q=the%20sea', headers: me.headers, remoteAddress: '10.2.0.3' });
    embeddingsFail = false;
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).meta.ranking, 'expansions');
    assert.deepEqual(names(res).slice(0, 2), ['sea.eth', 'bay.eth'], show(res));
  });
});
