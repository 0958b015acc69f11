import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_VERSION } from '../lib/envelope.js';
import { OPERATIONS } from '../contracts/operations.js';

/** `/openapi.json` and the browsable reference at `/docs`, both generated from the route schemas. */
export const openapiPlugin = fp(async (app) => {
  // Names from the one table (operationId, success response); the route's own, when it gives them, win.
  app.addHook('onRoute', (route) => {
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    const named = OPERATIONS[`${[route.method].flat()[0]} ${route.url}`];
    if (!named) return;
    const [operationId, success] = named;
    const response: Record<string, unknown> = { ...(route.schema.response as Record<string, unknown> | undefined) };
    for (const [status, schema] of Object.entries(response)) {
      if (status.startsWith('2') && schema && typeof schema === 'object' && !(schema as { description?: string }).description) response[status] = { ...schema, description: success };
    }
    route.schema = { operationId, ...route.schema, response } as typeof route.schema;
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
