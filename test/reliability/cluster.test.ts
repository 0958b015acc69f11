// test: self-contained (its own embedded PostgreSQL and service processes; DATABASE_URL and REDIS_URL do not reach them)
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../helpers/community.js';
import { isAlive, postmasterPid, removeDataDir, startServer, waitGone, waitReady, type ServerProcess } from './helpers/server-process.js';

/** A GET on a connection of its own (no keep-alive pool that may hold a socket of a dead worker): its status. */
function statusOf(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpGet({ host: '127.0.0.1', port, path, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: no answer within 5 s`)));
    req.on('error', reject);
  });
}

/** The pids that answered requests, read from the service's request log lines. */
function servingPids(output: string): Set<number> {
  const pids = new Set<number>();
  for (const line of output.split('\n')) {
    if (!line.includes('"request completed"')) continue;
    try {
      pids.add((JSON.parse(line) as { pid: number }).pid);
    } catch {
      // not a log line
    }
  }
  return pids;
}

function workerPids(primary: number): number[] {
  try {
    return readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8').trim().split(/\s+/).map(Number)
      .filter((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node');
  } catch {
    return [];
  }
}

/**
 * WEB_CONCURRENCY=2 on the embedded defaults: the primary keeps the embedded PostgreSQL (and the
 * jobs) and two HTTP workers share the port; a dead worker is replaced; SIGTERM stops them all.
 */
describe('several HTTP workers (WEB_CONCURRENCY)', { timeout: 180_000 }, () => {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'ensm-cluster-')), 'data');
  let server: ServerProcess;
  after(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
    await server?.exited;
    const stale = postmasterPid(dataDir);
    if (stale !== undefined && isAlive(stale)) process.kill(stale, 'SIGINT');
    removeDataDir(dataDir);
  });

  it('serves from two workers over the primary\'s embedded PostgreSQL', async () => {
    server = startServer(await freePort(), { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), WEB_CONCURRENCY: '2' });
    await waitReady(server);
    for (let waited = 0; waited < 90_000 && !server.output().includes('with 2 HTTP workers'); waited += 200) await sleep(200);
    assert.match(server.output(), /ENS market API on http:\/\/localhost:\d+ with 2 HTTP workers/);
    for (let i = 0; i < 40; i++) {
      assert.equal(await statusOf(server.port, '/api/v1/listings'), 200);
    }
    const workers = workerPids(server.child.pid!);
    assert.equal(workers.length, 2, server.output());
    const serving = servingPids(server.output());
    assert.deepEqual([...serving].sort(), [...workers].sort(), 'both workers answer, the primary does not');
  });

  it('replaces a worker that dies, and keeps answering meanwhile', async () => {
    const [victim] = workerPids(server.child.pid!);
    process.kill(victim!, 'SIGKILL');
    await waitGone(victim!, 5000);
    // Until the primary has seen the exit it may still hand a connection to the dead worker (that
    // one is reset or never answered); from then on the other worker answers.
    for (let waited = 0; waited < 30_000 && !server.output().includes('HTTP worker died'); waited += 100) await sleep(100);
    let status = 0;
    for (let tries = 0; tries < 20 && status !== 200; tries++) status = await statusOf(server.port, '/health').catch(() => 0);
    assert.equal(status, 200);
    for (let waited = 0; waited < 90_000 && !(workerPids(server.child.pid!).length === 2 && !workerPids(server.child.pid!).includes(victim!)); waited += 200) await sleep(200);
    const now = workerPids(server.child.pid!);
    assert.equal(now.length, 2, server.output());
    assert.ok(!now.includes(victim!));
    assert.match(server.output(), /HTTP worker died: starting another/);
  });

  it('SIGTERM to the primary stops the workers and PostgreSQL within 5 s', async () => {
    const workers = workerPids(server.child.pid!);
    const postgres = postmasterPid(dataDir)!;
    server.child.kill('SIGTERM');
    await server.exited;
    for (const pid of [...workers, postgres]) assert.notEqual(await waitGone(pid, 5000), undefined, `pid ${pid} still runs`);
  });
});
