import fp from 'fastify-plugin';

export interface CorsOptions {
  /** Origins whose pages may call the API; `true`: any origin. */
  origins: readonly string[] | true;
  methods: readonly string[];
  headers: readonly string[];
  exposed: readonly string[];
  maxAgeSeconds: number;
}

/**
 * CORS for browsers: an allowed `Origin` is echoed in `Access-Control-Allow-Origin` with the
 * headers a page may read, and every answer says `Vary: Origin` (an answer depends on it). A
 * preflight (`OPTIONS` on any path) answers 204 with the methods and request headers the API
 * reads, for 10 minutes. Bearer tokens, not cookies: no credentialed requests, so none allowed.
 *
 * What @fastify/cors did with our options, with each header built once: it spread its options
 * and joined the header lists on every request, about a tenth of a `/health` request.
 */
export const corsPlugin = fp<CorsOptions>(async (app, options) => {
  const listed = options.origins === true ? undefined : new Set(options.origins);
  const exposed = options.exposed.join(', ');
  const preflight = {
    'access-control-allow-methods': options.methods.join(', '),
    'access-control-allow-headers': options.headers.join(', '),
    'access-control-max-age': String(options.maxAgeSeconds),
  };

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin !== undefined && (listed === undefined || listed.has(origin))) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', exposed);
    }
    done();
  });

  // No route of the API answers OPTIONS itself: every one is a preflight.
  app.options('*', { schema: { hide: true } }, (_request, reply) => {
    reply.headers(preflight).code(204).send();
  });
}, { name: 'cors' });
