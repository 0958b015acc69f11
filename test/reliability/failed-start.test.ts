// test: self-contained (its own embedded PostgreSQL and service processes; DATABASE_URL and REDIS_URL do not reach them)
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/community.js';
import { isAlive, postmasterPid, removeDataDir, startServer, type ServerProcess } from './helpers/server-process.js';

/** A start that cannot work prints one line naming the cause and the fix, and leaves nothing running. */
describe('failed starts', () => {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'ensm-failed-start-')), 'data');
  const started: ServerProcess[] = [];
  const start = (port: number, pgPort: number) => {
    const server = startServer(port, { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) });
    started.push(server);
    return server;
  };
  after(async () => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(started.map((s) => s.exited));
    removeDataDir(dataDir);
  });

  it('a start that cannot listen names the cause in one line and leaves nothing running', async () => {
    const blocker: Server = createServer((socket) => socket.destroy());
    const blocked = await freePort();
    await new Promise<void>((resolve) => blocker.listen(blocked, '127.0.0.1', resolve));
    const failures = (server: ServerProcess) => server.output().trim().split('\n').filter((l) => !l.startsWith('{'));
    try {
      const pgBusy = await start(await freePort(), blocked);
      assert.equal(await pgBusy.exited, 1, pgBusy.output());
      assert.equal(failures(pgBusy).length, 1, pgBusy.output());
      assert.match(failures(pgBusy)[0]!, new RegExp(`Start-up failed: .*127\\.0\\.0\\.1:${blocked}.*EMBEDDED_PG_PORT`));

      const httpBusy = start(blocked, await freePort());
      assert.equal(await httpBusy.exited, 1, httpBusy.output());
      assert.equal(failures(httpBusy).length, 1, httpBusy.output());
      assert.match(failures(httpBusy)[0]!, /Start-up failed: .*EADDRINUSE.*set PORT/);
      for (const server of [pgBusy, httpBusy]) assert.doesNotMatch(server.output(), /undefined/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const postgres = postmasterPid(dataDir);
    assert.ok(postgres === undefined || !isAlive(postgres), 'no PostgreSQL left after a failed start');
  });
});
