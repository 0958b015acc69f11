import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { labelhash } from 'viem';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { CONTRACTS, EVENTS, FakeChain, resetSyncData, startChainServer, syncEnv, tokenIdOf, txHash, wrappedIdOf, type ChainServer } from '../helpers/sync.js';
import { isSkipped, runEventSync } from '../../src/sync/sync.service.js';
import type { EventSyncResult, EventsState } from '../../src/sync/events.sync.js';
import { readState } from '../../src/sync/state.js';
import { syncEventsJob } from '../../src/jobs/handlers/sync.job.js';

const A = addressOf(1);
const B = addressOf(2);
const C = addressOf(3);
const D = addressOf(4);
const E = addressOf(5);
const ZERO = '0x0000000000000000000000000000000000000000';
const YEAR = 365 * 86_400;
const ETH = 10n ** 18n;

describe('event sync from JSON-RPC', () => {
  // One app and one JSON-RPC server for the file; each test serves its own chain on empty tables.
  let t: TestContext;
  let rpc: ChainServer;
  before(async () => {
    rpc = await startChainServer(new FakeChain());
    t = await createTestApp(syncEnv({ rpcUrl: rpc.url, confirmations: 12, blockRange: 50 }));
  });
  after(async () => {
    await t?.close();
    await rpc?.close();
  });

  /** A fresh chain and empty tables; `confirmations`/`blockRange` override the config for this test. */
  async function setup(chain: FakeChain, env: { confirmations?: number; blockRange?: number } = {}) {
    rpc.use(chain);
    await resetSyncData(t.container.db);
    const config = { ...t.container.config, confirmations: env.confirmations ?? 12, syncBlockRange: env.blockRange ?? 50 };
    return { ...t, container: { ...t.container, config } } as TestContext;
  }

  async function sync(ctx: TestContext): Promise<EventSyncResult> {
    const result = await runEventSync(ctx.container);
    assert.ok(!isSkipped(result), 'the event sync ran');
    return result;
  }

  const nameRow = (ctx: TestContext, name: string) =>
    ctx.container.db.selectFrom('ens_names').select(['id', 'owner_address', 'wrapped', 'registration_date', 'expiry_date']).where('name', '=', name).executeTakeFirst();
  const registrationsOf = (ctx: TestContext, name: string) =>
    ctx.container.db
      .selectFrom('registrations as r')
      .innerJoin('ens_names as n', 'n.id', 'r.ens_name_id')
      .select(['r.kind', 'r.actor_address', 'r.cost_wei', 'r.duration_seconds', 'r.referrer', 'r.expiry_date', 'r.block_number', 'r.block_time'])
      .where('n.name', '=', name)
      .orderBy('r.block_number')
      .orderBy('r.log_index')
      .execute();

  it('applies registrations, renewals with referrers and transfers of every controller generation', async () => {
    const chain = new FakeChain();
    chain.head = 100;
    const ctx = await setup(chain);
    const ours = ctx.config.referrerCode;
    const expiresOf = (block: number, years = 1) => BigInt(chain.timeOf(block) + years * YEAR);

    // Legacy controller: alpha to A. The registrar's Transfer comes first, as on chain.
    let tx = txHash();
    chain.emit(10, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: ZERO, to: A, tokenId: tokenIdOf('alpha') }, { tx });
    chain.emit(10, CONTRACTS.legacyController, EVENTS.legacyRegistered, { name: 'alpha', label: labelhash('alpha'), owner: A, cost: 5n * ETH / 1000n, expires: expiresOf(10) }, { tx, from: A });
    // Wrapped controller: beta to B through the NameWrapper.
    tx = txHash();
    chain.emit(20, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: ZERO, to: CONTRACTS.nameWrapper, tokenId: tokenIdOf('beta') }, { tx });
    chain.emit(20, CONTRACTS.nameWrapper, EVENTS.transferSingle, { operator: CONTRACTS.wrappedController, from: ZERO, to: B, id: wrappedIdOf('beta'), value: 1n }, { tx });
    chain.emit(20, CONTRACTS.wrappedController, EVENTS.wrappedRegistered, { name: 'beta', label: labelhash('beta'), owner: B, baseCost: 3n * ETH / 1000n, premium: ETH / 1000n, expires: expiresOf(20, 2) }, { tx, from: B });
    // Newest controller: gamma to C with our referrer.
    tx = txHash();
    chain.emit(30, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: ZERO, to: C, tokenId: tokenIdOf('gamma') }, { tx });
    chain.emit(30, CONTRACTS.referrerController, EVENTS.referrerRegistered, { label: 'gamma', labelhash: labelhash('gamma'), owner: C, baseCost: 2n * ETH / 1000n, premium: 0n, expires: expiresOf(30, 2), referrer: ours }, { tx, from: C });
    // D renews alpha for a year through the newest controller, with our referrer.
    chain.emit(40, CONTRACTS.referrerController, EVENTS.referrerRenewed, { label: 'alpha', labelhash: labelhash('alpha'), cost: 4n * ETH / 1000n, expires: expiresOf(10, 2), referrer: ours }, { from: D });
    // E renews beta through the referral renewal contract: the wrapped controller's NameRenewed (with
    // the whole msg.value), then RenewalReferred with the actual cost and duration.
    tx = txHash();
    chain.emit(50, CONTRACTS.wrappedController, EVENTS.renewed, { name: 'beta', label: labelhash('beta'), cost: 9n * ETH / 1000n, expires: expiresOf(20, 5) }, { tx, from: E });
    chain.emit(50, CONTRACTS.renewalWithReferrer, EVENTS.renewalReferred, { label: 'beta', labelHash: labelhash('beta'), cost: 6n * ETH / 1000n, duration: BigInt(3 * YEAR), referrer: ours }, { tx, from: E });
    // A label registered in a form that is not normalized is skipped and counted.
    chain.emit(60, CONTRACTS.legacyController, EVENTS.legacyRegistered, { name: 'ABC', label: labelhash('ABC'), owner: A, cost: 1n, expires: expiresOf(60) }, { from: A });
    // A sells alpha to B.
    chain.emit(70, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: A, to: B, tokenId: tokenIdOf('alpha') });

    const result = await sync(ctx);
    assert.equal(result.done, true);
    assert.equal(result.toBlock, 88, 'head 100 − 12 confirmations');
    assert.deepEqual(result.counts, { registrations: 3, renewals: 2, transfers: 5, sales: 0, cancellations: 0, invalid: 1, unknown: 0 });

    const alpha = await nameRow(ctx, 'alpha.eth');
    assert.equal(alpha?.owner_address, B);
    assert.equal(alpha?.wrapped, false);
    assert.equal(alpha?.registration_date?.getTime(), chain.timeOf(10) * 1000);
    assert.equal(alpha?.expiry_date?.getTime(), Number(expiresOf(10, 2)) * 1000, 'extended by the renewal');
    const beta = await nameRow(ctx, 'beta.eth');
    assert.equal(beta?.owner_address, B, 'the wrapped holder');
    assert.equal(beta?.wrapped, true);
    assert.equal((await nameRow(ctx, 'gamma.eth'))?.owner_address, C);
    assert.equal(await nameRow(ctx, 'abc.eth'), undefined);

    const alphaEvents = await registrationsOf(ctx, 'alpha.eth');
    assert.deepEqual(alphaEvents.map((r) => [r.kind, r.actor_address, r.cost_wei, r.duration_seconds, r.referrer]), [
      ['registration', A, (5n * ETH / 1000n).toString(), YEAR, null],
      ['renewal', D, (4n * ETH / 1000n).toString(), YEAR, ours],
    ]);
    assert.equal(alphaEvents[0].block_time.getTime(), chain.timeOf(10) * 1000);
    const betaEvents = await registrationsOf(ctx, 'beta.eth');
    assert.deepEqual(betaEvents.map((r) => [r.kind, r.actor_address, r.cost_wei, r.duration_seconds, r.referrer]), [
      ['registration', B, (4n * ETH / 1000n).toString(), 2 * YEAR, null],
      ['renewal', E, (6n * ETH / 1000n).toString(), 3 * YEAR, ours],
    ], 'the referral event gives the renewal its referrer, cost and duration');
    const gammaEvents = await registrationsOf(ctx, 'gamma.eth');
    assert.deepEqual(gammaEvents.map((r) => [r.kind, r.actor_address, r.referrer]), [['registration', C, ours]]);

    // Running again changes nothing.
    const again = await sync(ctx);
    assert.equal(again.ranges, 0);
    assert.equal((await registrationsOf(ctx, 'alpha.eth')).length, 2);
  });

  it('never applies anything newer than head − confirmations, and resumes from its checkpoint', async () => {
    const chain = new FakeChain();
    chain.head = 100;
    const ctx = await setup(chain, { confirmations: 12 });
    await createName(ctx.container.db, 'delta.eth', { owner: A });
    chain.emit(80, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: A, to: B, tokenId: tokenIdOf('delta') });
    chain.emit(95, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: B, to: C, tokenId: tokenIdOf('delta') });

    await sync(ctx);
    assert.equal((await nameRow(ctx, 'delta.eth'))?.owner_address, B, 'block 95 is not final at head 100');
    assert.equal((await readState<EventsState>(ctx.container.db, 'events'))?.block, 88);
    const logCalls = rpc.calls.filter((c) => c.method === 'eth_getLogs');
    assert.ok(logCalls.every((c) => Number(BigInt((c.params[0] as { toBlock: string }).toBlock)) <= 88), 'never asked beyond the safe head');

    chain.head = 106;
    await sync(ctx);
    assert.equal((await nameRow(ctx, 'delta.eth'))?.owner_address, B, 'block 95 is 11 blocks deep at head 106');
    chain.head = 107;
    const result = await sync(ctx);
    assert.equal(result.fromBlock, 95, 'continues after its checkpoint');
    assert.equal((await nameRow(ctx, 'delta.eth'))?.owner_address, C);
  });

  it('halves the block range when the endpoint refuses it', async () => {
    const chain = new FakeChain();
    chain.head = 60;
    chain.maxLogsPerRequest = 2;
    const ctx = await setup(chain, { confirmations: 0, blockRange: 40 });
    await createName(ctx.container.db, 'echo.eth', { owner: A });
    const owners = [B, C, D, E, A, B];
    owners.forEach((to, i) => chain.emit(5 + i * 3, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: i === 0 ? A : owners[i - 1], to, tokenId: tokenIdOf('echo') }));
    const result = await sync(ctx);
    assert.equal(result.done, true);
    assert.equal(result.counts.transfers, 6);
    assert.equal((await nameRow(ctx, 'echo.eth'))?.owner_address, B);
  });

  it('an older event never overwrites newer state from the subgraph, but its registration is recorded', async () => {
    const chain = new FakeChain();
    chain.head = 100;
    const ctx = await setup(chain);
    const foxtrot = await createName(ctx.container.db, 'foxtrot.eth', { owner: C });
    await ctx.container.db.updateTable('ens_names').set({ synced_block: 500, synced_log_index: 2_147_483_647 }).where('id', '=', foxtrot.id).execute();
    const tx = txHash();
    chain.emit(40, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: ZERO, to: A, tokenId: tokenIdOf('foxtrot') }, { tx });
    chain.emit(40, CONTRACTS.legacyController, EVENTS.legacyRegistered, { name: 'foxtrot', label: labelhash('foxtrot'), owner: A, cost: 1n, expires: BigInt(chain.timeOf(40) + YEAR) }, { tx, from: A });
    await sync(ctx);
    assert.equal((await nameRow(ctx, 'foxtrot.eth'))?.owner_address, C);
    assert.equal((await registrationsOf(ctx, 'foxtrot.eth')).length, 1);
  });

  it('the job does nothing without ETH_RPC_URL', async () => {
    const bare = await createTestApp();
    try {
      await syncEventsJob.handle({}, bare.container);
      assert.equal(await readState(bare.container.db, 'events'), null);
    } finally {
      await bare.close();
    }
  });
});
