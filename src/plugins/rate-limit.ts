import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../errors.js';

function windowOf(options: { timeWindow?: unknown } | false | undefined): string {
  const window = options ? options.timeWindow : undefined;
  if (typeof window === 'string') return window;
  if (typeof window === 'number') return window % 60_000 === 0 ? `${window / 60_000} minute(s)` : `${window / 1000} second(s)`;
  return 'window';
}

/**
 * Per-IP limits, opted into per route with `config: { rateLimit: { max, timeWindow } }`.
 * Counters live in Redis when REDIS_URL is set, so every instance counts against one budget.
 */
export const rateLimitPlugin = fp(async (app) => {
  await app.register(rateLimit, {
    global: false,
    ...(app.deps.redis ? { redis: app.deps.redis, nameSpace: `${app.deps.config.redisPrefix}rl:` } : {}),
    keyGenerator: (request) => request.ip,
    // `context.after` is the time left until the window resets, not the window: name the route's own window
    errorResponseBuilder: (request, context) =>
      new AppError('RATE_LIMITED', `Rate limit of ${context.max} requests per ${windowOf(request.routeOptions.config.rateLimit)} exceeded; retry in ${context.after}`, { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });
}, { name: 'rate-limit' });
