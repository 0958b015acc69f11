import fp from 'fastify-plugin';
import type { FastifySchema, preValidationAsyncHookHandler, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { AppError, type ErrorCode } from '../errors.js';
import { errors } from '../contracts/common.js';
import type { RouteEntry } from './types.js';

/**
 * What every route's contract gets without saying it, in one place so no route can forget:
 * request schemas bounded (an unbounded integer reaches PostgreSQL as an out-of-range value and
 * fails there as a 500), every string free of NUL (PostgreSQL refuses it in text and jsonb), and
 * the error statuses any route can answer declared in its OpenAPI entry with the envelope schema.
 */

/** Bounds for request integers and strings whose schema states none. */
export const INPUT_BOUNDS = { minInteger: -2_147_483_648, maxInteger: 2_147_483_647, maxStringLength: 4096 } as const;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['examples', 'default', 'const', 'enum', 'description']);

type Json = Record<string, unknown>;

/** A copy of a request schema with every integer and string bounded (TypeBox's hidden keys kept). */
export function boundedSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(boundedSchema) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.create(Object.getPrototypeOf(schema) as object, Object.getOwnPropertyDescriptors(schema)) as Json;
  for (const [key, value] of Object.entries(copy)) if (!DATA_KEYWORDS.has(key)) copy[key] = boundedSchema(value);
  if (copy.type === 'integer') {
    if (copy.maximum === undefined && copy.exclusiveMaximum === undefined) copy.maximum = INPUT_BOUNDS.maxInteger;
    if (copy.minimum === undefined && copy.exclusiveMinimum === undefined) copy.minimum = INPUT_BOUNDS.minInteger;
  }
  if (copy.type === 'string' && copy.maxLength === undefined) copy.maxLength = INPUT_BOUNDS.maxStringLength;
  return copy as T;
}

/** The error codes a route can answer whatever its handler does, from its shape and config. */
export function commonErrorCodes(route: Pick<RouteOptions, 'method' | 'schema' | 'config'>): ErrorCode[] {
  const methods = [route.method].flat();
  const takesBody = methods.some((m) => BODY_METHODS.has(m));
  const schema = route.schema ?? {};
  const codes: ErrorCode[] = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
  if (takesBody || schema.querystring || schema.params || schema.body || schema.headers) codes.push(route.config?.inputError ?? 'VALIDATION_ERROR');
  if (takesBody) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  // a path parameter that does not route (an encoded slash, a bad escape) ends in the not-found handler
  if (schema.params) codes.push('NOT_FOUND', 'URI_TOO_LONG');
  const auth = route.config?.auth ?? 'none';
  if (auth !== 'none') codes.push('UNAUTHORIZED');
  if (route.config?.rateLimit) codes.push('RATE_LIMITED');
  return codes;
}

/** The route's schema with bounded input and every common error status declared (the route's own declarations win). */
export function withContract(route: Pick<RouteOptions, 'method' | 'schema' | 'config'>): FastifySchema {
  const schema = { ...route.schema } as FastifySchema & { response?: Record<string, TSchema> };
  for (const part of ['params', 'querystring', 'body', 'headers'] as const) {
    if (schema[part] !== undefined) schema[part] = boundedSchema(schema[part]);
  }
  const response: Record<string, unknown> = { ...schema.response };
  for (const [status, body] of Object.entries(errors(...commonErrorCodes(route)))) response[status] ??= body;
  schema.response = response as Record<string, TSchema>;
  return schema;
}

/** Where a NUL character hides in a request part (a value or a key), as a field path; undefined when nowhere. */
export function nulField(path: string, value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    // An index loop, and a path only where it may be returned: 10,000 bulk terms are 10,000 strings to check.
    for (let i = 0; i < value.length; i++) {
      const inner: unknown = value[i];
      if (typeof inner === 'string' ? !inner.includes('\u0000') : inner === null || typeof inner !== 'object') continue;
      const found = nulField(`${path}.${i}`, inner);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return path;
    const found = nulField(`${path}.${key}`, inner);
    if (found) return found;
  }
  return undefined;
}

/** The names of a schema's properties (an object schema's), or undefined. */
function propertyNames(schema: unknown): string[] | undefined {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : undefined;
}

const DECIMAL = /^-?[0-9]{1,300}(\.[0-9]{1,300})?$/;

interface PropertySchema { type?: unknown; anyOf?: PropertySchema[]; items?: PropertySchema; properties?: Record<string, PropertySchema> }

