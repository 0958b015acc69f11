// test: self-contained (its own embedded PostgreSQL and service processes; DATABASE_URL and REDIS_URL do not reach them)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/community.js';
import { errorLines, isAlive, postmasterPid, removeDataDir, startServer, waitGone, waitReady, type ServerProcess } from './helpers/server-process.js';

/**
 * The real process on its embedded PostgreSQL in a private temp DATA_DIR: a second service on
 * the same folder refuses, `npm run seed` next to it uses its cluster, a SIGKILL leaves a
 * PostgreSQL behind that the next start stops, and SIGTERM stops everything within 5 s.
 */
describe('restart', { timeout: 300_000 }, () => {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'ensm-restart-')), 'data');
  let pgPort: number;
  const started: ServerProcess[] = [];
  const start = async (env: Record<string, string> = {}, script?: string, args?: string[]) => {
    const server = startServer(await freePort(), { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), ...env }, script, args);
    started.push(server);
    return server;
  };

  before(async () => { pgPort = await freePort(); });
  after(async () => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(started.map((s) => s.exited));
    const stale = postmasterPid(dataDir);
    if (stale !== undefined && isAlive(stale)) process.kill(stale, 'SIGINT');
    removeDataDir(dataDir);
  });

  let first: ServerProcess;
  let firstPostgres: number;

  it('starts on its embedded PostgreSQL in a private DATA_DIR', async () => {
    first = await start();
    await waitReady(first);
    firstPostgres = postmasterPid(dataDir)!;
    assert.ok(firstPostgres !== undefined && isAlive(firstPostgres), first.output());
  });

  it('refuses a second service on the same DATA_DIR with one line', async () => {
    const second = await start();
    assert.equal(await second.exited, 1, second.output());
    const lines = second.output().trim().split('\n');
    assert.equal(lines.length, 1, second.output());
    assert.match(lines[0]!, /in use by another running service \(pid \d+/);
  });

  it('lets `npm run seed` use the running cluster', async () => {
    const seed = await start({}, 'src/scripts/seed.ts', ['--names', '100']);
    assert.equal(await seed.exited, 0, seed.output());
  });

  it('comes back after a SIGKILL, stopping the PostgreSQL it left behind', async () => {
    first.child.kill('SIGKILL');
    await first.exited;
    assert.ok(isAlive(firstPostgres), 'a SIGKILL leaves the embedded PostgreSQL running');

    const third = await start();
    await waitReady(third);
    assert.match(third.output(), new RegExp(`stopping PostgreSQL pid ${firstPostgres}`));
    assert.equal(isAlive(firstPostgres), false);
    const res = await fetch(`http://127.0.0.1:${third.port}/api/v1/listings?limit=1`);
    const listings = (await res.json()) as { data: { listings: unknown[] } };
    assert.equal(res.status, 200);
    assert.equal(listings.data.listings.length, 1, 'the data seeded before the SIGKILL is there');

    const postgres = postmasterPid(dataDir)!;
    third.child.kill('SIGTERM');
    const stoppedIn = await waitGone(postgres, 5000);
    assert.ok(stoppedIn !== undefined, `PostgreSQL still runs 5 s after SIGTERM:\n${third.output()}`);
    assert.equal(await third.exited, 0, third.output());
    assert.deepEqual(errorLines(third.output()), [], 'a clean stop logs no error');
    assert.match(third.output(), /shutting down/);
  });
});
