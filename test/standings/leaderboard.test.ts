import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createListing, createOwnedName, createSale, ETH, ONE_ETH, USDC } from '../helpers/standings.js';
import { leaderboardRefreshJob } from '../../src/jobs/handlers/leaderboard-refresh.job.js';

describe('GET /api/v1/leaderboard', () => {
  let t: TestContext;
  const A = addressOf(1);
  const B = addressOf(2);
  const C = addressOf(3);
  const D = addressOf(4);
  const refresh = () => leaderboardRefreshJob.handle({}, t.container);
  const get = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/leaderboard${query}` });
    assert.equal(res.statusCode, 200, show(res));
    return { res, b: body(res) };
  };
  const addresses = (b: any) => b.data.users.map((u: any) => u.address);

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const weth = t.config.wethAddress;

    // A: two active names (one 89 days into its grace period), one 91 days past expiry.
    const a123 = await createOwnedName(db, '123.eth', A);
    const a1221 = await createOwnedName(db, '1221.eth', A, -89);
    const aOld = await createOwnedName(db, 'alpha-old.eth', A, -91);
    await createListing(db, { nameId: a123.id, seller: A });
    await createListing(db, { nameId: a1221.id, seller: A, status: 'cancelled' });
    await createListing(db, { nameId: aOld.id, seller: A }); // name past grace: not counted
    await createSale(db, { nameId: a123.id, seller: A, priceWei: ONE_ETH, currency: ETH });
    await createSale(db, { nameId: a1221.id, seller: A, priceWei: 2n * ONE_ETH, currency: weth });
    await createSale(db, { nameId: a1221.id, seller: A, priceWei: 1000n * 10n ** 6n, currency: USDC }); // not counted

    // B: two active names; a listing of B's name by someone else does not count for B.
    const bAbc = await createOwnedName(db, 'abc.eth', B);
    const bOther = await createOwnedName(db, 'bob-holdings.eth', B);
    await createListing(db, { nameId: bOther.id, seller: B });
    await createListing(db, { nameId: bAbc.id, seller: C });
    await createListing(db, { nameId: bAbc.id, seller: B, expiresAt: new Date(Date.now() - 1000) }); // listing expired
    await createSale(db, { nameId: bAbc.id, seller: B, priceWei: 5n * 10n ** 6n, currency: USDC });

    // C: only expired names, so C is not on the board (C's sales do not matter).
    const cOld = await createOwnedName(db, 'carol-old.eth', C, -200);
    await createSale(db, { nameId: cOld.id, seller: C, priceWei: ONE_ETH, currency: ETH });

    // D: three active names without clubs, one expired 999-club name.
    const d1 = await createOwnedName(db, 'dave-one.eth', D);
    await createOwnedName(db, 'dave-two.eth', D);
    await createOwnedName(db, 'dave-three.eth', D, -30);
    await createOwnedName(db, '777.eth', D, -100);
    await createSale(db, { nameId: d1.id, seller: D, priceWei: 5n * ONE_ETH, currency: weth });
    await createSale(db, { nameId: d1.id, seller: D, priceWei: ONE_ETH / 2n, currency: ETH, soldAt: new Date('2020-01-01T00:00:00Z') });

    await refresh();
  });
  after(async () => { await t?.close(); });

  it('computes every figure per owner', async () => {
    const { res, b } = await get();
    assert.equal(b.success, true);
    assert.equal(res.headers['cache-control'], 'public, max-age=43200');
    assert.deepEqual(Object.keys(b).sort(), ['data', 'meta', 'pagination', 'success'], show(res));
    assert.deepEqual(b.pagination, { page: 1, limit: 20, total: 3, pages: 1 }, show(res));
    assert.deepEqual(b.meta.sort, { by: 'names_owned', order: 'desc' });
    assert.equal(b.meta.version, '1.0.0');
    const byAddress = Object.fromEntries(b.data.users.map((u: any) => [u.address, u]));
    assert.deepEqual(byAddress[A], {
      address: A, names_owned: 2, names_in_clubs: 2, expired_names: 1, names_listed: 1,
      names_sold: 2, sales_volume: (3n * ONE_ETH).toString(), clubs: ['10k', '4-digit-palindromes', '999'],
    }, show(res));
    assert.deepEqual(byAddress[B], {
      address: B, names_owned: 2, names_in_clubs: 1, expired_names: 0, names_listed: 1,
      names_sold: 0, sales_volume: '0', clubs: ['3-letters'],
    }, show(res));
    assert.deepEqual(byAddress[D], {
      address: D, names_owned: 3, names_in_clubs: 0, expired_names: 1, names_listed: 0,
      names_sold: 2, sales_volume: (5n * ONE_ETH + ONE_ETH / 2n).toString(), clubs: [],
    }, show(res));
    assert.equal(byAddress[C], undefined, 'an owner without active names is not ranked');
  });

  it('sorts by every field with ties broken by address in the same direction', async () => {
    const tie = [A, B].sort().reverse();
    assert.deepEqual(addresses((await get()).b), [D, ...tie]);
    assert.deepEqual(addresses((await get('?sortOrder=asc')).b), [...[...tie].reverse(), D]);
    assert.deepEqual(addresses((await get('?sortBy=sales_volume&sortOrder=asc')).b), [B, A, D]);
    assert.deepEqual(addresses((await get('?sortBy=names_in_clubs')).b), [A, B, D]);
    assert.deepEqual(addresses((await get('?sortBy=expired_names&sortOrder=desc')).b), [...[A, D].sort().reverse(), B]);
    assert.deepEqual(addresses((await get('?sortBy=names_listed&sortOrder=asc')).b), [D, ...[A, B].sort()]);
    const sold = await get('?sortBy=names_sold');
    assert.deepEqual(addresses(sold.b), [...[A, D].sort().reverse(), B]);
    assert.deepEqual(sold.b.meta.sort, { by: 'names_sold', order: 'desc' });
  });

  it('pages with Style A pagination', async () => {
    const { b } = await get('?limit=2&page=2');
    assert.deepEqual(b.pagination, { page: 2, limit: 2, total: 3, pages: 2 });
    assert.equal(b.data.users.length, 1);
    const beyond = await get('?limit=2&page=9');
    assert.deepEqual(beyond.b.data.users, []);
  });

  it('filters by clubs of active names, in every accepted spelling', async () => {
    const one = await get('?clubs[]=999');
    assert.deepEqual(addresses(one.b), [A]);
    assert.deepEqual(one.b.pagination, { page: 1, limit: 20, total: 1, pages: 1 });
    assert.deepEqual(addresses((await get('?clubs[]=999&clubs[]=3-letters')).b).sort(), [A, B].sort());
    assert.deepEqual(addresses((await get('?clubs=3-letters&clubs=10k')).b).sort(), [A, B].sort());
    const commas = await get('?clubs=3-letters,999&sortBy=sales_volume');
    assert.deepEqual(addresses(commas.b), [A, B]);
    assert.equal(commas.b.pagination.total, 2);
    // D's 777 is past its grace period: D is not in the 999 club here.
    assert.deepEqual((await get('?clubs=100k')).b.data.users, []);
    assert.equal((await get('?clubs=100k')).b.pagination.total, 0);
  });

  it('rejects bad page, limit, sortBy, sortOrder and club values with VALIDATION_ERROR', async () => {
    for (const q of ['page=0', 'page=abc', 'page=-1', 'limit=0', 'limit=101', 'limit=x', 'sortBy=bogus', 'sortOrder=up', 'clubs[]=bad%20club', 'clubs=a,,b!']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/leaderboard?${q}` });
      assert.equal(res.statusCode, 400, `${q}: ${show(res)}`);
      assert.equal(body(res).error.code, 'VALIDATION_ERROR', `${q}: ${show(res)}`);
      assert.equal(res.headers['cache-control'], 'no-store');
    }
  });

  it('says in the API reference that figures are as fresh as the last refresh', async () => {
    const spec = body(await t.app.inject({ method: 'GET', url: '/openapi.json' }));
    const op = spec.paths['/api/v1/leaderboard'].get;
    assert.match(op.description, /refresh/);
    assert.ok(op.parameters.some((p: any) => p.name === 'clubs[]'));
    assert.ok(spec.paths['/api/v1/awards-leaderboard'].get.description.includes('refresh'));
  });

  it('shows changes after the next refresh, not before', async () => {
    const db = t.container.db;
    const e = addressOf(5);
    await createOwnedName(db, 'eve-first.eth', e);
    await createOwnedName(db, '54345.eth', e);
    assert.ok(!addresses((await get()).b).includes(e), 'served from the aggregate until it is refreshed');
    await refresh();
    const { b } = await get();
    const eve = b.data.users.find((u: any) => u.address === e);
    assert.equal(eve?.names_owned, 2, JSON.stringify(b));
    assert.deepEqual(eve.clubs, ['100k']);
    assert.equal(b.pagination.total, 4);

    // A name passing to a new owner moves it on the next refresh; an owner left with nothing drops off.
    await db.updateTable('ens_names').set({ owner_address: A }).where('name', 'in', ['eve-first.eth', '54345.eth']).execute();
    await refresh();
    const moved = await get();
    assert.ok(!addresses(moved.b).includes(e));
    assert.equal(moved.b.data.users.find((u: any) => u.address === A).names_owned, 4);
  });
});
