import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { castVote, setVoteTime } from '../helpers/community.js';
import { DAY, HOUR } from '../../src/lib/time.js';

describe('trending by votes', () => {
  let t: TestContext;
  let users: SignedIn[];
  const id: Record<string, number> = {};

  const trending = (query = '', headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1/trending/votes${query}`, headers });
  const ago = (ms: number) => new Date(Date.now() - ms);

  /** Casts through the API, then moves the cast back in time. */
  async function voteAt(user: SignedIn, name: string, vote: number, at?: Date): Promise<void> {
    const res = await castVote(t.app, user, name, vote);
    assert.equal(res.statusCode, 200, show(res));
    if (at) await setVoteTime(t.container.db, user.userId, id[name], at);
  }

  before(async () => {
    t = await createTestApp();
    users = [];
    for (let i = 0; i < 5; i++) users.push(await signIn(t.app, i));
    for (const name of ['hot.eth', 'warm.eth', 'old.eth', 'stale.eth', 'flip.eth', 'gone.eth', 'sour.eth']) id[name] = (await createName(t.container.db, name)).id;

    // hot: 3 up + 1 down, all within the last hour.
    await voteAt(users[0], 'hot.eth', 1);
    await voteAt(users[1], 'hot.eth', 1);
    await voteAt(users[2], 'hot.eth', 1, ago(2 * HOUR));
    await voteAt(users[3], 'hot.eth', -1, ago(23 * HOUR));
    // warm: 2 up in 24h, 1 down 3 days ago (7d only).
    await voteAt(users[0], 'warm.eth', 1);
    await voteAt(users[1], 'warm.eth', 1, ago(10 * HOUR));
    await voteAt(users[2], 'warm.eth', -1, ago(3 * DAY));
    // old: 4 votes, all 2-6 days ago: 7d only.
    for (let i = 0; i < 4; i++) await voteAt(users[i], 'old.eth', i === 3 ? -1 : 1, ago((2 + i) * DAY));
    // sour: 3 downvotes 2 days ago: 7d only, ties warm on period votes and loses on period upvotes.
    for (let i = 0; i < 3; i++) await voteAt(users[i], 'sour.eth', -1, ago(2 * DAY + i * HOUR));
    // stale: votes older than 7 days count in neither period (but stay in the all-time score).
    await voteAt(users[0], 'stale.eth', 1, ago(8 * DAY));
    await voteAt(users[1], 'stale.eth', 1, ago(30 * DAY));
    // flip: one user toggles many times within the hour; only the latest cast counts, once.
    for (const v of [1, -1, 1, -1, 1]) await voteAt(users[4], 'flip.eth', v);
    // gone: voted then removed within the period; a removal counts as nothing.
    await voteAt(users[4], 'gone.eth', 1);
    await voteAt(users[4], 'gone.eth', 0);
  });
  after(async () => { await t?.close(); });

  it('24h (the default): only casts in the last 24 hours, ranked by period votes', async () => {
    const res = await trending();
    assert.equal(res.statusCode, 200, show(res));
    const d = body(res).data;
    assert.deepEqual(d.meta, { period: '24h', type: 'votes', limit: 20 });
    assert.deepEqual(body(res).meta.version, '1.0.0');
    assert.deepEqual(d.names.map((n: any) => [n.name, n.trending_metrics]), [
      ['hot.eth', { period: '24h', period_upvotes: 3, period_downvotes: 1, period_votes: 4, net_score_total: 2 }],
      ['warm.eth', { period: '24h', period_upvotes: 2, period_downvotes: 0, period_votes: 2, net_score_total: 1 }],
      ['flip.eth', { period: '24h', period_upvotes: 1, period_downvotes: 0, period_votes: 1, net_score_total: 1 }],
    ]);
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  it('7d: votes older than 24 hours count too, older than 7 days do not', async () => {
    const d = body(await trending('?period=7d')).data;
    assert.deepEqual(d.meta, { period: '7d', type: 'votes', limit: 20 });
    assert.deepEqual(d.names.map((n: any) => [n.name, n.trending_metrics.period_upvotes, n.trending_metrics.period_downvotes, n.trending_metrics.period_votes]), [
      ['hot.eth', 3, 1, 4], // ties with old.eth on period votes and upvotes: the older name id first
      ['old.eth', 3, 1, 4],
      ['warm.eth', 2, 1, 3],
      ['sour.eth', 0, 3, 3],
      ['flip.eth', 1, 0, 1],
    ]);
    assert.ok(!d.names.some((n: any) => n.name === 'stale.eth' || n.name === 'gone.eth'));
  });

  it('each entry is a standard search result plus trending_metrics', async () => {
    const hot = body(await trending()).data.names[0];
    for (const field of ['id', 'name', 'token_id', 'owner', 'expiry_date', 'registration_date', 'clubs', 'has_numbers', 'has_emoji', 'last_sale_date', 'last_sale_price', 'listings', 'highest_offer_wei', 'upvotes', 'downvotes', 'net_score']) {
      assert.ok(field in hot, `missing ${field}`);
    }
    assert.equal(hot.id, id['hot.eth']);
    assert.equal(hot.upvotes, 3);
    assert.equal(hot.downvotes, 1);
    assert.equal(hot.net_score, 2);
    assert.equal('user_vote' in hot, false, 'no user_vote without a token');
  });

  it('with a valid token each entry carries the caller\'s own vote; a bad token is 401', async () => {
    const d = body(await trending('?period=7d', users[3].headers)).data;
    const by = Object.fromEntries(d.names.map((n: any) => [n.name, n.user_vote]));
    assert.deepEqual(by, { 'hot.eth': -1, 'old.eth': -1, 'warm.eth': null, 'sour.eth': null, 'flip.eth': null });
    const bad = await trending('', { authorization: 'Bearer bad.token.here' });
    assert.equal(bad.statusCode, 401, show(bad));
    assert.equal(body(bad).error.code, 'UNAUTHORIZED');
  });

  it('limit cuts the ranking', async () => {
    const d = body(await trending('?period=7d&limit=2')).data;
    assert.deepEqual(d.names.map((n: any) => n.name), ['hot.eth', 'old.eth']);
    assert.deepEqual(d.meta, { period: '7d', type: 'votes', limit: 2 });
  });

  it('bad period or limit is 400 VALIDATION_ERROR', async () => {
    for (const q of ['?period=1h', '?period=', '?limit=0', '?limit=101', '?limit=abc']) {
      const res = await trending(q);
      assert.equal(res.statusCode, 400, `${q}: ${show(res)}`);
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
    }
  });
});
