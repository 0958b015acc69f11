import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { createTestApp, show, type TestContext } from '../helpers/app.js';
import { freePort, waitFor } from '../helpers/community.js';

/** A redis-server of the test's own on a free port (never the shared one), stopped and started again. */
function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => { if (chunk.toString().includes('Ready to accept connections')) resolve(child); });
    child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('Redis outage', () => {
  let port: number;
  let redis: ChildProcess;
  let t: TestContext;
  const legends = '/api/v1/legends/0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
  const verify = () => t.app.inject({ method: 'POST', url: '/api/v1/verification/email', payload: { token: 'not-a-token' }, remoteAddress: '10.0.0.7' });

  before(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  after(async () => {
    await t?.close();
    await stopRedis(redis);
  });

  it('uses Redis for the cache and the rate limits while it runs', async () => {
    assert.equal(t.container.redis?.ready, true);
    assert.equal((await t.app.inject({ method: 'GET', url: legends })).statusCode, 200);
    assert.notEqual((await verify()).statusCode, 429);
    const peek = new Redis(`redis://127.0.0.1:${port}`);
    try {
      const keys = await peek.keys(`${t.config.redisPrefix}*`);
      assert.ok(keys.some((k) => k.includes('cache:')), keys.join());
      assert.ok(keys.some((k) => k.includes('rl:')), keys.join());
    } finally {
      peek.disconnect();
    }
  });

  it('Redis stopped: requests go on with the in-process cache and rate limits', async () => {
    await stopRedis(redis);
    await waitFor('the app to notice', () => t.container.redis?.ready === false, 5000);
    const page = await t.app.inject({ method: 'GET', url: legends });
    assert.equal(page.statusCode, 200, show(page));
    const answers: number[] = [];
    for (let i = 0; i < 31; i++) answers.push((await verify()).statusCode);
    assert.ok(!answers.slice(0, 30).includes(429), answers.join());
    assert.ok(!answers.some((s) => s >= 500), answers.join());
    assert.equal(answers[30], 429, 'the 31st request of the minute is limited in-process');
  });

  it('Redis back: the app reconnects and counts in Redis again', async () => {
    redis = await startRedis(port);
    await waitFor('reconnection', () => t.container.redis?.ready === true, 15_000);
    assert.equal((await t.app.inject({ method: 'GET', url: legends })).statusCode, 200);
    assert.notEqual((await verify()).statusCode, 429, 'the in-process counts of the outage do not carry over');
    const peek = new Redis(`redis://127.0.0.1:${port}`);
    try {
      const keys = await peek.keys(`${t.config.redisPrefix}*`);
      assert.ok(keys.some((k) => k.includes('rl:')), keys.join());
    } finally {
      peek.disconnect();
    }
  });
});
