import fp from 'fastify-plugin';
import type { preValidationAsyncHookHandler } from 'fastify';
import { AppError } from '../errors.js';
import './types.js';

/**
 * One rule for every route with a query schema: a parameter it does not declare is 400
 * VALIDATION_ERROR naming it (`details.field: query.<name>`), the answer search gives for an
 * unknown filter. Ajv alone would drop or ignore it, and a misspelt filter would silently widen a
 * result. Routes without a query schema take no parameters and are left alone.
 */
export const strictQueryPlugin = fp(async (app) => {
  /** The check of one route, over the names its query schema declares. */
  const checkOf = (keys: ReadonlySet<string>): preValidationAsyncHookHandler => async (request) => {
    for (const key of Object.keys(request.query as Record<string, unknown>)) {
      if (!keys.has(key)) throw new AppError('VALIDATION_ERROR', `query.${key} is not a known parameter`, { field: `query.${key}` });
    }
  };
  app.addHook('onRoute', (route) => {
    const props = (route.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (!props) return;
    // ahead of the route's own hooks; registered before route-contract, whose guard goes first of all
    route.preValidation = [checkOf(new Set(Object.keys(props))), ...[route.preValidation ?? []].flat()];
  });
}, { name: 'strict-query' });
