import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cached, cachedStale, MemoryCache } from '../../src/infra/cache.js';

/** `cached`: requests that miss one key together share one computation (no stampede on expiry). */
describe('cached', () => {
  const later = <T>(value: T, ms = 20) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it('concurrent misses of a key compute once; each caller gets its own copy', async () => {
    const cache = new MemoryCache();
    let computed = 0;
    const compute = () => { computed += 1; return later({ ids: [1, 2, 3] }); };
    const answers = await Promise.all(Array.from({ length: 50 }, () => cached(cache, 'k', 30, compute)));
    assert.equal(computed, 1);
    for (const a of answers) assert.deepEqual(a, { ids: [1, 2, 3] });
    answers[1]!.ids.push(4);
    assert.deepEqual(answers[2], { ids: [1, 2, 3] });
    assert.deepEqual(await cached(cache, 'k', 30, compute), { ids: [1, 2, 3] });
    assert.equal(computed, 1);
    // another key is its own computation
    assert.deepEqual(await cached(cache, 'other', 30, () => later({ ids: [] })), { ids: [] });
  });

  it('a failed computation fails its waiters, stores nothing, and the next miss computes again', async () => {
    const cache = new MemoryCache();
    let calls = 0;
    const failing = async () => { calls += 1; await later(null); throw new Error('provider down'); };
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => cached(cache, 'f', 30, failing)));
    assert.equal(calls, 1);
    assert.ok(results.every((r) => r.status === 'rejected' && (r.reason as Error).message === 'provider down'));
    assert.equal(await cache.get('f'), undefined);
    assert.equal(await cached(cache, 'f', 30, async () => 'back'), 'back');
  });

  it('cachedStale: an old value answers at once while one recount runs, then the new value; gone, it waits', async () => {
    const cache = new MemoryCache();
    let calls = 0;
    let release: (() => void) | undefined;
    const count = (value: number, gated = false) => async () => {
      calls += 1;
      if (gated) await new Promise<void>((resolve) => { release = resolve; });
      return value;
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const aging = (compute: () => Promise<number>) => cachedStale(cache, 'n', 0.3, 2, compute);
    // fresh for 0.3 s, then answered 2 s more while recounted (room for a busy machine's pauses)
    assert.equal(await aging(count(10)), 10);
    assert.equal(await aging(count(99)), 10, 'fresh: no recount');
    assert.equal(calls, 1);
    await sleep(350);
    // old: every request answers 10 without waiting; one recount runs for all of them
    const during = await Promise.all(Array.from({ length: 20 }, () => aging(count(20, true))));
    assert.deepEqual(new Set(during), new Set([10]));
    assert.equal(calls, 2);
    release!();
    await sleep(10);
    assert.equal(await aging(count(30)), 20, 'the recount landed');
    assert.equal(calls, 2);
    // a failed recount keeps the old value; the next request past freshness tries again
    await sleep(350);
    assert.equal(await aging(async () => { calls += 1; throw new Error('database down'); }), 20);
    await sleep(10);
    assert.equal(await aging(count(40)), 20);
    await sleep(10);
    assert.equal(await aging(count(50)), 40);
    assert.equal(calls, 4);
    // past both periods the value is gone: the request computes, and a failure is its own
    await sleep(2_400);
    await assert.rejects(aging(async () => { throw new Error('still down'); }), /still down/);
    assert.equal(await aging(count(60)), 60);
  });
});
