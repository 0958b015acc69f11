import fp from 'fastify-plugin';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../errors.js';
import { verifyAccessToken, type AuthUser } from '../services/tokens.js';
import './types.js';

/**
 * The one place authentication is enforced. Each route declares `config.auth`; a missing token
 * on a required route, or a bad token on a required or optional route, is 401. Registered before
 * the routes (and after the rate limit, whose hooks it goes ahead of).
 */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('user', null);

  /** Only on routes that read a token (one hook per level): the others (most reads, /health) pay no hook for it. */
  const authenticateAt = (level: 'required' | 'optional'): onRequestAsyncHookHandler => async (request) => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      if (level === 'required') throw new AppError('UNAUTHORIZED', 'Authentication required');
      return;
    }
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/.exec(header);
    const user = match ? await verifyAccessToken(app.deps.config, match[1]) : undefined;
    if (!user) throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
    request.user = user;
  };
  const authenticate = { required: authenticateAt('required'), optional: authenticateAt('optional') };

  app.addHook('onRoute', (route) => {
    const level = route.config?.auth ?? 'none';
    if (level === 'none') return;
    // First of the route's own hooks: a caller without a valid token is refused before a rate limit counts it.
    route.onRequest = [authenticate[level], ...[route.onRequest ?? []].flat()];
    // The OpenAPI document shows which routes take a bearer token; `{}` marks it optional.
    if (!route.schema) return;
    const security = level === 'optional' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }];
    route.schema = { ...route.schema, security } as typeof route.schema;
  });
}, { name: 'auth' });

/** The caller on a required-auth route (the hook has already refused anonymous requests). */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}
