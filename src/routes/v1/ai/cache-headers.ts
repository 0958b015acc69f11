import type { FastifyReply } from 'fastify';
import type { CacheState } from '../../../search/tiered.js';

/**
 * `X-Cache` and `Cache-Control` of the cached AI and metrics answers: public for answers any
 * caller may get, private for answers holding the caller's own data, no-store for failures.
 */
export function setCacheHeaders(reply: FastifyReply, state: CacheState, maxAgeSeconds: number | undefined, scope: 'public' | 'private' = 'public'): void {
  reply.header('x-cache', state);
  reply.header('cache-control', maxAgeSeconds === undefined ? 'no-store' : `${scope}, max-age=${maxAgeSeconds}`);
}
