import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../errors.js';

/**
 * Per-IP limits, opted into per route with `config: { rateLimit: { max, timeWindow } }`.
 * Counters live in Redis when REDIS_URL is set, so every instance counts against one budget.
 */
export const rateLimitPlugin = fp(async (app) => {
  await app.register(rateLimit, {
    global: false,
    ...(app.deps.redis ? { redis: app.deps.redis, nameSpace: `${app.deps.config.redisPrefix}rl:` } : {}),
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Rate limit of ${context.max} requests per ${context.after} exceeded`, { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });
}, { name: 'rate-limit' });
