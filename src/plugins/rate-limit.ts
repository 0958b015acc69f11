import { createRequire } from 'node:module';
import fp from 'fastify-plugin';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { AppError } from '../errors.js';
import type { RedisLink } from '../infra/redis.js';

type StoreParts = new (continueExceeding: boolean, exponentialBackoff: boolean, arg?: unknown, key?: string) => FastifyRateLimitStore;
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreParts;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreParts;

/** Counts in Redis while it answers, in this process while it does not (see RedisLink). */
function fallbackStore(link: RedisLink, nameSpace: string): FastifyRateLimitStoreCtor {
  class FallbackStore implements FastifyRateLimitStore {
    constructor(private readonly shared: FastifyRateLimitStore, private readonly local: FastifyRateLimitStore) {}

    incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
      if (!link.ready) return this.local.incr(key, callback, timeWindow, max);
      this.shared.incr(key, (err, result) => {
        if (!err) return callback(null, result);
        link.lost(err);
        this.local.incr(key, callback, timeWindow, max);
      }, timeWindow, max);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }
  return class extends FallbackStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = params.continueExceeding ?? false;
      const exponentialBackoff = params.exponentialBackoff ?? false;
      super(new RedisStore(continueExceeding, exponentialBackoff, link.redis, nameSpace), new LocalStore(continueExceeding, exponentialBackoff));
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

function windowOf(options: { timeWindow?: unknown } | false | undefined): string {
  const window = options ? options.timeWindow : undefined;
  if (typeof window === 'string') return window;
  if (typeof window === 'number') return window % 60_000 === 0 ? `${window / 60_000} minute(s)` : `${window / 1000} second(s)`;
  return 'window';
}

/**
 * Per-IP limits, opted into per route with `config: { rateLimit: { max, timeWindow } }`.
 * Counters live in Redis when REDIS_URL is set, so every instance counts against one budget,
 * and in this process while Redis is away.
 */
export const rateLimitPlugin = fp(async (app) => {
  await app.register(rateLimit, {
    global: false,
    ...(app.deps.redis ? { store: fallbackStore(app.deps.redis, `${app.deps.config.redisPrefix}rl:`) } : {}),
    keyGenerator: (request) => request.ip,
    // `context.after` is the time left until the window resets, not the window: name the route's own window
    errorResponseBuilder: (request, context) =>
      new AppError('RATE_LIMITED', `Rate limit of ${context.max} requests per ${windowOf(request.routeOptions.config.rateLimit)} exceeded; retry in ${context.after}`, { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });
}, { name: 'rate-limit' });
