import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { RedisLink } from './redis.js';

/**
 * The shared response cache: an in-process LRU by default, Redis when REDIS_URL is set so that
 * several instances share entries. Values are JSON; a caller never gets another caller's object.
 */
export interface Cache {
  readonly kind: 'memory' | 'redis';
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Deletes every key that starts with the prefix. */
  delPrefix(prefix: string): Promise<void>;
}

/** Computations under way, by cache and key: the requests that miss one key together share one. */
const computing = new WeakMap<Cache, Map<string, Promise<unknown>>>();

/**
 * Returns the cached value for `key`, or computes, stores and returns it. Requests of this
 * process that miss the same key while it is being computed wait for that computation (and get
 * its result or its error) instead of each starting its own: an expired ranking asked by a
 * hundred requests at once is computed once, not a hundred times over a busy database.
 */
export async function cached<T>(cache: Cache, key: string, ttlSeconds: number, compute: () => Promise<T>): Promise<T> {
  const hit = await cache.get<T>(key);
  if (hit !== undefined) return hit;
  return once(cache, key, async () => {
    const value = await compute();
    await cache.set(key, value, ttlSeconds);
    return value;
  });
}

/** `run` for `key`, or, while one runs, a copy of its outcome (as a hit gives: no caller gets another caller's object). */
function once<T>(cache: Cache, key: string, run: () => Promise<T>): Promise<T> {
  let running = computing.get(cache);
  if (!running) computing.set(cache, (running = new Map()));
  const current = running.get(key) as Promise<T> | undefined;
  if (current) return current.then((v) => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T)));
  const started = run().finally(() => running.delete(key));
  running.set(key, started);
  return started;
}

/** A value of `cachedStale` and the time (ms since the epoch) until which it is fresh. */
interface Aging<T> { value: T; freshUntil: number }

/**
 * Like `cached`, for figures a reader is told are approximate (counts, totals): past its
 * `freshSeconds` a value is still answered for `staleSeconds` more while one recount runs beside
 * the request that found it old, so no request waits for a recount that the last value can stand
 * in for (a capped count of a club's names: 250 ms at a million names, every 15 s per filter set).
 * A failed recount keeps the old value until the next request tries again; past both periods the
 * value is gone and the next request computes it as `cached` does, failures included. Not for
 * answers whose cache duration the interface fixes.
 */
export async function cachedStale<T>(cache: Cache, key: string, freshSeconds: number, staleSeconds: number, compute: () => Promise<T>): Promise<T> {
  const held = await heldStale(cache, key, freshSeconds, staleSeconds, compute);
  return held !== undefined ? held : (await recountAging(cache, key, freshSeconds, staleSeconds, compute)).value;
}

/**
 * The value `cachedStale` holds for `key`, fresh or old (an old one starts the recount, as
 * `cachedStale` does), in one read of the cache; undefined when it holds none.
 */
export async function heldStale<T>(cache: Cache, key: string, freshSeconds: number, staleSeconds: number, compute: () => Promise<T>): Promise<T | undefined> {
  const hit = await cache.get<Aging<T>>(agingKeyOf(key));
  if (hit === undefined) return undefined;
  // the old value stands meanwhile, also when the recount fails (the next request tries again)
  if (hit.freshUntil <= Date.now()) recountAging(cache, key, freshSeconds, staleSeconds, compute).catch(() => undefined);
  return hit.value;
}

/** Computes and stores `key`'s value with its freshness; one computation at a time per key in this process. */
function recountAging<T>(cache: Cache, key: string, freshSeconds: number, staleSeconds: number, compute: () => Promise<T>): Promise<Aging<T>> {
  const agingKey = agingKeyOf(key);
  return once(cache, agingKey, async () => {
    const aging: Aging<T> = { value: await compute(), freshUntil: Date.now() + freshSeconds * 1000 };
    await cache.set(agingKey, aging, freshSeconds + staleSeconds);
    return aging;
  });
}

const agingKeyOf = (key: string) => `aging:${key}`;

export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  private readonly lru: LRUCache<string, string>;

  constructor(maxEntries = 10_000, maxBytes = 64 * 1024 * 1024) {
    this.lru = new LRUCache({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (v) => v.length || 1 });
  }

  async get<T>(key: string): Promise<T | undefined> {
    const raw = this.lru.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    this.lru.set(key, JSON.stringify(value), { ttl: ttlSeconds * 1000 });
  }

  async del(key: string): Promise<void> {
    this.lru.delete(key);
  }

  async delPrefix(prefix: string): Promise<void> {
    for (const key of this.lru.keys()) if (key.startsWith(prefix)) this.lru.delete(key);
  }
}

export class RedisCache implements Cache {
  readonly kind = 'redis' as const;

  constructor(private readonly redis: Redis, private readonly namespace = 'ensm:cache:') {}

  async get<T>(key: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.namespace + key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.namespace + key, JSON.stringify(value), 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async del(key: string): Promise<void> {
    await this.redis.del(this.namespace + key);
  }

  async delPrefix(prefix: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.namespace}${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}

/**
 * Redis while it answers, an in-process LRU while it does not. The local entries start empty at
 * each outage; when Redis is back its entries of this namespace are dropped, since deletions
 * made during the outage never reached them.
 */
export class FallbackCache implements Cache {
  readonly kind = 'redis' as const;
  private readonly shared: RedisCache;
  private local = new MemoryCache();

  constructor(private readonly link: RedisLink, namespace: string) {
    this.shared = new RedisCache(link.redis, namespace);
    link.watch(() => (this.local = new MemoryCache()), () => this.shared.delPrefix(''));
  }

  private async either<T>(shared: (c: Cache) => Promise<T>): Promise<T> {
    if (!this.link.ready) return shared(this.local);
    try {
      return await shared(this.shared);
    } catch (err) {
      this.link.lost(err as Error);
      return shared(this.local);
    }
  }

  get<T>(key: string): Promise<T | undefined> {
    return this.either((c) => c.get<T>(key));
  }

  set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    return this.either((c) => c.set(key, value, ttlSeconds));
  }

  del(key: string): Promise<void> {
    return this.either((c) => c.del(key));
  }

  delPrefix(prefix: string): Promise<void> {
    return this.either((c) => c.delPrefix(prefix));
  }
}