/** Where in a value a number is not a plain decimal (a path under `path`), or undefined. */
type NumberCheck = (value: unknown, path: string) => string | undefined;

const notDecimal = (v: unknown) => (typeof v === 'string' && !DECIMAL.test(v)) || (typeof v === 'number' && !Number.isFinite(v));

/**
 * The check of every number a value of `schema` holds, at any depth: a number field, alone or as a
 * member of a union (`number | null`), the items of an array (`ids: number[]`), and the fields of
 * objects within (`items: [{ensNameId, cartType}]`); undefined when the schema holds none. The
 * validator coerces a string such as `Infinity` or `1e400` to a number and then skips its bounds
 * for a non-finite one, so such a value is refused here, before it reaches a query.
 */
function numberCheck(schema: PropertySchema | undefined, depth = 0): NumberCheck | undefined {
  if (schema === undefined || depth > 10) return undefined;
  if (schema.type === 'integer' || schema.type === 'number' || (schema.anyOf ?? []).some((s) => s.type === 'integer' || s.type === 'number')) {
    return (value, path) => ([value].flat().some(notDecimal) ? path : undefined);
  }
  const inner = [...(schema.anyOf ?? []), ...(schema.type === undefined || schema.type === 'object' || schema.type === 'array' ? [schema] : [])];
  const items = inner.flatMap((s) => s.items ?? []).map((s) => numberCheck(s, depth + 1)).filter((c): c is NumberCheck => c !== undefined);
  const fields = inner.flatMap((s) => Object.entries(s.properties ?? {}))
    .flatMap(([key, s]) => { const check = numberCheck(s, depth + 1); return check ? [[key, check] as const] : []; });
  if (items.length === 0 && fields.length === 0) return undefined;
  const first = (checks: readonly NumberCheck[], value: unknown, path: string) => {
    for (const check of checks) {
      const found = check(value, path);
      if (found) return found;
    }
    return undefined;
  };
  return (value, path) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        const found = first(items, item, `${path}.${i}`);
        if (found) return found;
      }
      return undefined;
    }
    // the validator makes a lone value a one-item array (`ids: "Infinity"`)
    if (value === null || typeof value !== 'object') return first(items, value, path);
    for (const [key, check] of fields) {
      const found = check((value as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  };
}

/**
 * The input check of a route with `schema`, its schema's fields read once: no NUL in the path
 * parameters, the declared query fields (the validator drops the others) or the body; number
 * fields plain decimals.
 */
function inputGuard(schema: FastifySchema | undefined): preValidationAsyncHookHandler {
  const queryFields = propertyNames(schema?.querystring);
  const numeric = { params: numberCheck(schema?.params as PropertySchema), query: numberCheck(schema?.querystring as PropertySchema), body: numberCheck(schema?.body as PropertySchema) };
  const nulInQuery = (query: unknown): string | undefined => {
    if (!queryFields || query === null || typeof query !== 'object') return undefined;
    for (const key of queryFields) {
      const found = nulField(`query.${key}`, (query as Record<string, unknown>)[key]);
      if (found) return found;
    }
    return undefined;
  };
  return async (request) => {
    const field = nulField('params', request.params) ?? nulInQuery(request.query) ?? nulField('body', request.body);
    if (field) throw new AppError(request.routeOptions.config.inputError ?? 'VALIDATION_ERROR', `${field} must not contain NUL characters`, { field });
    const number = numeric.params?.(request.params, 'params') ?? numeric.query?.(request.query, 'query') ?? numeric.body?.(request.body, 'body');
    if (number) throw new AppError('VALIDATION_ERROR', `${number} must be a decimal number`, { field: number });
  };
}

export const routeContractPlugin = fp(async (app) => {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url: route.url, auth: route.config?.auth ?? 'none' });
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    route.schema = withContract(route);
  });

  // One guard rather than a pattern per string: it also covers free-form JSON (orders, variables).
  // On every route that takes input (path parameters, a declared query, or a body: what Fastify
  // parses one for), first of its hooks: the route's own see only input that passed it.
  app.addHook('onRoute', (route) => {
    const takesBody = [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD');
    if (!takesBody && !/[:*]/.test(route.url) && !route.schema?.querystring) return;
    route.preValidation = [inputGuard(route.schema), ...[route.preValidation ?? []].flat()];
  });
}, { name: 'route-contract' });
