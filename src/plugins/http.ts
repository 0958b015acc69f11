import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { jsonNesting, MAX_JSON_NESTING } from '../lib/nesting.js';
import './types.js';

/**
 * Request plumbing: request id echoed in `X-Request-Id`, Cache-Control from route config,
 * and a JSON parser that treats an empty body as no body (real clients send
 * `Content-Type: application/json` on GET and DELETE too).
 */
export const httpPlugin = fp(async (app) => {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNesting(text, MAX_JSON_NESTING) > MAX_JSON_NESTING) {
      done(new AppError('VALIDATION_ERROR', `Body nests deeper than ${MAX_JSON_NESTING} levels`, { field: 'body' }), undefined);
      return;
    }
    void defaultJson(request, text, done);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    if (!reply.hasHeader('cache-control')) {
      const seconds = request.routeOptions.config?.cacheSeconds;
      const cacheable = request.method === 'GET' && reply.statusCode === 200 && seconds !== undefined;
      reply.header('cache-control', cacheable ? `public, max-age=${seconds}` : 'no-store');
    }
    return payload;
  });
}, { name: 'http' });
