import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';

interface Rec { name: string; recommendation_metrics: Record<string, unknown> & { source: string; type: string } }

const FALLBACK_SOURCES = ['suggestions', 'club', 'trending', 'popular', 'clubs'];

describe('recommendations', () => {
  let t: TestContext;
  let users: SignedIn[];
  const ids = new Map<string, number>();
  before(async () => {
    t = await createTestApp();
    users = [];
    for (let i = 0; i < 4; i++) users.push(await signIn(t.app, i));
    for (const label of ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india']) {
      ids.set(label, (await createName(t.container.db, `${label}.eth`)).id);
    }
    for (const label of ['101', '202', '303']) ids.set(label, (await createName(t.container.db, `${label}.eth`, { clubs: ['999', '3-digit-palindromes'] })).id);
  });
  after(async () => { await t?.close(); });

  const get = (url: string, user?: SignedIn) => t.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });
  const id = (label: string) => ids.get(label) ?? assert.fail(label);
  const views = async (rows: [viewer: string, label: string][]) => {
    const day = new Date().toISOString().slice(0, 10);
    await t.container.db.insertInto('name_views_daily').values(rows.map(([viewer, label]) => ({ ens_name_id: id(label), day, viewer }))).execute();
  };
  const upvotes = async (user: SignedIn, labels: string[]) => {
    await t.container.db.insertInto('votes').values(labels.map((l) => ({ user_id: user.userId, ens_name_id: id(l), vote: 1 }))).execute();
  };
  const watch = async (user: SignedIn, labels: string[]) => {
    const list = await sql<{ id: number }>`INSERT INTO watchlists (user_id, name, is_default) VALUES (${user.userId}, 'Watchlist', true) RETURNING id`.execute(t.container.db);
    for (const l of labels) await sql`INSERT INTO watchlist_items (list_id, user_id, ens_name_id) VALUES (${list.rows[0].id}, ${user.userId}, ${id(l)})`.execute(t.container.db);
  };
  const collaborative = (names: Rec[]) => names.filter((n) => n.recommendation_metrics.source === 'collaborative').map((n) => n.name);

  it('also-viewed ranks the names viewed by the most viewers of the name first, and only those as collaborative', async () => {
    await views([
      ['ip:1', 'alpha'], ['ip:2', 'alpha'], ['ip:3', 'alpha'], ['u:999', 'alpha'],
      ['ip:1', 'bravo'], ['ip:2', 'bravo'], ['ip:3', 'bravo'],
      ['ip:1', 'charlie'],
      ['ip:9', 'delta'], ['ip:8', 'delta'], ['ip:7', 'delta'], // popular, but not with viewers of alpha
    ]);
    for (const url of ['/api/v1/recommendations/also-viewed?name=alpha.eth&limit=5', '/api/v1/recommendations/also-viewed/Alpha?limit=5']) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, show(res));
      const { names, meta } = body(res).data as { names: Rec[]; meta: Record<string, unknown> };
      assert.deepEqual(collaborative(names), ['bravo.eth', 'charlie.eth'], show(res));
      assert.deepEqual(names[0].recommendation_metrics, { type: 'also-viewed', source: 'collaborative', also_viewed_count: 3, shared_viewers_count: 3 });
      assert.equal(names[1].recommendation_metrics.shared_viewers_count, 1);
      assert.ok(!names.some((n) => n.name === 'alpha.eth'), 'never the name itself');
      assert.equal(meta.type, 'also-viewed');
      assert.equal(meta.target_name, 'alpha.eth');
      assert.equal((meta.sources as string[])[0], 'collaborative');
      assert.ok('listings' in names[0] && 'clubs' in names[0], 'standard search results');
    }

    let res = await get('/api/v1/recommendations/also-viewed?name=nosuchname.eth');
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND');
    res = await get('/api/v1/recommendations/also-viewed/bad%20name');
    assert.equal(body(res).error.code, 'INVALID_NAME', show(res));
    res = await get('/api/v1/recommendations/also-viewed?limit=5');
    assert.equal(body(res).error.details.field, 'query.name', show(res));
    res = await get('/api/v1/recommendations/also-viewed?name=alpha&limit=51');
    assert.equal(body(res).error.details.field, 'query.limit', show(res));
  });

  it('a name nobody viewed still gets names, from the fallbacks', async () => {
    const res = await get('/api/v1/recommendations/also-viewed/101');
    assert.equal(res.statusCode, 200, show(res));
    const { names, meta } = body(res).data as { names: Rec[]; meta: { sources: string[] } };
    assert.ok(names.length > 0, show(res));
    assert.ok(names.every((n) => FALLBACK_SOURCES.includes(n.recommendation_metrics.source)), show(res));
    assert.ok(names.some((n) => ['202.eth', '303.eth'].includes(n.name) && n.recommendation_metrics.source === 'club'), 'its club-mates');
    assert.ok(meta.sources.length > 0);
  });

  it('based-on-votes: names upvoted by the users who share the most upvotes with you', async () => {
    const [me, close, far] = users;
    await upvotes(me, ['echo', 'foxtrot']);
    await upvotes(close, ['echo', 'foxtrot', 'golf']);
    await upvotes(far, ['echo', 'hotel']);
    const res = await get('/api/v1/recommendations/based-on-votes?limit=5', me);
    assert.equal(res.statusCode, 200, show(res));
    const names = body(res).data.names as Rec[];
    assert.deepEqual(collaborative(names), ['golf.eth', 'hotel.eth'], show(res));
    assert.deepEqual(names[0].recommendation_metrics, { type: 'based-on-votes', source: 'collaborative', recommendation_score: 2, similar_voters: 1 });
    assert.ok(!names.some((n) => ['echo.eth', 'foxtrot.eth'].includes(n.name)), 'never what you voted on');
    assert.ok(names.every((n) => 'user_vote' in n), 'with your votes');
  });

  it('similar-to-watchlist: names on the watchlists that overlap yours', async () => {
    const [me, close, far] = users;
    await watch(me, ['alpha', 'india']);
    await watch(close, ['alpha', 'india', 'charlie']);
    await watch(far, ['india', 'delta']);
    const res = await get('/api/v1/recommendations/similar-to-watchlist?limit=5', me);
    assert.equal(res.statusCode, 200, show(res));
    const names = body(res).data.names as Rec[];
    assert.deepEqual(collaborative(names), ['charlie.eth', 'delta.eth'], show(res));
    assert.deepEqual(names[0].recommendation_metrics, { type: 'similar-to-watchlist', source: 'collaborative', similarity_score: 2, common_watchers: 1 });
  });

  it('for-you blends watchlist ×3, votes ×2 and views ×1, collaborative first', async () => {
    const [me] = users;
    await views([['u:' + String(me.userId), 'alpha']]);
    const res = await get('/api/v1/recommendations/for-you?limit=10', me);
    assert.equal(res.statusCode, 200, show(res));
    const { names, meta } = body(res).data as { names: Rec[]; meta: Record<string, unknown> };
    const byName = new Map(names.map((n) => [n.name, n.recommendation_metrics]));
    // charlie: watch 2 × 3 + also viewed with alpha 1 × 1; golf: votes 2 × 2; delta: watch 1 × 3 + viewed 0; hotel: votes 1 × 2; bravo: views 3 × 1
    assert.equal(byName.get('charlie.eth')?.personalized_score, 7, show(res));
    assert.equal(byName.get('golf.eth')?.personalized_score, 4);
    assert.equal(byName.get('bravo.eth')?.personalized_score, 3);
    assert.deepEqual(collaborative(names).slice(0, 2), ['charlie.eth', 'golf.eth']);
    assert.deepEqual(meta.score_weights, { watchlist_similarity: 3, vote_similarity: 2, view_similarity: 1 });
    assert.ok(!names.some((n) => ['alpha.eth', 'india.eth', 'echo.eth', 'foxtrot.eth'].includes(n.name)), 'never your own names');
  });

  it('a new user gets something from every kind, saying where it came from', async () => {
    const newcomer = users[3];
    for (const kind of ['for-you', 'similar-to-watchlist', 'based-on-votes']) {
      const res = await get(`/api/v1/recommendations/${kind}`, newcomer);
      assert.equal(res.statusCode, 200, `${kind}: ${show(res)}`);
      const { names, meta } = body(res).data as { names: Rec[]; meta: { sources: string[]; type: string; limit: number } };
      assert.ok(names.length > 0, `${kind}: ${show(res)}`);
      assert.ok(names.every((n) => FALLBACK_SOURCES.includes(n.recommendation_metrics.source) && n.recommendation_metrics.type === kind), `${kind}: ${show(res)}`);
      assert.deepEqual(meta.sources, FALLBACK_SOURCES.filter((s) => names.some((n) => n.recommendation_metrics.source === s)));
      assert.equal(meta.type, kind);
      assert.equal(meta.limit, 10);
    }
  });

  it('the personal kinds need a token', async () => {
    for (const kind of ['for-you', 'similar-to-watchlist', 'based-on-votes']) {
      const res = await get(`/api/v1/recommendations/${kind}`);
      assert.equal(res.statusCode, 401, show(res));
      assert.equal(body(res).error.code, 'UNAUTHORIZED');
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/recommendations/also-viewed/alpha', headers: { authorization: 'Bearer bad.token.here' } });
    assert.equal(res.statusCode, 401, show(res));
  });
});
