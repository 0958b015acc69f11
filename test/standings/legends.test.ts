import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { account, addressOf } from '../helpers/accounts.js';
import { createOwnedName, createRegistration } from '../helpers/standings.js';

const YEAR = 31_556_952;

describe('GET /api/v1/legends/:address', () => {
  let t: TestContext;
  const W = addressOf(8);
  const V = addressOf(9);
  const mints: Record<string, { txHash: string; blockNumber: number; labelhash: string; namehash: string }> = {};

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const mint = async (name: string, actor: string, blockTime: string, kind: 'registration' | 'renewal' = 'registration') => {
      const n = (await db.selectFrom('ens_names').select(['id', 'labelhash', 'namehash']).where('name', '=', name).executeTakeFirst()) ?? (await createOwnedName(db, name, actor));
      const r = await createRegistration(db, { nameId: n.id, kind, actor, blockTime, durationSeconds: YEAR });
      if (kind === 'registration') mints[`${name}@${actor}`] = { txHash: r.tx_hash, blockNumber: r.block_number, labelhash: n.labelhash, namehash: n.namehash };
    };
    await mint('classic.eth', W, '2018-03-01T10:00:00Z'); // OG
    await mint('oldie.eth', W, '2017-05-10T08:00:00Z'); // prepunk and OG
    await mint('pioneer-one.eth', W, '2020-01-01T00:00:00Z'); // Pioneer
    await mint('pioneer-two.eth', W, '2021-10-31T23:59:59Z'); // Pioneer, last second
    await mint('later.eth', W, '2021-11-01T00:00:00Z'); // after every window
    await mint('classic.eth', W, '2019-01-01T00:00:00Z', 'renewal'); // a renewal is not a mint
    await mint('again.eth', V, '2018-01-01T00:00:00Z'); // V minted it first...
    await mint('again.eth', W, '2020-06-01T00:00:00Z'); // ...so W's later registration is not a mint
  });
  after(async () => { await t?.close(); });

  it('summarises the mints per legend type', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/legends/${W}` });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    assert.deepEqual(body(res).data, {
      address: W,
      legends: {
        prepunk: { qualified: true, count: 1, firstMint: '2017-05-10T08:00:00.000Z', lastMint: '2017-05-10T08:00:00.000Z' },
        OG: { qualified: true, count: 2, firstMint: '2017-05-10T08:00:00.000Z', lastMint: '2018-03-01T10:00:00.000Z' },
        Pioneer: { qualified: true, count: 2, firstMint: '2020-01-01T00:00:00.000Z', lastMint: '2021-10-31T23:59:59.000Z' },
      },
    }, show(res));
    const v = body(await t.app.inject({ method: 'GET', url: `/api/v1/legends/${V}` })).data;
    assert.deepEqual(Object.keys(v.legends), ['OG']);
    assert.equal(v.legends.OG.count, 1);
  });

  it('finds the same data for any case of the address', async () => {
    const expected = body(await t.app.inject({ method: 'GET', url: `/api/v1/legends/${W}` })).data;
    for (const variant of [account(8).address, `0x${W.slice(2).toUpperCase()}`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/legends/${variant}` });
      assert.equal(res.statusCode, 200, show(res));
      assert.deepEqual(body(res).data, expected, show(res));
      const details = await t.app.inject({ method: 'GET', url: `/api/v1/legends/${variant}/details` });
      assert.equal(body(details).data.address, W);
      assert.equal(body(details).data.legends.OG.count, 2, show(details));
    }
  });

  it('gives an address without mints an empty legends object', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/legends/${addressOf(3)}` });
    assert.equal(res.statusCode, 200, show(res));
    assert.deepEqual(body(res).data, { address: addressOf(3), legends: {} });
    const details = await t.app.inject({ method: 'GET', url: `/api/v1/legends/${addressOf(3)}/details` });
    assert.deepEqual(body(details).data, { address: addressOf(3), legends: {} });
  });

  it('lists the mints oldest first, filtered by type', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/legends/${W}/details` });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    const { legends } = body(res).data;
    assert.deepEqual(Object.keys(legends).sort(), ['OG', 'Pioneer', 'prepunk']);
    assert.deepEqual(legends.OG.mints.map((m: any) => m.name), ['oldie.eth', 'classic.eth']);
    const oldie = mints[`oldie.eth@${W}`];
    assert.deepEqual(legends.OG.mints[0], {
      name: 'oldie.eth', txHash: oldie.txHash, blockNumber: oldie.blockNumber, blockTime: '2017-05-10T08:00:00.000Z',
      labelhash: oldie.labelhash, namehash: oldie.namehash,
    });

    const pioneer = await t.app.inject({ method: 'GET', url: `/api/v1/legends/${W}/details?type=Pioneer` });
    assert.equal(pioneer.statusCode, 200, show(pioneer));
    assert.deepEqual(Object.keys(body(pioneer).data.legends), ['Pioneer']);
    assert.deepEqual(body(pioneer).data.legends.Pioneer.mints.map((m: any) => m.name), ['pioneer-one.eth', 'pioneer-two.eth'], show(pioneer));
    assert.equal(body(pioneer).data.legends.Pioneer.count, 2);
    assert.equal(body(pioneer).data.legends.Pioneer.qualified, true);

    const og = body(await t.app.inject({ method: 'GET', url: `/api/v1/legends/${W}/details?type=og` })).data.legends;
    assert.deepEqual(Object.keys(og), ['OG'], 'type matches in any case');
    const none = body(await t.app.inject({ method: 'GET', url: `/api/v1/legends/${W}/details?type=genesis` })).data.legends;
    assert.deepEqual(none, {});
  });

  it('rejects an address that is not 0x + 40 hex with VALIDATION_ERROR', async () => {
    for (const bad of ['0x123', 'vitalik.eth', `${W}00`, `0x${'g'.repeat(40)}`, W.slice(2)]) {
      for (const url of [`/api/v1/legends/${bad}`, `/api/v1/legends/${bad}/details`]) {
        const res = await t.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 400, `${url}: ${show(res)}`);
        assert.equal(body(res).error.code, 'VALIDATION_ERROR', `${url}: ${show(res)}`);
      }
    }
  });
});

