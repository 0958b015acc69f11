import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { API_VERSION } from '../lib/envelope.js';
import { pingSearchIndex } from '../search/index-health.js';

const CHECK_TIMEOUT_MS = 2000;

const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  checks: Type.Object({ database: Type.Boolean(), search_index: Type.Boolean() }),
  timestamp: Type.String({ format: 'date-time' }),
});

/** Resolves true when `check` finishes within the timeout, false on any failure. */
async function probe(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    schema: {
      tags: ['health'],
      summary: 'Liveness',
      description: 'Not enveloped. No authentication, no cache.',
      response: { 200: Type.Object({ status: Type.Literal('healthy'), timestamp: Type.String({ format: 'date-time' }), version: Type.String() }) },
    },
  }, async () => ({ status: 'healthy' as const, timestamp: new Date().toISOString(), version: API_VERSION }));

  app.get('/health/ready', {
    schema: {
      tags: ['health'],
      summary: 'Readiness: database and search index reachable',
      description: 'Not enveloped. 503 with the same shape when a check fails.',
      response: { 200: Readiness, 503: { ...Readiness, description: 'Not ready: a check failed (false)' } },
    },
  }, async (_request, reply) => {
    const { pool } = app.deps;
    const [database, searchIndex] = await Promise.all([
      probe(() => pool.query('SELECT 1')),
      probe(() => pingSearchIndex(pool, CHECK_TIMEOUT_MS)),
    ]);
    const ready = database && searchIndex;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? ('ready' as const) : ('not ready' as const),
      checks: { database, search_index: searchIndex },
      timestamp: new Date().toISOString(),
    });
  });
};
