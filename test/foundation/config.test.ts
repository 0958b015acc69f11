import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { scriptArgs } from '../helpers/scripts.js';
import { loadConfig } from '../../src/config.js';

const run = promisify(execFile);

async function start(env: Record<string, string>) {
  try {
    await run(process.execPath, scriptArgs('src/server.ts'), { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 });
    return { code: 0, stderr: '' };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
}

describe('configuration', () => {
  for (const [variable, value] of [['PORT', 'eighty'], ['DATABASE_URL', 'mysql://x'], ['JWT_SECRET', 'short'], ['CHAIN_ID', '0'], ['SEAPORT_ADDRESS', '0x123']]) {
    it(`a wrong ${variable} stops start-up with one line naming it`, async () => {
      const { code, stderr } = await start({ [variable]: value, DATA_DIR: '/tmp/ensm-config-test' });
      assert.equal(code, 1);
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0], new RegExp(`^Invalid configuration: ${variable} `));
    });
  }

  it('shares the default pool of 20 connections among the HTTP workers, at least 5 each; DB_POOL_MAX is each process\'s', () => {
    const poolOf = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).dbPoolMax;
    assert.equal(poolOf({}), 20);
    assert.equal(poolOf({ WEB_CONCURRENCY: '2' }), 10);
    assert.equal(poolOf({ WEB_CONCURRENCY: '3' }), 7);
    assert.equal(poolOf({ WEB_CONCURRENCY: '8' }), 5);
    assert.equal(poolOf({ WEB_CONCURRENCY: '2', DB_POOL_MAX: '20' }), 20);
  });
});