/**
 * A name's mint is its first registration whatever order the registrations are stored in: a
 * backfilled earlier one takes the mint over, a removed one gives it back, a changed one moves it,
 * and emptied registrations take every mint with them (the mints are kept by the registrations'
 * own triggers, migration 0044). Each step asks about addresses (or types) not asked before: legends
 * are cached 15 seconds per address and type.
 */
describe('legends follow the registrations as they change', () => {
  let t: TestContext;
  const X = addressOf(21);
  const Y = addressOf(22);
  const Z = addressOf(23);
  const legendsOf = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data.legends as Record<string, { count: number; mints?: { name: string }[]; firstMint?: string }>;
  };

  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('moves a mint to an earlier registration stored later, and back when it goes', async () => {
    const db = t.container.db;
    const name = await createOwnedName(db, 'backfilled.eth', X);
    await createRegistration(db, { nameId: name.id, actor: X, blockTime: '2020-03-01T00:00:00Z', durationSeconds: YEAR });
    assert.deepEqual(Object.keys(await legendsOf(`/api/v1/legends/${X}`)), ['Pioneer']);

    // an earlier registration of the name arrives (a sync catching up from further back)
    const earlier = await createRegistration(db, { nameId: name.id, actor: Y, blockTime: '2018-02-01T00:00:00Z', durationSeconds: YEAR });
    const y = await legendsOf(`/api/v1/legends/${Y}`);
    assert.deepEqual(Object.keys(y), ['OG']);
    assert.equal(y.OG.firstMint, '2018-02-01T00:00:00.000Z');
    assert.deepEqual(await legendsOf(`/api/v1/legends/${X}/details`), {}, 'the later registration is no mint now');

    // the earlier one removed: the name's mint is X's again
    await db.deleteFrom('registrations').where('id', '=', earlier.id).execute();
    const pioneer = await legendsOf(`/api/v1/legends/${X}/details?type=pioneer`);
    assert.deepEqual(pioneer.Pioneer.mints?.map((m) => m.name), ['backfilled.eth']);

    // moved back in time, and the window it counts in moves with it
    await db.updateTable('registrations').set({ block_time: new Date('2017-01-01T00:00:00Z') }).where('ens_name_id', '=', name.id).execute();
    const og = await legendsOf(`/api/v1/legends/${X}/details?type=og`);
    assert.deepEqual(og.OG.mints?.map((m) => m.name), ['backfilled.eth']);
    // renewals are no mints, and only the first registration of a batch is
    const batch = await createOwnedName(db, 'batch.eth', Z);
    await db.insertInto('registrations').values([
      { ens_name_id: batch.id, kind: 'renewal', actor_address: Y, tx_hash: `0x${'a'.repeat(64)}`, log_index: 0, block_number: 10, block_time: new Date('2016-01-01T00:00:00Z'), duration_seconds: YEAR },
      { ens_name_id: batch.id, kind: 'registration', actor_address: Z, tx_hash: `0x${'b'.repeat(64)}`, log_index: 0, block_number: 11, block_time: new Date('2019-06-01T00:00:00Z'), duration_seconds: YEAR },
      { ens_name_id: batch.id, kind: 'registration', actor_address: Y, tx_hash: `0x${'c'.repeat(64)}`, log_index: 0, block_number: 12, block_time: new Date('2020-06-01T00:00:00Z'), duration_seconds: YEAR },
    ]).execute();
    assert.deepEqual(Object.keys(await legendsOf(`/api/v1/legends/${Z}`)), ['Pioneer']);
    assert.deepEqual(await legendsOf(`/api/v1/legends/${Y}/details?type=pioneer`), {});
  });

  it('has no mints once the registrations are emptied', async () => {
    const db = t.container.db;
    const W = addressOf(24);
    const name = await createOwnedName(db, 'emptied.eth', W);
    await createRegistration(db, { nameId: name.id, actor: W, blockTime: '2018-05-01T00:00:00Z', durationSeconds: YEAR });
    await sql`TRUNCATE registrations`.execute(db);
    assert.deepEqual(await legendsOf(`/api/v1/legends/${W}`), {});
    // and a registration stored afterwards is a mint again
    const V = addressOf(25);
    await createRegistration(db, { nameId: name.id, actor: V, blockTime: '2018-05-02T00:00:00Z', durationSeconds: YEAR });
    assert.deepEqual(Object.keys(await legendsOf(`/api/v1/legends/${V}`)), ['OG']);
  });
});
