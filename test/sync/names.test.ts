import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { namehash } from 'viem';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { FakeSubgraph, resetSyncData, startSubgraphServer, syncEnv, type SubgraphServer } from '../helpers/sync.js';
import { isSkipped, runNameSync } from '../../src/sync/sync.service.js';
import { syncNamesJob } from '../../src/jobs/handlers/sync.job.js';
import type { NameSyncResult, NamesState } from '../../src/sync/names.sync.js';
import { readState } from '../../src/sync/state.js';

const A = addressOf(1);
const B = addressOf(2);
const C = addressOf(3);
const D = addressOf(4);
const at = (iso: string) => new Date(iso);

async function names(t: TestContext) {
  const rows = await t.container.db
    .selectFrom('ens_names')
    .select(['id', 'name', 'owner_address', 'wrapped', 'registration_date', 'expiry_date', 'clubs', 'updated_at'])
    .orderBy('name')
    .execute();
  return new Map(rows.map((r) => [r.name, r]));
}

async function sync(t: TestContext, pageSize = 3): Promise<NameSyncResult> {
  const result = await runNameSync(t.container, { pageSize });
  assert.ok(!isSkipped(result), 'the name sync ran');
  return result;
}

describe('name sync from the ENS subgraph', () => {
  // One app and one subgraph server for the file; each test serves its own fake on empty tables.
  let t: TestContext;
  let server: SubgraphServer;
  before(async () => {
    server = await startSubgraphServer(new FakeSubgraph());
    t = await createTestApp(syncEnv({ subgraphUrl: server.url }));
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  async function setup(fake: FakeSubgraph) {
    server.use(fake);
    await resetSyncData(t.container.db);
    return t;
  }

  it('first sync: upserts every registered .eth name with owner, wrapping and dates; skips and counts the rest', async () => {
    const fake = new FakeSubgraph();
    fake.add('alice', { owner: A, registeredAt: at('2020-02-01T00:00:00Z'), expiresAt: at('2030-01-01T00:00:00Z') });
    fake.add('bob', { owner: B, wrapped: true, expiresAt: at('2029-06-01T00:00:00Z') });
    fake.add('999', { owner: C });
    fake.add('carol', { owner: D, expiresAt: at('2021-01-01T00:00:00Z') });
    fake.add('ABC', { owner: A }); // registered in a form that is not normalized: another token than abc.eth
    fake.add('a b', { owner: A }); // does not normalize at all
    fake.add('mystery', { owner: A, labelName: null }); // unknown label
    fake.add('gone', { owner: A, unregistered: true });
    const ctx = await setup(fake);

    const result = await sync(ctx);
    assert.equal(result.done, true);
    assert.equal(result.mode, 'full');
    assert.deepEqual(result.counts, { seen: 8, inserted: 4, updated: 0, invalid: 3, unregistered: 1 });
    assert.equal(result.pages, 3, '8 domains in pages of 3');

    const rows = await names(ctx);
    assert.deepEqual([...rows.keys()], ['999.eth', 'alice.eth', 'bob.eth', 'carol.eth']);
    const alice = rows.get('alice.eth')!;
    assert.equal(alice.owner_address, A);
    assert.equal(alice.wrapped, false);
    assert.equal(alice.registration_date?.toISOString(), '2020-02-01T00:00:00.000Z');
    assert.equal(alice.expiry_date?.toISOString(), '2030-01-01T00:00:00.000Z', 'the registration expiry, not the domain expiry (which adds the grace period)');
    const bob = rows.get('bob.eth')!;
    assert.equal(bob.owner_address, B, 'a wrapped name belongs to its wrapped owner, not the NameWrapper');
    assert.equal(bob.wrapped, true);
    assert.ok(rows.get('999.eth')!.clubs.includes('999'), 'clubs are set on new names');

    const state = await readState<NamesState>(ctx.container.db, 'names');
    assert.equal(state?.pass, null);
    assert.equal(state?.highWater, fake.block);
    assert.equal(state?.lastPass?.invalid, 3);
    const first = fake.requests[0];
    assert.deepEqual(first.fields, ['_meta', 'domains']);
    assert.deepEqual(first.args, { first: 3, orderBy: 'id', orderDirection: 'asc', where: { parent: namehash('eth'), id_gt: '' } });
  });

  it('resumes after a crash in the middle from the saved cursor: no duplicates, nothing skipped', async () => {
    const fake = new FakeSubgraph();
    const labels = ['n01', 'n02', 'n03', 'n04', 'n05', 'n06', 'n07', 'n08', 'n09', 'n10'];
    for (const l of labels) fake.add(l, { owner: A });
    const ids = [...fake.domains.keys()].sort();
    // The indexer fails every attempt at the third page.
    fake.fail = (r) => r.args.where?.id_gt === ids[5];
    const ctx = await setup(fake);

    await assert.rejects(runNameSync(ctx.container, { pageSize: 3 }));
    const afterCrash = await names(ctx);
    assert.equal(afterCrash.size, 6, 'the two pages before the failure are kept');
    const state = await readState<NamesState>(ctx.container.db, 'names');
    assert.equal(state?.pass?.last, ids[5], 'the cursor is the last applied id');

    fake.fail = undefined;
    const before = fake.requests.length;
    const result = await sync(ctx);
    assert.equal(result.done, true);
    assert.equal(fake.requests[before].args.where?.id_gt, ids[5], 'the rerun starts where the crash left off');
    assert.equal(result.counts.seen, 10, 'every domain read exactly once over the pass');
    assert.equal(result.counts.inserted, 10);

    const rows = await names(ctx);
    assert.deepEqual([...rows.keys()], labels.map((l) => `${l}.eth`));
    for (const [name, row] of afterCrash) assert.equal(rows.get(name)?.id, row.id, `${name} kept its row`);
  });

  it('a second sync applies only what changed since the previous one', async () => {
    const fake = new FakeSubgraph();
    fake.block = 1000;
    fake.add('alice', { owner: A, expiresAt: at('2027-01-01T00:00:00Z') });
    fake.add('bob', { owner: B, wrapped: true });
    fake.add('carol', { owner: C });
    fake.add('erin', { owner: D });
    fake.register('old', 900, { owner: A }); // an event before the high-water mark
    const ctx = await setup(fake);
    await sync(ctx);
    const before = await names(ctx);
    assert.equal(before.size, 5);

    fake.renew('alice', 1010, at('2029-01-01T00:00:00Z'));
    fake.transfer('bob', 1011, C);
    fake.register('dave', 1012, { owner: D });
    fake.transfer('carol', 1013, D);
    fake.get('erin').registrant = A; // changed without an event: a change pass does not read it
    const requestsBefore = fake.requests.length;

    const result = await sync(ctx);
    assert.equal(result.mode, 'changes');
    assert.deepEqual(result.counts, { seen: 4, inserted: 1, updated: 3, invalid: 0, unregistered: 0 });
    const second = fake.requests.slice(requestsBefore);
    assert.ok(second.every((r) => !r.fields.includes('domains')), 'no full listing of domains');
    assert.deepEqual(second.map((r) => r.fields[1]), ['nameRegistereds', 'nameReneweds', 'nameTransferreds', 'wrappedTransfers']);
    assert.ok(second.every((r) => r.args.where?.blockNumber_gt === 1000), 'changes since the previous pass');

    const rows = await names(ctx);
    assert.equal(rows.get('alice.eth')!.expiry_date?.toISOString(), '2029-01-01T00:00:00.000Z');
    assert.equal(rows.get('bob.eth')!.owner_address, C);
    assert.equal(rows.get('bob.eth')!.wrapped, true);
    assert.equal(rows.get('carol.eth')!.owner_address, D);
    assert.equal(rows.get('dave.eth')!.owner_address, D);
    assert.equal(rows.get('erin.eth')!.owner_address, D, 'untouched by the change pass');
    assert.equal(rows.get('erin.eth')!.updated_at.getTime(), before.get('erin.eth')!.updated_at.getTime());
    assert.equal(rows.get('old.eth')!.updated_at.getTime(), before.get('old.eth')!.updated_at.getTime());

    const third = await sync(ctx);
    assert.deepEqual(third.counts, { seen: 0, inserted: 0, updated: 0, invalid: 0, unregistered: 0 }, 'nothing new since');
  });

  it('an older subgraph page never overwrites newer chain state', async () => {
    const fake = new FakeSubgraph();
    fake.block = 500;
    fake.add('alice', { owner: A });
    const ctx = await setup(fake);
    await sync(ctx);
    // The event sync applied a transfer at block 600 (newer than the subgraph's block 500).
    await ctx.container.db.updateTable('ens_names').set({ owner_address: B, synced_block: 600, synced_log_index: 3 }).where('name', '=', 'alice.eth').execute();
    await ctx.container.db.deleteFrom('sync_state').where('key', '=', 'names').execute();
    await sync(ctx);
    assert.equal((await names(ctx)).get('alice.eth')!.owner_address, B);
  });

  it('the job does nothing without ENS_SUBGRAPH_URL', async () => {
    const bare = await createTestApp();
    try {
      await syncNamesJob.handle({}, bare.container);
      assert.equal(await readState(bare.container.db, 'names'), null);
    } finally {
      await bare.close();
    }
  });
});
