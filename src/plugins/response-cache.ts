import fp from 'fastify-plugin';
import type { onRequestAsyncHookHandler, onSendHookHandler } from 'fastify';
import { LRUCache } from 'lru-cache';
import './types.js';

interface Stored {
  /** as the route's serializer wrote it: a string, or the bytes of an answer with raw JSON (lib/raw-json.ts) */
  payload: string | Buffer;
  contentType: string;
  expiresAt: number;
}

/** Bytes of payload the cache holds at most (a string's characters, a buffer's bytes). */
const MAX_BYTES = 24 * 1024 * 1024;

/**
 * The server side of a route's declared cache duration (`config.cacheSeconds`: "Cache 15 s",
 * "Cache 12 h"): an anonymous GET's 200 answer is kept, serialized, for that long in this process
 * and sent again as is to the next anonymous GET of the same URL, with `X-Cache: HIT` and the
 * seconds it has left in `Cache-Control`. A route answers at most as old as its `Cache-Control`
 * already allows any client or proxy to keep it, and a hit costs no query and no serialization.
 * Left alone: requests with an Authorization header (optional-auth routes answer per caller),
 * answers other than 200, and routes that set `X-Cache` themselves (the database-backed tiers of
 * keyword metrics, recommendations and related search). Each worker process keeps its own copy.
 */
export const responseCachePlugin = fp<{ enabled: boolean }>(async (app, { enabled }) => {
  if (!enabled) return;
  const lru = new LRUCache<string, Stored>({ max: 5_000, maxSize: MAX_BYTES, sizeCalculation: (v) => v.payload.length + v.contentType.length });

  app.addHook('onRoute', (route) => {
    const seconds = route.config?.cacheSeconds;
    if (seconds === undefined || ![route.method].flat().includes('GET')) return;

    const serve: onRequestAsyncHookHandler = async (request, reply) => {
      if (request.method !== 'GET' || request.headers.authorization !== undefined) return;
      const hit = lru.get(request.url);
      if (!hit) return;
      const left = Math.ceil((hit.expiresAt - Date.now()) / 1000);
      if (left <= 0) return;
      reply.header('content-type', hit.contentType).header('x-cache', 'HIT').header('cache-control', `public, max-age=${left}`);
      await reply.send(hit.payload);
      return reply;
    };
    const keep: onSendHookHandler = (request, reply, payload, done) => {
      if (request.method === 'GET' && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload)) && request.headers.authorization === undefined
        && !reply.hasHeader('x-cache')) {
        lru.set(request.url, { payload, contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'), expiresAt: Date.now() + seconds * 1000 }, { ttl: seconds * 1000 });
        reply.header('x-cache', 'MISS');
      }
      done(null, payload);
    };
    route.onRequest = [...[route.onRequest ?? []].flat(), serve];
    route.onSend = [...[route.onSend ?? []].flat(), keep];
  });
}, { name: 'response-cache' });
