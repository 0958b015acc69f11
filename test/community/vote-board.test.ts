import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { createName } from '../helpers/factories.js';
import { addressOf } from '../helpers/accounts.js';
import { VoteService, type VoteValue } from '../../src/services/votes.service.js';
import { parseEthName } from '../../src/lib/ens.js';

/**
 * The vote leaderboard's total (names with at least one vote) is kept by the writes of the names'
 * vote counts (migration 0050), not counted per request: it must equal a count of the board after
 * any sequence of casts, changes and removals, and after writes outside the vote service.
 */
describe('vote leaderboard total', () => {
  let t: TestContext;
  let votes: VoteService;
  const names: string[] = [];
  const users: number[] = [];
  const counted = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ens_names WHERE upvotes + downvotes > 0`.execute(t.container.db)).rows[0].n;
  const boardTotal = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/votes/leaderboard?limit=1' });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data.pagination.total as number;
  };

  before(async () => {
    t = await createTestApp();
    votes = new VoteService(t.container);
    for (const n of ['oak.eth', 'elm.eth', 'ash.eth', 'fir.eth', 'yew.eth']) names.push((await createName(t.container.db, n)).name);
    for (let i = 0; i < 3; i++) users.push((await t.container.db.insertInto('users').values({ address: addressOf(i).toLowerCase() }).returning('id').executeTakeFirstOrThrow()).id);
  });
  after(async () => { await t?.close(); });

  it('equals a count of the board after any sequence of casts, changes and removals', async () => {
    const op = fc.record({
      user: fc.integer({ min: 0, max: users.length - 1 }),
      name: fc.integer({ min: 0, max: names.length - 1 }),
      vote: fc.constantFrom<VoteValue>(1, -1, 0),
    });
    let moved = 0;
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
      for (const o of ops) await votes.cast(users[o.user], names[o.name], o.vote);
      const n = await counted();
      if (n > 0) moved++;
      assert.equal(await boardTotal(), n, JSON.stringify(ops));
    }), { numRuns: 40 });
    assert.ok(moved > 10, 'the board had names in most runs');
  });

  it('follows writes outside the vote service: concurrent casts, a new name with votes, a delete, a truncate', async () => {
    const { db } = t.container;
    await Promise.all(users.flatMap((u) => names.map((n, i) => votes.cast(u, n, i % 2 === 0 ? 1 : -1))));
    assert.equal(await boardTotal(), names.length);
    const extra = await createName(db, 'pine.eth');
    await sql`UPDATE ens_names SET upvotes = 3 WHERE id = ${extra.id}`.execute(db);
    assert.equal(await boardTotal(), names.length + 1);
    await sql`DELETE FROM ens_names WHERE id = ${extra.id}`.execute(db);
    assert.equal(await boardTotal(), names.length);
    const spruce = parseEthName('spruce.eth');
    await db.insertInto('ens_names').values({ name: spruce.name, label: spruce.label, labelhash: spruce.labelhash, namehash: spruce.namehash, token_id: spruce.tokenId,
      upvotes: 2 }).execute();
    assert.equal(await boardTotal(), names.length + 1);
    await sql`TRUNCATE ens_names CASCADE`.execute(db);
    assert.equal(await boardTotal(), 0);
  });
});
