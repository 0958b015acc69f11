import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { jsonNesting, MAX_JSON_NESTING } from '../lib/nesting.js';
import './types.js';

/**
 * The headers @fastify/helmet sent with our options (no CSP, resources shareable cross-origin),
 * as constants: helmet builds them per request through a middleware chain, a third of the cost
 * of a /health request.
 */
const SECURITY_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
} as const;

/**
 * Request plumbing: security headers, request id echoed in `X-Request-Id`, Cache-Control from route config,
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

  // Sync hooks (done callbacks): an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) {
      const seconds = request.routeOptions.config?.cacheSeconds;
      const cacheable = request.method === 'GET' && reply.statusCode === 200 && seconds !== undefined;
      reply.header('cache-control', cacheable ? `public, max-age=${seconds}` : 'no-store');
    }
    done(null, payload);
  });
}, { name: 'http' });
