import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { createSearchName, googleMetricsBody, json, startServer, type TestServer } from '../helpers/search.js';

/**
 * Issue 12, item 5: the model server, the keyword metrics provider and the subgraph relay, each
 * against a server of the test's own on 127.0.0.1 that hangs, then fails with 500, then recovers.
 * Every request returns within the provider's time budget with the documented fallback; after
 * FAILURES failures in a row the provider is not called any more (its hits are counted) and the
 * fallback answers at once; after the cool-down one trial request goes through: a failing trial
 * opens the breaker again, a good one closes it.
 */
const TIMEOUT_MS = 200;
const FAILURES = 2;
const COOLDOWN_MS = 400;
/** Room for a loaded 2-core machine on top of a time budget. */
const SLACK_MS = 1500;

type Mode = 'ok' | 'hang' | 'fail';

interface FlakyServer extends TestServer {
  mode: Mode;
  hits(): number;
}

/** A provider server whose requests to `path` hang, answer 500, or answer with `ok`. */
async function startFlakyServer(path: (p: string) => boolean, ok: (req: { path: string; body: string }, res: ServerResponse) => void): Promise<FlakyServer> {
  const flaky = { mode: 'ok' as Mode };
  const server = await startServer((req, res) => {
    if (!path(req.path)) return ok(req, res);
    if (flaky.mode === 'hang') return; // never answers: the client's time budget ends the call
    if (flaky.mode === 'fail') return json(res, 500, { error: { message: 'provider trouble' } });
    ok(req, res);
  });
  return Object.assign(flaky, server, { hits: () => server.requests.filter((r) => path(r.path)).length });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A call the healthy provider should answer. On a loaded machine the first call (cold client code,
 * a cold connection) can outlast TIMEOUT_MS; then it is asked again after a cool-down, at most
 * three times, so that the answer is the provider's whenever the provider can answer at all.
 */
async function answered(call: () => Promise<LightMyRequestResponse>, fellBack: (res: LightMyRequestResponse) => boolean): Promise<LightMyRequestResponse> {
  let res = await call();
  for (let tries = 1; tries < 3 && fellBack(res); tries++) {
    await sleep(COOLDOWN_MS + 50);
    res = await call();
  }
  return res;
}

async function timed(request: () => Promise<LightMyRequestResponse>): Promise<{ res: LightMyRequestResponse; ms: number }> {
  const started = performance.now();
  const res = await request();
  return { res, ms: performance.now() - started };
}

describe('providers slow or failing: time budgets, circuit breakers, fallbacks', () => {
  let t: TestContext;
  let model: FlakyServer;
  let ads: FlakyServer;
  let subgraph: FlakyServer;
  let me: SignedIn;
  let n = 0;

  before(async () => {
    model = await startFlakyServer((p) => p === '/v1/chat/completions', (req, res) => {
      const { model: name } = JSON.parse(req.body) as { model: string };
      json(res, 200, {
        id: 'c', object: 'chat.completion', created: 0, model: name,
        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ suggestions: ['tide', 'reef', 'lagoon'] }) }, finish_reason: 'stop' }],
      });
    });
    ads = await startFlakyServer((p) => p.includes(':generateKeywordHistoricalMetrics'), (req, res) => {
      if (req.path === '/token') return json(res, 200, { access_token: 'access-1', expires_in: 3599, token_type: 'Bearer' });
      json(res, 200, googleMetricsBody((JSON.parse(req.body) as { keywords: string[] }).keywords[0]));
    });
    subgraph = await startFlakyServer(() => true, (_req, res) => json(res, 200, { data: { domains: [{ id: '0x01' }] } }));
    t = await createTestApp({
      LLM_BASE_URL: `${model.url}/v1`,
      LLM_TIMEOUT_MS: String(TIMEOUT_MS),
      GOOGLE_ADS_BASE_URL: `${ads.url}/v21`,
      GOOGLE_OAUTH_TOKEN_URL: `${ads.url}/token`,
      GOOGLE_ADS_DEVELOPER_TOKEN: 'dev',
      GOOGLE_ADS_CLIENT_ID: 'client',
      GOOGLE_ADS_CLIENT_SECRET: 'secret',
      GOOGLE_ADS_REFRESH_TOKEN: 'refresh',
      GOOGLE_ADS_CUSTOMER_ID: '1234567890',
      KEYWORD_METRICS_TIMEOUT_MS: String(TIMEOUT_MS),
      ENS_SUBGRAPH_URL: `${subgraph.url}/graphql`,
      SUBGRAPH_TIMEOUT_MS: String(TIMEOUT_MS),
      PROVIDER_BREAKER_FAILURES: String(FAILURES),
      PROVIDER_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
    });
    me = await signIn(t.app, 1);
    for (let i = 0; i < 12; i++) await createSearchName(t.container.db, `kw${i}.eth`);
  });
  after(async () => {
    await t?.close();
    await Promise.all([model?.close(), ads?.close(), subgraph?.close()]);
  });

  /**
   * The shared script: `call` makes one request answered by the provider (a fresh cache miss each
   * time), `fellBack` says whether the answer is the fallback and `skipped`, where the answer says
   * so, whether the provider was not asked. Hits prove the skipping; times prove the budget.
   */
  async function script(server: FlakyServer, call: () => Promise<LightMyRequestResponse>, fellBack: (res: LightMyRequestResponse) => boolean, skipped?: (res: LightMyRequestResponse) => boolean) {
    const says = (res: LightMyRequestResponse, wasSkipped: boolean, what: string) => {
      assert.ok(fellBack(res), `${what}: the fallback: ${show(res)}`);
      if (skipped) assert.equal(skipped(res), wasSkipped, `${what}: says whether the provider was skipped: ${show(res)}`);
    };
    server.mode = 'ok';
    // A first call warms the client and the route; a cold one that outlasts the budget on a loaded
    // machine may reach the server late, so the counted script starts a cool-down after it.
    await answered(call, fellBack);
    await sleep(COOLDOWN_MS + 50);
    const good = await answered(call, fellBack);
    assert.ok(!fellBack(good), `the provider answers: ${show(good)}`);

    server.mode = 'hang';
    for (let i = 0; i < FAILURES; i++) {
      const before = server.hits();
      const { res, ms } = await timed(call);
      says(res, false, `hanging provider, failure ${i + 1}`);
      assert.ok(ms >= TIMEOUT_MS - 20 && ms < TIMEOUT_MS + SLACK_MS, `answered when the time budget ran out: ${Math.round(ms)} ms`);
      assert.equal(server.hits() - before, 1, 'one call (no retry once the budget is spent)');
    }

    // Open: calls that start well within the cool-down skip the provider. On a loaded machine a few
    // calls can outlast the cool-down, and a call after it is rightly the trial: none is made then.
    const hits = server.hits();
    const opened = performance.now();
    let whileOpen = 0;
    while (whileOpen < 3 && performance.now() - opened < COOLDOWN_MS / 4) {
      const { res, ms } = await timed(call);
      says(res, true, 'open breaker');
      assert.ok(ms < TIMEOUT_MS + SLACK_MS, `${Math.round(ms)} ms`);
      whileOpen++;
    }
    assert.ok(whileOpen >= 1);
    assert.equal(server.hits(), hits, 'the hanging provider is no longer called');

    await sleep(COOLDOWN_MS + 50);
    server.mode = 'fail';
    says(await call(), false, 'after the cool-down, a trial call that gets a 500');
    assert.equal(server.hits(), hits + 1, 'the trial reached the provider once');
    says(await call(), true, 'a failed trial opens the breaker again');
    assert.equal(server.hits(), hits + 1);

    await sleep(COOLDOWN_MS + 50);
    server.mode = 'ok';
    const recovered = await answered(call, fellBack);
    assert.ok(!fellBack(recovered), `recovery after the next cool-down: ${show(recovered)}`);
    const after = server.hits();
    const next = await call();
    assert.ok(!fellBack(next), show(next));
    assert.equal(server.hits(), after + 1, 'closed again: every request reaches the provider');
  }

  it('model server: semantic search expands with the embedded WordNet generator and says so', async () => {
    const call = () => t.app.inject({ method: 'GET', url: `/api/v1/ai/search/semantic?q=ocean${n++}`, headers: me.headers, remoteAddress: '10.12.0.1' });
    const fellBack = (res: LightMyRequestResponse) => {
      assert.equal(res.statusCode, 200, show(res));
      return body(res).meta.provider === 'local-wordnet';
    };
    // Semantic search says who answered, not why the model server did not: the hits tell.
    await script(model, call, fellBack);
  });

  it('keyword metrics: data null with reason provider_failed, then provider_unavailable while skipped', async () => {
    let i = 0;
    const call = () => t.app.inject({ method: 'GET', url: `/api/v1/google-metrics/kw${i++}.eth`, headers: me.headers, remoteAddress: '10.12.0.2' });
    const fellBack = (res: LightMyRequestResponse) => {
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data === null;
    };
    const skipped = (res: LightMyRequestResponse) => body(res).meta.reason === 'provider_unavailable';
    await script(ads, call, fellBack, skipped);
    const failed = await t.app.inject({ method: 'GET', url: '/api/v1/google-metrics/kw0.eth', headers: me.headers, remoteAddress: '10.12.0.2' });
    assert.equal(body(failed).meta.provider, 'google-ads', show(failed));
  });

  it('subgraph relay: 502 BAD_GATEWAY with reason timeout or status, then unavailable while skipped', async () => {
    const call = () => t.app.inject({ method: 'POST', url: '/api/v1/subgraph', payload: { query: '{ domains(first: 1) { id } }' }, remoteAddress: '10.12.0.3' });
    const fellBack = (res: LightMyRequestResponse) => {
      if (res.statusCode === 200) return false;
      assert.equal(res.statusCode, 502, show(res));
      assert.equal(body(res).error.code, 'BAD_GATEWAY', show(res));
      return true;
    };
    const skipped = (res: LightMyRequestResponse) => body(res).error.details.reason === 'unavailable';
    await script(subgraph, call, fellBack, skipped);
  });
});
