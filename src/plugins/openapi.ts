import fp from 'fastify-plugin';
import type { TSchema } from 'typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_VERSION } from '../lib/envelope.js';
import { glossedForReference } from '../contracts/glossary.js';
import { OPERATIONS } from '../contracts/operations.js';

/** `/openapi.json` and the browsable reference at `/docs`, both generated from the route schemas. */
export const openapiPlugin = fp(async (app) => {
  // Names from the one table (operationId, success response); the route's own, when it gives them, win.
  app.addHook('onRoute', (route) => {
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    const named = OPERATIONS[`${[route.method].flat()[0]} ${route.url}`];
    if (!named) return;
    const [operationId, success] = named;
    // Fields a schema leaves undescribed get the glossary's words (one meaning per field name).
    const gloss = (schema: unknown) => (schema && typeof schema === 'object' ? glossedForReference(schema as TSchema) : schema);
    const response: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries((route.schema.response ?? {}) as Record<string, unknown>)) {
      const words = gloss(schema) as { description?: string } | undefined;
      response[status] = status.startsWith('2') && words && !words.description ? { ...words, description: success } : words;
    }
    const { body, querystring, params } = route.schema as { body?: unknown; querystring?: unknown; params?: unknown };
    route.schema = {
      operationId, ...route.schema, response,
      ...(body ? { body: gloss(body) } : {}), ...(querystring ? { querystring: gloss(querystring) } : {}), ...(params ? { params: gloss(params) } : {}),
    } as typeof route.schema;
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ENS Name Marketplace API',
        version: API_VERSION,
        description: [
          'HTTP + JSON interface of a marketplace for ENS names.',
          '',
          'Success responses: `{success: true, data, meta: {timestamp, version}}`.',
          'Errors: `{success: false, error: {code, message, details?}, meta: {timestamp, version}}`;',
          'match on `error.code`. Amounts are wei in decimal strings; timestamps ISO 8601 UTC;',
          'addresses `0x` + 40 hex (any case accepted, returned lower-case).',
          '',
          'Sign in with Ethereum: `GET /api/v1/auth/nonce`, sign an EIP-4361 message, `POST /api/v1/auth/verify`,',
          'then send `Authorization: Bearer <accessToken>`.',
        ].join('\n'),
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { docExpansion: 'list', deepLinking: true } });
}, { name: 'openapi' });
