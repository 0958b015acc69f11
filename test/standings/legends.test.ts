import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
