import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Container } from './container.js';
import { parseQueryString } from './lib/querystring.js';
import { authPlugin } from './plugins/auth.js';
import { corsPlugin } from './plugins/cors.js';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.js';
import { httpPlugin } from './plugins/http.js';
import { metricsPlugin } from './plugins/metrics.js';
import { openapiPlugin } from './plugins/openapi.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { responseCachePlugin } from './plugins/response-cache.js';
import { routeContractPlugin } from './plugins/route-contract.js';
import { lazySchemaCompilers } from './plugins/schema-compilers.js';
import { isUint256 } from './lib/wei.js';
import { strictQueryPlugin } from './plugins/strict-query.js';
import { healthRoutes } from './routes/health.routes.js';
import { v1Routes } from './routes/v1/index.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What browsers may send: every method and request header the API reads. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const CORS_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id'];

export type App = FastifyInstance;

/** Builds the HTTP app on a ready container. The caller listens (server.ts) or injects (tests). */
export async function buildApp(container: Container): Promise<App> {
  const { config } = container;
  const compilers = lazySchemaCompilers();
  const app = Fastify({
    loggerInstance: container.logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // format `uint256`: amounts above 2^256 − 1 are refused
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false, formats: { uint256: isUint256 } } },
    // responses are not validated; the serializer's own validator only needs to know the format exists
    serializerOpts: { ajv: { formats: { uint256: true } } },
    schemaController: { compilersFactory: compilers.compilersFactory },
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500, querystringParser: parseQueryString },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', container);
  app.decorate('compileSchemas', compilers.compileAll);

  await app.register(errorsPlugin);
  // Each adds its input check ahead of a route's own hooks: the contract's guard runs first, then the query's names.
  await app.register(strictQueryPlugin);
  await app.register(routeContractPlugin);
  await app.register(httpPlugin);
  await app.register(corsPlugin, {
    origins: config.corsOrigins,
    methods: CORS_METHODS,
    headers: CORS_HEADERS,
    exposed: ['x-request-id', 'x-cache', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    maxAgeSeconds: 600,
  });
  await app.register(metricsPlugin);
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  await app.register(responseCachePlugin, { enabled: config.responseCache });
  await app.register(openapiPlugin);

  await app.register(healthRoutes);
  // The web app checks health under the API prefix: same handlers, same answers.
  await app.register(healthRoutes, { prefix: '/api/v1' });
  await app.register(v1Routes, { prefix: '/api/v1' });

  await app.ready();
  return app;
}
