import type { Cache } from '../infra/cache.js';
import { AppError } from '../errors.js';

/** Seconds a fresh answer stays in the shared response cache (the interface's "15 s" tier). */
export const RESPONSE_CACHE_SECONDS = 15;
/** Seconds the empty answer for a name that is not in the database is kept. */
export const UNKNOWN_NAME_CACHE_SECONDS = 300;

export type CacheState = 'HIT' | 'MISS';

/** Why an answer is the empty one: the name is not in the database, or the provider failed. */
export type EmptyReason = 'unknown_name' | 'provider_failed';

export interface Tiered<T> {
  data: T;
  /** `X-Cache`: HIT when served from a cache, MISS when computed for this request. */
  cache: CacheState;
  /** Seconds a client may keep the answer; undefined for answers that must not be cached. */
  maxAgeSeconds: number | undefined;
  /** Set when `data` is the empty answer for a reason other than the provider having nothing. */
  emptyReason?: EmptyReason;
}

interface Entry<T> {
  data: T;
  expiresAt: number;
  emptyReason?: EmptyReason;
}

/**
 * The 401 of a cache miss without a signed-in caller, saying how to get past it: once a signed-in
 * caller has filled the cache, everyone gets the answer.
 */
export function notCachedYet(what: string): AppError {
  return new AppError('UNAUTHORIZED', `Not cached yet: sign in to ${what}`, {
    reason: 'not_cached',
    signIn: 'GET /api/v1/auth/nonce, sign the EIP-4361 message, POST /api/v1/auth/verify, then repeat this request with Authorization: Bearer <accessToken>',
    afterwards: 'the answer is cached and served to every caller, signed in or not',
  });
}

export interface TieredSource<T> {
  /** Shared-cache key, namespaced by the caller. */
  key: string;
  /** The database tier: the stored answer when there is one that has not expired. */
  readStored(): Promise<{ value: T } | undefined>;
  /** Whether the name asked about is in the database; absent when the question names no name (related search). */
  nameExists?(): Promise<boolean>;
  /** The answer for an unknown name and for a failed fetch. */
  empty: T;
  /** Fetching or generating needs a signed-in caller (interface, Authentication rule 2). */
  signedIn: boolean;
  /** What signing in lets the caller do, for the 401 of a miss (default "fetch it"). */
  missAction?: string;
  /** Fetches or generates, then stores in the database tier; throws `failure` errors on provider failure. */
  fetchAndStore(): Promise<T>;
  /** Which errors are provider failures (answered with `empty`, not cached) rather than bugs. */
  isFailure(e: unknown): boolean;
}

/**
 * The scenario table shared by keyword metrics, recommendations and related search:
 * cache hit → the cached answer for anyone; unknown name → empty, cached 5 minutes; miss without
 * a signed-in caller → 401; miss with one → fetched, stored, returned; provider failure → empty,
 * cached nowhere. Concurrent misses for one key in this process share one fetch.
 */
export async function tieredLookup<T>(cache: Cache, flights: SingleFlight, source: TieredSource<T>): Promise<Tiered<T>> {
  const now = Date.now();
  const shared = await cache.get<Entry<T>>(source.key);
  if (shared !== undefined && shared.expiresAt > now) {
    return { data: shared.data, cache: 'HIT', maxAgeSeconds: Math.max(1, Math.ceil((shared.expiresAt - now) / 1000)), emptyReason: shared.emptyReason };
  }
  const remember = async (data: T, seconds: number, emptyReason?: EmptyReason) => {
    await cache.set(source.key, { data, expiresAt: Date.now() + seconds * 1000, emptyReason } satisfies Entry<T>, seconds);
  };

  const stored = await source.readStored();
  if (stored) {
    await remember(stored.value, RESPONSE_CACHE_SECONDS);
    return { data: stored.value, cache: 'HIT', maxAgeSeconds: RESPONSE_CACHE_SECONDS };
  }
  if (source.nameExists && !(await source.nameExists())) {
    await remember(source.empty, UNKNOWN_NAME_CACHE_SECONDS, 'unknown_name');
    return { data: source.empty, cache: 'MISS', maxAgeSeconds: UNKNOWN_NAME_CACHE_SECONDS, emptyReason: 'unknown_name' };
  }
  if (!source.signedIn) throw notCachedYet(source.missAction ?? 'fetch it');

  try {
    const data = await flights.run(source.key, () => source.fetchAndStore());
    await remember(data, RESPONSE_CACHE_SECONDS);
    return { data, cache: 'MISS', maxAgeSeconds: RESPONSE_CACHE_SECONDS };
  } catch (e) {
    if (!source.isFailure(e)) throw e;
    return { data: source.empty, cache: 'MISS', maxAgeSeconds: undefined, emptyReason: 'provider_failed' };
  }
}

/** Runs `work` once per key at a time; concurrent callers share its result (one model call, not ten). */
export class SingleFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const current = this.running.get(key) as Promise<T> | undefined;
    if (current) return current;
    const started = work().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}
