import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { castVote, createActiveListing } from '../helpers/community.js';
import { DAY } from '../../src/lib/time.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { LeaderboardEntry } from '../../src/contracts/votes.js';

describe('votes', () => {
  let t: TestContext;
  let users: SignedIn[];
  before(async () => {
    t = await createTestApp();
    users = [];
    for (let i = 0; i < 5; i++) users.push(await signIn(t.app, i));
  });
  after(async () => { await t?.close(); });

  const stats = (name: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1/votes/${encodeURIComponent(name)}`, headers });
  const leaderboard = (query = '') => t.app.inject({ method: 'GET', url: `/api/v1/votes/leaderboard${query}` });

  it('cast, change and removal keep counts, the vote row and one event per cast', async () => {
    const name = await createName(t.container.db, 'castme.eth');
    const [a, b] = users;

    let res = await castVote(t.app, a, 'castme.eth', 1);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { ensName: 'castme.eth', upvotes: 1, downvotes: 0, netScore: 1, userVote: 1 });

    res = await castVote(t.app, b, 'CastMe', -1); // normalized, .eth optional
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { ensName: 'castme.eth', upvotes: 1, downvotes: 1, netScore: 0, userVote: -1 });

    res = await castVote(t.app, a, 'castme.eth', -1); // changed in place
    assert.deepEqual(body(res).data, { ensName: 'castme.eth', upvotes: 0, downvotes: 2, netScore: -2, userVote: -1 }, show(res));

    res = await castVote(t.app, a, 'castme.eth', -1); // same vote again: no double count
    assert.deepEqual(body(res).data, { ensName: 'castme.eth', upvotes: 0, downvotes: 2, netScore: -2, userVote: -1 }, show(res));

    res = await castVote(t.app, b, 'castme.eth', 0); // removal
    assert.deepEqual(body(res).data, { ensName: 'castme.eth', upvotes: 0, downvotes: 1, netScore: -1, userVote: null }, show(res));

    res = await castVote(t.app, b, 'castme.eth', 0); // removing nothing is harmless
    assert.deepEqual(body(res).data, { ensName: 'castme.eth', upvotes: 0, downvotes: 1, netScore: -1, userVote: null }, show(res));

    const votes = await t.container.db.selectFrom('votes').select(['user_id', 'vote']).where('ens_name_id', '=', name.id).execute();
    assert.deepEqual(votes, [{ user_id: a.userId, vote: -1 }]);
    const events = await t.container.db.selectFrom('vote_events').select(['user_id', 'vote', 'previous_vote', 'cast_at']).where('ens_name_id', '=', name.id).orderBy('id').execute();
    assert.deepEqual(events.map((e) => [e.user_id, e.vote, e.previous_vote]), [
      [a.userId, 1, 0], [b.userId, -1, 0], [a.userId, -1, 1], [a.userId, -1, -1], [b.userId, 0, -1], [b.userId, 0, 0],
    ]);
    assert.ok(events.every((e) => e.cast_at instanceof Date));
    const row = await t.container.db.selectFrom('ens_names').select(['upvotes', 'downvotes', 'net_score']).where('id', '=', name.id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { upvotes: 0, downvotes: 1, net_score: -1 });
  });

  it('concurrent casts on one name keep the counts equal to the votes', async () => {
    const name = await createName(t.container.db, 'busy.eth');
    await Promise.all(users.map((u, i) => castVote(t.app, u, 'busy.eth', i % 2 === 0 ? 1 : -1)));
    await Promise.all(users.map((u) => castVote(t.app, u, 'busy.eth', 1)));
    const res = await stats('busy.eth');
    assert.deepEqual(body(res).data, { ensName: 'busy.eth', upvotes: 5, downvotes: 0, netScore: 5, userVote: null }, show(res));
    const n = await t.container.db.selectFrom('votes').select((eb) => eb.fn.countAll<number>().as('n')).where('ens_name_id', '=', name.id).executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 5);
  });

  it('GET /votes/:ensName shows userVote only with a valid token', async () => {
    await createName(t.container.db, 'statsname.eth');
    await castVote(t.app, users[0], 'statsname.eth', 1);
    await castVote(t.app, users[1], 'statsname.eth', 1);
    await castVote(t.app, users[2], 'statsname.eth', -1);

    const anon = await stats('statsname.eth');
    assert.equal(anon.statusCode, 200, show(anon));
    assert.deepEqual(body(anon).data, { ensName: 'statsname.eth', upvotes: 2, downvotes: 1, netScore: 1, userVote: null });
    assert.equal(anon.headers['cache-control'], 'no-store');

    assert.equal(body(await stats('statsname.eth', users[2].headers)).data.userVote, -1);
    assert.equal(body(await stats('StatsName', users[0].headers)).data.userVote, 1);
    assert.equal(body(await stats('statsname.eth', users[3].headers)).data.userVote, null);

    const bad = await stats('statsname.eth', { authorization: 'Bearer not.a.token' });
    assert.equal(bad.statusCode, 401, show(bad));
    assert.equal(body(bad).error.code, 'UNAUTHORIZED');
  });

  it('unknown names are 404 ENS_NAME_NOT_FOUND; names that do not normalize are 400 to cast, 404 to read', async () => {
    let res = await castVote(t.app, users[0], 'nosuchname.eth', 1);
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND');
    res = await stats('nosuchname.eth');
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND');

    res = await castVote(t.app, users[0], 'bad name!.eth', 1);
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(body(res).error.code, 'INVALID_NAME');
    res = await castVote(t.app, users[0], 'sub.name.eth', 1);
    assert.equal(res.statusCode, 400, show(res));
    res = await stats('bad name!.eth');
    assert.equal(res.statusCode, 404, show(res));
    assert.equal(body(res).error.code, 'ENS_NAME_NOT_FOUND');
  });

  it('casting needs a valid token and a vote of 1, -1 or 0', async () => {
    await createName(t.container.db, 'guarded.eth');
    let res = await t.app.inject({ method: 'POST', url: '/api/v1/votes', payload: { ensName: 'guarded.eth', vote: 1 } });
    assert.equal(res.statusCode, 401, show(res));
    assert.equal(body(res).error.code, 'UNAUTHORIZED');
    res = await t.app.inject({ method: 'POST', url: '/api/v1/votes', headers: { authorization: 'Bearer x.y.z' }, payload: { ensName: 'guarded.eth', vote: 1 } });
    assert.equal(res.statusCode, 401, show(res));
    for (const payload of [{ ensName: 'guarded.eth', vote: 2 }, { ensName: 'guarded.eth', vote: 0.5 }, { ensName: 'guarded.eth' }, { vote: 1 }, { ensName: 'guarded.eth', vote: 'up' }]) {
      res = await t.app.inject({ method: 'POST', url: '/api/v1/votes', headers: users[0].headers, payload });
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    }
  });

  describe('leaderboard', () => {
    let ids: Record<string, number>;
    before(async () => {
      // Fresh names with known counts: [upvotes, downvotes].
      const plan: Record<string, [number, number]> = {
        'lb-alpha.eth': [3, 0], // net 3
        'lb-bravo.eth': [4, 2], // net 2
        'lb-charlie.eth': [2, 0], // net 2 (tie with bravo, created later)
        'lb-delta.eth': [0, 3], // net -3
        'lb-echo.eth': [1, 1], // net 0
      };
      ids = {};
      for (const name of Object.keys(plan)) ids[name] = (await createName(t.container.db, name, { owner: addressOf(7) })).id;
      await createName(t.container.db, 'lb-novotes.eth');
      // Names from earlier tests have votes too; clear them so this block sees only its own.
      await t.container.db.deleteFrom('votes').execute();
      await t.container.db.updateTable('ens_names').set({ upvotes: 0, downvotes: 0 }).execute();
      for (const [name, [up, down]] of Object.entries(plan)) {
        // up to 4 up-voters and 3 down-voters; bravo needs 6 distinct users, so sign in more.
        const voters = [...users];
        while (voters.length < up + down) voters.push(await signIn(t.app, voters.length));
        for (let i = 0; i < up; i++) assert.equal((await castVote(t.app, voters[i], name, 1)).statusCode, 200);
        for (let i = 0; i < down; i++) assert.equal((await castVote(t.app, voters[up + i], name, -1)).statusCode, 200);
      }
      // One voted-then-removed name: no votes left, so not on the board.
      await createName(t.container.db, 'lb-removed.eth');
      await castVote(t.app, users[0], 'lb-removed.eth', 1);
      await castVote(t.app, users[0], 'lb-removed.eth', 0);
    });

    it('sorts by net score by default, ties by name id, only names with votes', async () => {
      const res = await leaderboard();
      assert.equal(res.statusCode, 200, show(res));
      const d = body(res).data;
      assert.deepEqual(d.leaderboard.map((e: any) => e.name), ['lb-alpha.eth', 'lb-bravo.eth', 'lb-charlie.eth', 'lb-echo.eth', 'lb-delta.eth']);
      assert.deepEqual(d.pagination, { page: 1, limit: 20, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
      const bravo = d.leaderboard[1];
      assert.deepEqual(bravo, { id: ids['lb-bravo.eth'], name: 'lb-bravo.eth', tokenId: bravo.tokenId, ownerAddress: addressOf(7), upvotes: 4, downvotes: 2, netScore: 2 });
      assert.match(bravo.tokenId, /^\d+$/);
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('sorts by upvotes and by downvotes, ties by name id', async () => {
      let d = body(await leaderboard('?sortBy=upvotes')).data;
      assert.deepEqual(d.leaderboard.map((e: any) => [e.name, e.upvotes]), [['lb-bravo.eth', 4], ['lb-alpha.eth', 3], ['lb-charlie.eth', 2], ['lb-echo.eth', 1], ['lb-delta.eth', 0]]);
      d = body(await leaderboard('?sortBy=downvotes')).data;
      assert.deepEqual(d.leaderboard.map((e: any) => [e.name, e.downvotes]), [['lb-delta.eth', 3], ['lb-bravo.eth', 2], ['lb-echo.eth', 1], ['lb-alpha.eth', 0], ['lb-charlie.eth', 0]]);
      d = body(await leaderboard('?sortBy=netScore')).data;
      assert.equal(d.leaderboard[0].name, 'lb-alpha.eth');
    });

    it('pages without overlap (Style B inside data)', async () => {
      const p1 = body(await leaderboard('?limit=2&page=1')).data;
      const p2 = body(await leaderboard('?limit=2&page=2')).data;
      const p3 = body(await leaderboard('?limit=2&page=3')).data;
      assert.deepEqual([...p1.leaderboard, ...p2.leaderboard, ...p3.leaderboard].map((e: any) => e.name), ['lb-alpha.eth', 'lb-bravo.eth', 'lb-charlie.eth', 'lb-echo.eth', 'lb-delta.eth']);
      assert.deepEqual(p2.pagination, { page: 2, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: true });
      assert.deepEqual(p3.pagination, { page: 3, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
      const beyond = body(await leaderboard('?limit=2&page=9')).data;
      assert.deepEqual(beyond.leaderboard, []);
    });

    it('activeListing only for a name with an active, unexpired listing', async () => {
      const seller = addressOf(7);
      const listing = await createActiveListing(t.container.db, ids['lb-alpha.eth'], seller, { priceWei: '1500000000000000000' });
      await createActiveListing(t.container.db, ids['lb-alpha.eth'], addressOf(8), { priceWei: '900', createdAt: new Date(Date.now() - DAY) }); // older
      await createActiveListing(t.container.db, ids['lb-bravo.eth'], seller, { expiresAt: new Date(Date.now() - 1000) }); // expired by time
      await createActiveListing(t.container.db, ids['lb-charlie.eth'], seller, { status: 'cancelled' });
      await createActiveListing(t.container.db, ids['lb-echo.eth'], seller, { expiresAt: null, priceWei: '7' }); // no expiry
      const d = body(await leaderboard()).data;
      const by = Object.fromEntries(d.leaderboard.map((e: any) => [e.name, e]));
      assert.deepEqual(by['lb-alpha.eth'].activeListing, { id: listing.id, price_wei: '1500000000000000000', currency_address: '0x0000000000000000000000000000000000000000', currency_symbol: 'ETH', currency_decimals: 18, status: 'active', source: 'grails' });
      assert.equal('activeListing' in by['lb-bravo.eth'], false);
      assert.equal('activeListing' in by['lb-charlie.eth'], false);
      assert.equal('activeListing' in by['lb-delta.eth'], false);
      assert.equal(by['lb-echo.eth'].activeListing.price_wei, '7');
      // every entry is the schema's, nothing more (the entries are written by PostgreSQL, not by the serializer)
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addFormat('uint256', true);
      const closed = (schema: object): object => JSON.parse(JSON.stringify(schema), (_key, v) => (v && typeof v === 'object' && v.type === 'object' ? { ...v, additionalProperties: false } : v));
      const valid = ajv.compile(closed(LeaderboardEntry));
      for (const e of d.leaderboard) assert.ok(valid(e), `${JSON.stringify(valid.errors)} ${JSON.stringify(e)}`);
      const usdc = await createActiveListing(t.container.db, ids['lb-delta.eth'], seller, { priceWei: '2500000', currency: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' });
      const delta = (body(await leaderboard()).data.leaderboard as Array<{ name: string; activeListing?: object }>).find((e) => e.name === 'lb-delta.eth');
      assert.deepEqual(delta?.activeListing, { id: usdc.id, price_wei: '2500000', currency_address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', currency_symbol: 'USDC', currency_decimals: 6, status: 'active', source: 'grails' });
    });

    it('bad page, limit or sortBy is 400 VALIDATION_ERROR', async () => {
      for (const q of ['?page=0', '?page=-1', '?page=abc', '?limit=0', '?limit=101', '?limit=x', '?sortBy=score', '?sortBy=']) {
        const res = await leaderboard(q);
        assert.equal(res.statusCode, 400, `${q}: ${show(res)}`);
        assert.equal(body(res).error.code, 'VALIDATION_ERROR');
      }
    });

    it('/votes/leaderboard is the leaderboard, leaderboard.eth is a name', async () => {
      await createName(t.container.db, 'leaderboard.eth');
      const board = await leaderboard();
      assert.ok(Array.isArray(body(board).data.leaderboard), show(board));
      const name = await stats('leaderboard.eth');
      assert.equal(name.statusCode, 200, show(name));
      assert.equal(body(name).data.ensName, 'leaderboard.eth');
    });

    it('the total follows a name onto the board and off it', async () => {
      const total = async () => body(await leaderboard('?limit=1')).data.pagination.total;
      const before = await total();
      await createName(t.container.db, 'lb-newcomer.eth');
      assert.equal((await castVote(t.app, users[0], 'lb-newcomer.eth', -1)).statusCode, 200);
      assert.equal(await total(), before + 1);
      await castVote(t.app, users[1], 'lb-newcomer.eth', 1); // still on the board
      assert.equal(await total(), before + 1);
      await castVote(t.app, users[0], 'lb-newcomer.eth', 0);
      await castVote(t.app, users[1], 'lb-newcomer.eth', 0);
      assert.equal(await total(), before);
    });

    it('each sort can be served by a partial index over the voted names', async () => {
      const client = await t.container.pool.connect();
      try {
        await client.query('BEGIN');
        // The test table is tiny, so a plain scan and a sort would win; ask which index can serve the order.
        await client.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off');
        for (const [column, index] of [['net_score', 'ens_names_votes_idx'], ['upvotes', 'ens_names_upvotes_idx'], ['downvotes', 'ens_names_downvotes_idx']]) {
          const plan = await client.query(`EXPLAIN SELECT id FROM ens_names WHERE upvotes + downvotes > 0 ORDER BY ${column} DESC, id ASC LIMIT 20`);
          const text = plan.rows.map((r: any) => r['QUERY PLAN']).join('\n');
          assert.match(text, new RegExp(`Index (Only )?Scan using ${index}`), text);
        }
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });
  });
});
