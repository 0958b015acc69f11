import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { FakeChain, startChainServer, syncEnv } from '../helpers/sync.js';
import type { RpcServer } from '../helpers/json-rpc.js';
import { parsePricesCsv, upsertPrices } from '../../src/sync/prices.js';
import { syncPricesJob } from '../../src/jobs/handlers/sync.job.js';
import { scriptArgs } from '../helpers/scripts.js';

const run = promisify(execFile);

describe('ETH/USD price table', () => {
  let t: TestContext;
  let rpc: RpcServer;
  let dir: string;
  const chain = new FakeChain();

  before(async () => {
    rpc = await startChainServer(chain);
    t = await createTestApp(syncEnv({ rpcUrl: rpc.url }));
    dir = mkdtempSync(path.join(tmpdir(), 'ensm-prices-'));
  });
  after(async () => {
    await t?.close();
    await rpc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const prices = () =>
    t.container.db.selectFrom('eth_usd_prices').select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'price_usd']).orderBy('day').execute()
      .then((rows) => rows.map((r) => [r.day, r.price_usd]));

  it('parses day,price_usd lines with an optional header, quotes and blank lines; a later line for a day wins', () => {
    const { rows, problems } = parsePricesCsv('day,price_usd\r\n2024-01-02,"2350.5"\n\n2024-01-01, 2300\n2024-01-02,2351.25\n');
    assert.deepEqual(problems, []);
    assert.deepEqual(rows, [{ day: '2024-01-01', priceUsd: '2300' }, { day: '2024-01-02', priceUsd: '2351.25' }]);
  });

  it('reports every bad line by number', () => {
    const { problems } = parsePricesCsv('day,price_usd\n2024-02-30,100\n2024-03-01,-5\n2024-03-02\n2024-03-03,abc\n2024-03-04,1900.1234\n');
    assert.deepEqual(problems.map((p) => p.line), [2, 3, 4, 5]);
  });

  it('upserts days, replacing a day already present', async () => {
    await upsertPrices(t.container.db, [{ day: '2023-05-01', priceUsd: '1800' }]);
    await upsertPrices(t.container.db, [{ day: '2023-05-01', priceUsd: '1850.123456789' }, { day: '2023-05-02', priceUsd: '1900' }]);
    assert.deepEqual(await prices(), [['2023-05-01', '1850.12345679'], ['2023-05-02', '1900.00000000']]);
  });

  it('npm run prices:import loads a file, and imports nothing from a file with a bad line', async () => {
    const env = { ...process.env, DATABASE_URL: t.databaseUrl, DATA_DIR: dir, LOG_LEVEL: 'silent', JOBS_ENABLED: 'false', SEED_ON_EMPTY: 'false', JWT_SECRET: 'x'.repeat(40) };
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'day,price_usd\n2022-01-01,3700\n2022-01-02,oops\n');
    await assert.rejects(run(process.execPath, [...scriptArgs('src/scripts/prices-import.ts'), bad], { env }), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /line 3/);
      return true;
    });
    const good = path.join(dir, 'good.csv');
    writeFileSync(good, 'day,price_usd\n2022-01-01,3700\n2022-01-02,3800.5\n');
    const { stdout } = await run(process.execPath, [...scriptArgs('src/scripts/prices-import.ts'), good], { env });
    assert.deepEqual(JSON.parse(stdout), { days: 2, first: '2022-01-01', last: '2022-01-02' });
    const rows = await prices();
    assert.deepEqual(rows.filter(([d]) => d.startsWith('2022')), [['2022-01-01', '3700.00000000'], ['2022-01-02', '3800.50000000']]);
  });

  it('reads the Chainlink ETH/USD feed into the row of the day it was updated', async () => {
    chain.price = { answer: 3_123_45678901n, updatedAt: Math.floor(Date.parse('2026-11-20T13:45:00Z') / 1000) };
    await syncPricesJob.handle({}, t.container);
    const row = (await prices()).find(([d]) => d === '2026-11-20');
    assert.deepEqual(row, ['2026-11-20', '3123.45678901']);
    chain.price = { answer: 3_200_00000000n, updatedAt: Math.floor(Date.parse('2026-11-20T14:45:00Z') / 1000) };
    await syncPricesJob.handle({}, t.container);
    assert.deepEqual((await prices()).find(([d]) => d === '2026-11-20'), ['2026-11-20', '3200.00000000'], 'the day ends with its latest price');
  });
});
