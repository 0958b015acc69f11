import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';

const PER_MINUTE = 10;
const PER_DAY = 50;

describe('comments on names and the block list', () => {
  let t: TestContext;
  let users: SignedIn[];
  before(async () => {
    t = await createTestApp({ COMMENTS_PER_MINUTE: String(PER_MINUTE), COMMENTS_PER_DAY: String(PER_DAY) });
    users = [];
    for (let i = 0; i < 5; i++) users.push(await signIn(t.app, i));
  });
  after(async () => { await t?.close(); });

  const post = (user: SignedIn | undefined, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v1/comments', headers: user?.headers ?? {}, payload: payload as object });
  const get = (url: string, user?: SignedIn) => t.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });
  /** Comments written straight to the table (lists and feeds need more than the rate limit allows). */
  const seed = async (rows: { name: number; user: SignedIn; body: string }[]) => {
    const ids: number[] = [];
    for (const r of rows) {
      ids.push((await t.container.db.insertInto('comments').values({ ens_name_id: r.name, user_id: r.user.userId, body: r.body }).returning('id').executeTakeFirstOrThrow()).id);
    }
    return ids;
  };

  it('a posted comment comes back as the text sent, as JSON, never as HTML', async () => {
    const name = await createName(t.container.db, 'htmlsafe.eth');
    const text = '<script>alert("x")</script> <b>bold</b> &amp; é 🚀\nsecond line';
    const res = await post(users[0], { name: 'HtmlSafe', body: `  ${text}  ` });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const { comment, quota } = body(res).data;
    assert.equal(comment.body, text, 'trimmed, otherwise exactly as sent');
    assert.equal(comment.name, 'htmlsafe.eth');
    assert.equal(comment.ens_name_id, name.id);
    assert.equal(comment.author_address, users[0].address);
    assert.equal(comment.user_id, users[0].userId);
    assert.equal(comment.edited, false);
    assert.deepEqual(quota, { used: 1, max: PER_DAY, remaining: PER_DAY - 1 });
    assert.ok(!res.body.includes('<script>') || res.body.includes('"body":"<script>'), 'only inside a JSON string');

    const list = await get('/api/v1/comments?name=htmlsafe.eth');
    assert.equal(list.statusCode, 200, show(list));
    assert.match(String(list.headers['content-type']), /^application\/json/);
    assert.equal(list.headers['cache-control'], 'no-store');
    assert.deepEqual(body(list).data.comments.map((c: { body: string }) => c.body), [text]);
  });

  it("a name's comments page newest first by cursor; unknown and invalid names are refused", async () => {
    const name = await createName(t.container.db, 'paged.eth');
    const other = await createName(t.container.db, 'otherpaged.eth');
    await seed([1, 2, 3, 4, 5].map((i) => ({ name: name.id, user: users[i % 2], body: `c${i}` })));
    await seed([{ name: other.id, user: users[0], body: 'elsewhere' }]);

    let res = await get('/api/v1/comments?name=paged&limit=2');
    assert.equal(res.statusCode, 200, show(res));
    let data = body(res).data;
    assert.deepEqual(data.comments.map((c: { body: string }) => c.body), ['c5', 'c4']);
    assert.ok(data.nextCursor);
    res = await get(`/api/v1/comments?name=paged&limit=2&cursor=${data.nextCursor}`);
    data = body(res).data;
    assert.deepEqual(data.comments.map((c: { body: string }) => c.body), ['c3', 'c2']);
    res = await get(`/api/v1/comments?name=paged&limit=2&cursor=${data.nextCursor}`);
    data = body(res).data;
    assert.deepEqual(data.comments.map((c: { body: string }) => c.body), ['c1']);
    assert.equal(data.nextCursor, null);

    res = await get(`/api/v1/comments?name=paged&author_address=${users[1].address.toUpperCase().replace('0X', '0x')}`);
    assert.deepEqual(body(res).data.comments.map((c: { body: string }) => c.body), ['c5', 'c3', 'c1'], show(res));

    res = await get('/api/v1/comments?name=nosuchname.eth');
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND');
    res = await get('/api/v1/comments?name=bad%20name');
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'INVALID_NAME');
    res = await get('/api/v1/comments?name=paged&cursor=abc');
    assert.equal(body(res).error.details.field, 'query.cursor', show(res));
    res = await post(users[0], { name: 'nosuchname.eth', body: 'hi' });
    assert.equal(res.statusCode, 404, show(res));
  });

  it('only the author edits or deletes a comment: 401 without a token, 403 for another user, 404 when gone', async () => {
    await createName(t.container.db, 'editme.eth');
    const created = body(await post(users[0], { name: 'editme.eth', body: 'first' })).data.comment;
    const url = `/api/v1/comments/${created.id}`;

    let res = await t.app.inject({ method: 'PATCH', url, payload: { body: 'anon' } });
    assert.equal(res.statusCode, 401, show(res));
    assert.equal(body(res).error.code, 'UNAUTHORIZED');
    res = await t.app.inject({ method: 'PATCH', url, headers: { authorization: 'Bearer not.a.token' }, payload: { body: 'bad' } });
    assert.equal(res.statusCode, 401, show(res));
    res = await t.app.inject({ method: 'PATCH', url, headers: users[1].headers, payload: { body: 'hijack' } });
    assert.equal(res.statusCode, 403, show(res));
    assert.equal(body(res).error.code, 'FORBIDDEN');
    res = await t.app.inject({ method: 'DELETE', url, headers: users[1].headers });
    assert.equal(res.statusCode, 403, show(res));
    res = await t.app.inject({ method: 'DELETE', url });
    assert.equal(res.statusCode, 401, show(res));

    res = await t.app.inject({ method: 'PATCH', url, headers: users[0].headers, payload: { body: ' second ' } });
    assert.equal(res.statusCode, 200, show(res));
    const edited = body(res).data.comment;
    assert.equal(edited.body, 'second');
    assert.equal(edited.edited, true);
    assert.equal(edited.created_at, created.created_at);
    assert.deepEqual(body(await get('/api/v1/comments?name=editme')).data.comments.map((c: { body: string }) => c.body), ['second']);

    res = await t.app.inject({ method: 'DELETE', url, headers: users[0].headers });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { id: created.id, deleted: true });
    assert.deepEqual(body(await get('/api/v1/comments?name=editme')).data.comments, []);
    res = await t.app.inject({ method: 'DELETE', url, headers: users[0].headers });
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'NOT_FOUND');
    res = await t.app.inject({ method: 'PATCH', url, headers: users[0].headers, payload: { body: 'again' } });
    assert.equal(res.statusCode, 404, show(res));
    res = await post(undefined, { name: 'editme.eth', body: 'anon' });
    assert.equal(res.statusCode, 401, show(res));
  });

  it('blank, too long, control characters and direction overrides are 400 naming body.body; line breaks are kept', async () => {
    await createName(t.container.db, 'limits.eth');
    const cases: [string, unknown][] = [
      ['blank', '   \n\t '],
      ['too long', 'x'.repeat(2001)],
      ['bell', 'ring\u0007ring'],
      ['escape', 'colour \u001b[31mred'],
      ['right-to-left override', 'invoice\u202egpj.exe'],
      ['nothing', ''],
    ];
    for (const [what, text] of cases) {
      const res = await post(users[2], { name: 'limits.eth', body: text });
      assert.equal(res.statusCode, 400, `${what}: ${show(res)}`);
      assert.equal(body(res).error.code, 'VALIDATION_ERROR', what);
      assert.equal(body(res).error.details.field, 'body.body', what);
    }
    const max = '🚀'.repeat(2000); // characters, not bytes or UTF-16 units
    let res = await post(users[2], { name: 'limits.eth', body: max });
    assert.equal(res.statusCode, 200, show(res));
    res = await post(users[2], { name: 'limits.eth', body: 'line one\r\nline two\ttabbed' });
    assert.equal(body(res).data.comment.body, 'line one\nline two\ttabbed', show(res));
    const id = body(res).data.comment.id;
    res = await t.app.inject({ method: 'PATCH', url: `/api/v1/comments/${id}`, headers: users[2].headers, payload: { body: 'a\u0000b' } });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.details.field, 'body.body');
  });

  it(`posting is limited to ${PER_MINUTE} a minute per user: 429 in the envelope with Retry-After`, async () => {
    await createName(t.container.db, 'spam.eth');
    for (let i = 0; i < PER_MINUTE; i++) {
      const res = await post(users[3], { name: 'spam.eth', body: `post ${i}` });
      assert.equal(res.statusCode, 200, show(res));
    }
    const res = await post(users[3], { name: 'spam.eth', body: 'one too many' });
    assert.equal(res.statusCode, 429, show(res));
    assert.equal(body(res).success, false);
    assert.equal(body(res).error.code, 'RATE_LIMITED');
    assert.ok(body(res).meta.timestamp);
    assert.ok(Number(res.headers['retry-after']) > 0);
    // Another user has a budget of their own.
    assert.equal((await post(users[0], { name: 'spam.eth', body: 'mine' })).statusCode, 200);
  });

  it(`at most ${PER_DAY} comments a UTC day: the quota counts them and the next post is 429`, async () => {
    const name = await createName(t.container.db, 'quota.eth');
    await seed(Array.from({ length: PER_DAY - 1 }, (_, i) => ({ name: name.id, user: users[4], body: `q${i}` })));
    let res = await get('/api/v1/comments/quota', users[4]);
    assert.equal(res.statusCode, 200, show(res));
    const quota = body(res).data;
    assert.equal(quota.used, PER_DAY - 1);
    assert.equal(quota.remaining, 1);
    assert.equal(quota.perMinute, PER_MINUTE);
    assert.ok(Date.parse(quota.resetsAt) > Date.now());
    assert.equal(new Date(quota.resetsAt).getUTCHours(), 0);

    res = await post(users[4], { name: 'quota.eth', body: 'the last one' });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data.quota, { used: PER_DAY, max: PER_DAY, remaining: 0 });
    res = await post(users[4], { name: 'quota.eth', body: 'over' });
    assert.equal(res.statusCode, 429, show(res));
    assert.equal(body(res).error.code, 'RATE_LIMITED');
    assert.equal(body(res).error.details.quota.remaining, 0);
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.equal((await get('/api/v1/comments/quota')).statusCode, 401);
  });

  it("a blocked user's comments are hidden from the blocker only, until unblocked", async () => {
    const [a, b, c] = users;
    const name = await createName(t.container.db, 'blocky.eth', { owner: c.address });
    await seed([{ name: name.id, user: a, body: 'from a' }, { name: name.id, user: b, body: 'from b' }, { name: name.id, user: c, body: 'from c' }]);
    const bodies = async (url: string, user?: SignedIn) => body(await get(url, user)).data.comments
      .filter((x: { name: string }) => x.name === 'blocky.eth').map((x: { body: string }) => x.body);

    let res = await t.app.inject({ method: 'POST', url: '/api/v1/me/blocks', headers: a.headers, payload: { user: b.address.toUpperCase().replace('0X', '0x') } });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { blocker_user_id: a.userId, blocked_user_id: b.userId, address: b.address });
    res = await t.app.inject({ method: 'POST', url: '/api/v1/me/blocks', headers: a.headers, payload: { user: 'blocky.eth' } }); // its owner, c
    assert.equal(body(res).data.blocked_user_id, c.userId, show(res));
    res = await t.app.inject({ method: 'POST', url: '/api/v1/me/blocks', headers: a.headers, payload: { user: b.address } }); // twice: harmless
    assert.equal(res.statusCode, 200, show(res));

    res = await get('/api/v1/me/blocks', a);
    assert.deepEqual(body(res).data.blocks.map((x: { user_id: number; address: string }) => [x.user_id, x.address]).sort(), [[b.userId, b.address], [c.userId, c.address]].sort(), show(res));

    assert.deepEqual(await bodies('/api/v1/comments?name=blocky', a), ['from a']);
    assert.deepEqual(await bodies('/api/v1/comments/feed?limit=100', a), ['from a']);
    assert.deepEqual(await bodies('/api/v1/comments?name=blocky', b), ['from c', 'from b', 'from a']);
    assert.deepEqual(await bodies('/api/v1/comments?name=blocky'), ['from c', 'from b', 'from a']);

    res = await t.app.inject({ method: 'DELETE', url: `/api/v1/me/blocks/${b.userId}`, headers: a.headers });
    assert.deepEqual(body(res).data, { blocker_user_id: a.userId, blocked_user_id: b.userId, removed: true }, show(res));
    assert.deepEqual(await bodies('/api/v1/comments?name=blocky', a), ['from b', 'from a']);
    res = await t.app.inject({ method: 'DELETE', url: `/api/v1/me/blocks/${b.userId}`, headers: a.headers });
    assert.equal(body(res).data.removed, false);

    res = await t.app.inject({ method: 'POST', url: '/api/v1/me/blocks', headers: a.headers, payload: { user: a.address } });
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.details.field, 'body.user');
    res = await t.app.inject({ method: 'POST', url: '/api/v1/me/blocks', headers: a.headers, payload: { user: '0x000000000000000000000000000000000000dead' } });
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'USER_NOT_FOUND');
    for (const [method, url] of [['GET', '/api/v1/me/blocks'], ['POST', '/api/v1/me/blocks'], ['DELETE', `/api/v1/me/blocks/${b.userId}`]] as const) {
      res = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: { user: b.address } } : {}) });
      assert.equal(res.statusCode, 401, `${method} ${url}: ${show(res)}`);
    }
  });

  it('the feed: newest first with names, owners and clubs; club, author and owner filters; numbered and cursor pages', async () => {
    const owner = users[1];
    const n1 = await createName(t.container.db, '777.eth', { clubs: ['999'], owner: owner.address });
    const n2 = await createName(t.container.db, 'abc.eth', { clubs: ['3-letters'] });
    const ids = await seed([
      { name: n1.id, user: users[0], body: 'f1' }, { name: n2.id, user: users[2], body: 'f2' },
      { name: n1.id, user: users[2], body: 'f3' }, { name: n2.id, user: users[0], body: 'f4' },
    ]);

    let res = await get('/api/v1/comments/feed?limit=2');
    assert.equal(res.statusCode, 200, show(res));
    const data = body(res).data;
    assert.deepEqual(data.comments.map((x: { id: string }) => x.id), [String(ids[3]), String(ids[2])]);
    assert.equal(data.comments[0].name, 'abc.eth');
    assert.deepEqual(data.comments[0].clubs, ['3-letters']);
    assert.equal(data.pagination.page, 1);
    assert.equal(data.pagination.limit, 2);
    assert.equal(data.pagination.hasPrev, false);
    assert.equal(data.pagination.hasNext, true);
    assert.equal(body(res).meta.totalCapped, false);
    const total = data.pagination.total;
    assert.ok(total >= 4);

    res = await get('/api/v1/comments/feed?limit=2&page=2');
    assert.equal(body(res).data.pagination.hasPrev, true, show(res));
    const cursorPage = body(await get(`/api/v1/comments/feed?limit=2&cursor=${data.nextCursor}`)).data;
    assert.deepEqual(cursorPage.comments.map((x: { id: string }) => x.id), body(res).data.comments.map((x: { id: string }) => x.id));
    assert.equal(cursorPage.pagination.total, total - 2);

    // 999 is read name by name (a small club), 3-letters by walking the newest comments (a large one).
    await t.container.db.insertInto('clubs').values([{ name: '999', member_count: 1 }, { name: '3-letters', member_count: 1_000_000 }])
      .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ member_count: eb.ref('excluded.member_count') }))).execute();
    const feedBodies = async (query: string) => body(await get(`/api/v1/comments/feed?limit=100&${query}`)).data.comments.map((x: { body: string }) => x.body);
    assert.deepEqual(await feedBodies('club=999'), ['f3', 'f1']);
    assert.deepEqual(await feedBodies('clubs=999,3-letters'), ['f4', 'f3', 'f2', 'f1']);
    assert.deepEqual(await feedBodies('clubs[]=3-letters'), ['f4', 'f2']);
    assert.deepEqual(await feedBodies(`owner=${owner.address}`), ['f3', 'f1']);
    assert.deepEqual(await feedBodies(`author_address=${users[2].address}&club=999`), ['f3']);
    const f3 = body(await get(`/api/v1/comments/feed?limit=1&owner=${owner.address}`)).data.comments[0];
    assert.equal(f3.owner_address, owner.address);

    // The watchlist feed: only the names on the caller's lists (here 777.eth, watched twice on two lists).
    for (const [list, label] of [['One', n1.id], ['Two', n1.id]] as const) {
      const l = await t.container.db.insertInto('watchlists').values({ user_id: users[3].userId, name: list }).returning('id').executeTakeFirstOrThrow();
      await t.container.db.insertInto('watchlist_items').values({ list_id: l.id, user_id: users[3].userId, ens_name_id: label }).execute();
    }
    res = await get('/api/v1/comments/feed/watchlist?limit=100', users[3]);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data.comments.map((x: { body: string }) => x.body), ['f3', 'f1']);
    assert.equal(body(res).data.pagination.total, 2);
    assert.equal((await get('/api/v1/comments/feed/watchlist')).statusCode, 401);

    res = await get('/api/v1/comments/feed?page=101&limit=100');
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.details.field, 'query.page');
    res = await get('/api/v1/comments/feed?sort=old');
    assert.equal(body(res).error.details.field, 'query.sort', show(res));
  });
});
