import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { labelhash } from 'viem';
import pg from 'pg';
import { createTestDatabase } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { CONTRACTS, EVENTS, FakeChain, FakeSubgraph, startChainServer, startSubgraphServer, tokenIdOf, type SubgraphServer } from '../helpers/sync.js';
import type { RpcServer } from '../helpers/json-rpc.js';
import { scriptArgs } from '../helpers/scripts.js';

const run = promisify(execFile);

describe('npm run sync', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let subgraph: SubgraphServer;
  let rpc: RpcServer;
  let dir: string;
  const fake = new FakeSubgraph();
  const chain = new FakeChain();
  const A = addressOf(1);
  const B = addressOf(2);

  before(async () => {
    database = await createTestDatabase();
    fake.block = 50; // the subgraph is behind the chain events below
    for (let i = 0; i < 25; i++) fake.add(`script${i}`, { owner: A });
    chain.head = 300;
    chain.emit(100, CONTRACTS.baseRegistrar, EVENTS.transfer, { from: A, to: B, tokenId: tokenIdOf('script7') });
    chain.emit(120, CONTRACTS.legacyController, EVENTS.renewed, { name: 'script3', label: labelhash('script3'), cost: 10n ** 15n, expires: BigInt(chain.timeOf(120) + 2 * 365 * 86_400) }, { from: B });
    subgraph = await startSubgraphServer(fake);
    rpc = await startChainServer(chain);
    dir = mkdtempSync(path.join(tmpdir(), 'ensm-sync-script-'));
  });
  after(async () => {
    await subgraph?.close();
    await rpc?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs names, events and prices once with progress on stderr and a summary per step', async () => {
    const env = {
      ...process.env, DATABASE_URL: database.url, DATA_DIR: dir, LOG_LEVEL: 'silent', SEED_ON_EMPTY: 'false', JWT_SECRET: 'x'.repeat(40),
      ENS_SUBGRAPH_URL: subgraph.url, ETH_RPC_URL: rpc.url, SYNC_START_BLOCK: '1', SYNC_BLOCK_RANGE: '50', CONFIRMATIONS: '12',
    };
    const { stdout, stderr } = await run(process.execPath, [...scriptArgs('src/scripts/sync.ts')], { env });
    const lines = stdout.trim().split('\n');
    assert.deepEqual(lines.map((l) => l.split(':')[0]), ['names', 'events', 'prices'], stdout);
    assert.match(lines[0], /"inserted":25/);
    assert.match(lines[1], /"toBlock":288/);
    assert.match(stderr, /names .*\[#+\.*\] +\d+\.\d%/, 'a progress bar for names');
    assert.match(stderr, /events .*\[#+\.*\] +100\.0% +block 288\/288/, 'a progress bar for events, in blocks');

    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const owners = await db.query<{ name: string; owner_address: string }>("SELECT name, owner_address FROM ens_names WHERE name IN ('script7.eth', 'script8.eth') ORDER BY name");
      assert.deepEqual(owners.rows.map((r) => r.owner_address), [B, A]);
      const renewals = await db.query("SELECT actor_address FROM registrations WHERE kind = 'renewal'");
      assert.deepEqual(renewals.rows.map((r) => r.actor_address), [B]);
      const prices = await db.query('SELECT count(*)::int AS n FROM eth_usd_prices');
      assert.equal(prices.rows[0].n, 1);
    } finally {
      await db.end();
    }

    const only = await run(process.execPath, [...scriptArgs('src/scripts/sync.ts'), 'names'], { env: { ...env, ENS_SUBGRAPH_URL: '' } });
    assert.match(only.stdout, /^names: skipped \(not configured: set ENS_SUBGRAPH_URL\)/);
  });
});
