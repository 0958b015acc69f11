import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cached, MemoryCache } from '../../src/infra/cache.js';

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
});
