import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { castVote, createActiveListing } from '../helpers/community.js';
import { startEnsRpc, type ChainState } from '../helpers/ens-rpc.js';
import type { RpcServer } from '../helpers/json-rpc.js';
import { MAINNET } from '../../src/config.js';
import { refreshHolderLeaderboard } from '../../src/services/leaderboard.service.js';
import { refreshClubStats } from '../../src/analytics/index.js';
import { DAY } from '../../src/lib/time.js';

describe('profiles, balances and badges (with a JSON-RPC node)', () => {
  let t: TestContext;
  let rpc: RpcServer;
  let alice: SignedIn;
  const A = addressOf(0).toLowerCase();
  const B = addressOf(1).toLowerCase();
  const FAILING = addressOf(2).toLowerCase();
  const state: ChainState = {
    reverse: new Map([[A, 'alice.eth'], [B, 'alice.eth']]), // B claims a name that does not point back to it
    forward: new Map([['alice.eth', A]]),
    eth: new Map([[A, 1_500_000_000_000_000_000n]]),
    tokens: new Map([[`${MAINNET.weth}:${A}`, 250_000_000_000_000_000n], [`${MAINNET.usdc}:${A}`, 1_000_000_000n]]),
    failing: new Set([FAILING]),
  };

  before(async () => {
    rpc = await startEnsRpc(state);
    t = await createTestApp({ ETH_RPC_URL: rpc.url });
    const db = t.container.db;
    alice = await signIn(t.app, 0);
    const res = await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: alice.headers, payload: { email: 'alice@example.com', telegram: 'alice_tg' } });
    assert.equal(res.statusCode, 200, show(res));

    const club = await createName(db, '123.eth', { owner: A, clubs: ['999'], expiryDate: new Date(Date.now() + 40 * DAY) });
    const later = await createName(db, 'zetaprofile.eth', { owner: A, expiryDate: new Date(Date.now() + 400 * DAY) });
    await createName(db, 'graceprofile.eth', { owner: A, expiryDate: new Date(Date.now() - 10 * DAY) });
    await createName(db, 'lapsedprofile.eth', { owner: A, expiryDate: new Date(Date.now() - 200 * DAY) });
    await createActiveListing(db, club.id, A, { priceWei: '3000000000000000000' });
    await db.insertInto('sales').values([
      { ens_name_id: later.id, seller_address: A, buyer_address: B, price_wei: '2000000000000000000', currency_address: MAINNET.weth, sold_at: new Date(Date.now() - 5 * DAY) },
      { ens_name_id: club.id, seller_address: B, buyer_address: A, price_wei: '1000000000000000000', currency_address: MAINNET.weth, sold_at: new Date(Date.now() - 9 * DAY) },
    ]).execute();
    await db.insertInto('registrations').values({
      ens_name_id: later.id, actor_address: A, block_number: 5_000_000, block_time: new Date('2018-01-10T00:00:00Z'), duration_seconds: 365 * 86_400,
      kind: 'registration', log_index: 0, tx_hash: `0x${'ab'.repeat(32)}`, expiry_date: new Date('2019-01-10T00:00:00Z'),
    }).execute();
    assert.equal((await castVote(t.app, alice, 'zetaprofile.eth', 1)).statusCode, 200);
    await refreshHolderLeaderboard(db, { gracePeriodDays: 90, wethAddress: MAINNET.weth });
    await refreshClubStats(db, { gracePeriodDays: 90, premiumPeriodDays: 21 });
  });
  after(async () => { await t?.close(); await rpc?.close(); });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('a profile by address: primary name from the chain, holdings, clubs, listings, sales, votes, legends', async () => {
    const res = await get(`/api/v1/profiles/${addressOf(0)}`);
    assert.equal(res.statusCode, 200, show(res));
    const p = body(res).data;
    assert.equal(p.address, A);
    assert.equal(p.primaryName, 'alice.eth');
    assert.equal(p.primaryNameSource, 'rpc');
    assert.ok(p.memberSince);
    assert.deepEqual(p.ownedNames.map((n: { name: string }) => n.name), ['graceprofile.eth', '123.eth', 'zetaprofile.eth'], show(res));
    const listed = p.ownedNames.find((n: { name: string }) => n.name === '123.eth');
    assert.equal(listed.is_listed, true);
    assert.equal(listed.active_listing.price_wei, '3000000000000000000');
    assert.deepEqual(p.clubs, [{ club: '999', count: 1 }]);
    assert.deepEqual(p.stats, {
      totalNames: 3, listedNames: 1, expiredNames: 1, namesInClubs: 1, namesSold: 1, salesVolumeWei: '2000000000000000000',
      purchases: 1, totalActivity: 1, votes: { cast: 1, up: 1, down: 0 },
    });
    assert.deepEqual(Object.keys(p.legends), ['OG']);
  });

  it('shows the first 50 names by expiry, past grace left out, and names without an expiry after them', async () => {
    const db = t.container.db;
    const owner = addressOf(6);
    for (let i = 0; i < 60; i += 1) await createName(db, `holding${String(i).padStart(2, '0')}.eth`, { owner, expiryDate: new Date(Date.now() + (100 - i) * DAY) });
    for (let i = 0; i < 5; i += 1) await createName(db, `gone${i}.eth`, { owner, expiryDate: new Date(Date.now() - (100 + i) * DAY) });
    const few = addressOf(7);
    await createName(db, 'timeless.eth', { owner: few });
    await db.updateTable('ens_names').set({ expiry_date: null }).where('name', '=', 'timeless.eth').execute();
    await createName(db, 'soon.eth', { owner: few, expiryDate: new Date(Date.now() + 3 * DAY) });
    await createName(db, 'grace.eth', { owner: few, expiryDate: new Date(Date.now() - 3 * DAY) });
    await createName(db, 'lapsed.eth', { owner: few, expiryDate: new Date(Date.now() - 300 * DAY) });

    const many = body(await get(`/api/v1/profiles/${owner}`)).data;
    assert.deepEqual(many.ownedNames.map((n: { name: string }) => n.name), Array.from({ length: 50 }, (_, k) => `holding${59 - k}.eth`));
    const some = body(await get(`/api/v1/profiles/${few}`)).data;
    assert.deepEqual(some.ownedNames.map((n: { name: string; expiry_date: string | null }) => [n.name, n.expiry_date === null]),
      [['grace.eth', false], ['soon.eth', false], ['timeless.eth', true]]);
  });

  it('never shows an e-mail address (nor other contact fields)', async () => {
    for (const key of [addressOf(0), '123.eth']) {
      const res = await get(`/api/v1/profiles/${key}`);
      assert.equal(res.statusCode, 200, show(res));
      assert.ok(!res.body.includes('alice@example.com'), res.body);
      assert.ok(!res.body.includes('@'), res.body);
      assert.ok(!res.body.includes('alice_tg'), res.body);
    }
  });

  it('the primary name is read once an hour, and only when it resolves back to the address', async () => {
    const calls = rpc.calls.length;
    const again = body(await get(`/api/v1/profiles/${A}`)).data;
    assert.equal(again.primaryName, 'alice.eth');
    assert.equal(again.primaryNameSource, 'cache');
    assert.equal(rpc.calls.filter((c) => c.method === 'eth_call').length, rpc.calls.slice(0, calls).filter((c) => c.method === 'eth_call').length, 'no chain read within the hour');
    const b = body(await get(`/api/v1/profiles/${B}`)).data;
    assert.equal(b.primaryName, null, 'a reverse claim the name does not confirm is no primary name');
    assert.equal(b.primaryNameSource, 'rpc');
    assert.equal(b.memberSince, null);
    assert.deepEqual(b.ownedNames, []);
  });

  it('a name as the key resolves to its owner; unknown names and malformed keys fail', async () => {
    const byName = await get('/api/v1/profiles/123.eth');
    assert.equal(body(byName).data.address, A, show(byName));
    const unknown = await get('/api/v1/profiles/nobodyhasthis.eth');
    assert.equal(unknown.statusCode, 404, show(unknown));
    assert.equal(body(unknown).error.code, 'PROFILE_NOT_FOUND');
    const bad = await get('/api/v1/profiles/0x1234');
    assert.equal(bad.statusCode, 400, show(bad));
    assert.equal(body(bad).error.code, 'VALIDATION_ERROR');
    assert.equal(body(bad).error.details.field, 'params.addressOrName');
  });

  it('balances of ETH, WETH and USDC come from the node; a failing node gives nulls and the reason', async () => {
    const res = await get(`/api/v1/users/${addressOf(0)}/balances`);
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, {
      address: A,
      balances: {
        eth: { symbol: 'ETH', address: null, wei: '1500000000000000000', formatted: '1.5', decimals: 18 },
        weth: { symbol: 'WETH', address: MAINNET.weth, wei: '250000000000000000', formatted: '0.25', decimals: 18 },
        usdc: { symbol: 'USDC', address: MAINNET.usdc, wei: '1000000000', formatted: '1000', decimals: 6 },
      },
      reason: null,
    });
    assert.equal(res.headers['cache-control'], 'no-store');
    const failing = body(await get(`/api/v1/users/${FAILING}/balances`)).data;
    assert.equal(failing.reason, 'rpc_failed');
    assert.equal(failing.balances.eth.wei, null);
    assert.equal(failing.balances.usdc.formatted, null);
    const bad = await get('/api/v1/users/not-an-address/balances');
    assert.equal(bad.statusCode, 400);
    assert.equal(body(bad).error.details.field, 'params.address');
  });

  it('badges are the legends the address earned', async () => {
    const res = await get(`/api/v1/users/${A}/badges`);
    assert.equal(res.statusCode, 200, show(res));
    const { badges } = body(res).data;
    assert.equal(badges.length, 1);
    assert.equal(badges[0].event.id, 'legend:OG');
    assert.equal(badges[0].created, '2018-01-10T00:00:00.000Z');
    assert.deepEqual(body(await get(`/api/v1/users/${B}/badges`)).data.badges, []);
  });
});
