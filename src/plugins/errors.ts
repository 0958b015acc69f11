import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/client.js';
import { AppError, type ErrorCode } from '../errors.js';
import { meta } from '../lib/envelope.js';

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

function fieldOf(context: string | undefined, issue: ValidationIssue | undefined): string {
  const where = context === 'querystring' ? 'query' : context ?? 'request';
  if (!issue) return where;
  const path = issue.instancePath.split('/').filter(Boolean);
  const params = issue.params as Record<string, unknown>;
  if (typeof params.missingProperty === 'string') path.push(params.missingProperty);
  if (typeof params.additionalProperty === 'string') path.push(params.additionalProperty);
  return [where, ...path].join('.');
}

/**
 * A union of literals (sort keys, periods…) fails as one `const` issue per literal, an `enum` as
 * one issue carrying the list; report the allowed values instead of the validator's wording.
 */
function allowedValues(issues: ValidationIssue[], first: ValidationIssue | undefined): unknown[] | undefined {
  if (first?.keyword === 'enum') {
    const list = (first.params as { allowedValues?: unknown[] }).allowedValues;
    return Array.isArray(list) && list.length > 0 ? list : undefined;
  }
  if (first?.keyword !== 'const') return undefined;
  const allowed = issues
    .filter((i) => i.keyword === 'const' && i.instancePath === first.instancePath)
    .map((i) => (i.params as { allowedValue?: unknown }).allowedValue)
    .filter((v) => v !== undefined);
  return allowed.length > 0 ? allowed : undefined;
}

const BY_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE', 414: 'URI_TOO_LONG', 415: 'UNSUPPORTED_MEDIA_TYPE', 431: 'HEADERS_TOO_LARGE',
};

/** Maps anything thrown to our code catalogue. Unknown errors become INTERNAL_ERROR. */
function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError;
  if (fe.validation) {
    const issue = fe.validation[0];
    const field = fieldOf(fe.validationContext, issue);
    const allowed = allowedValues(fe.validation, issue);
    const text = allowed ? `must be one of ${allowed.map(String).join(', ')}` : issue?.message ?? 'is invalid';
    return new AppError('VALIDATION_ERROR', `${field} ${text}`, {
      field,
      ...(allowed ? { allowed } : {}),
      issues: fe.validation.map((i) => ({ field: fieldOf(fe.validationContext, i), message: i.message })),
    });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('VALIDATION_ERROR', 'Body is not valid JSON', { field: 'body' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type; send application/json');
    case 'FST_ERR_BAD_URL':
      return new AppError('VALIDATION_ERROR', 'The URL is not valid (bad percent-encoding)', { field: 'url' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('URI_TOO_LONG', 'A path parameter is too long', { field: 'params' });
    default:
      break;
  }
  if (fe.statusCode === 429) return new AppError('RATE_LIMITED', fe.message);
  if (fe.statusCode !== undefined && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code = BY_STATUS[fe.statusCode];
    return code ? new AppError(code, fe.message) : new AppError('VALIDATION_ERROR', fe.message, { field: 'request' });
  }
  if (isDatabaseUnavailable(error)) return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly');
  return new AppError('INTERNAL_ERROR');
}

export function errorBody(error: AppError) {
  return {
    success: false as const,
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    meta: meta(),
  };
}

/** One error handler for the whole app: the envelope, never a stack trace or a 5xx's internals. */
export const errorsPlugin = fp(async (app) => {
  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.statusCode >= 500) {
      request.log.error({ err: error, reqId: request.id }, 'request failed');
    } else {
      request.log.info({ code: appError.code, reqId: request.id }, appError.message);
    }
    if (appError.code === 'RATE_LIMITED') {
      const retryAfter = reply.getHeader('retry-after');
      const seconds = appError.details?.retryAfterSeconds;
      if (retryAfter === undefined) reply.header('retry-after', typeof seconds === 'number' && seconds > 0 ? String(seconds) : '60');
    }
    return reply.code(appError.statusCode).header('cache-control', 'no-store').send(errorBody(appError));
  });

  app.setNotFoundHandler(async (request, reply) => {
    return reply.code(404).send(errorBody(new AppError('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`)));
  });
}, { name: 'errors' });

/**
 * Fastify's `frameworkErrors`: a URL that cannot be decoded or a path parameter over
 * `maxParamLength` is refused before routing, so the error handler never sees it.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(error);
  request.log.info({ code: appError.code, reqId: request.id }, appError.message);
  void reply.code(appError.statusCode).header('cache-control', 'no-store').send(errorBody(appError));
}

/**
 * Fastify's `clientErrorHandler` (the server's `clientError` event): what Node's HTTP parser
 * refuses (headers over the limit, a malformed request line, a slow request) never becomes a
 * request, so the envelope is written on the socket by hand.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST';
  const appError = new AppError(code, code === 'BAD_REQUEST' ? 'Malformed HTTP request' : undefined);
  this.log.debug({ err: error, code }, 'client error');
  if (socket.writable) {
    const json = JSON.stringify(errorBody(appError));
    socket.write(
      `HTTP/1.1 ${appError.statusCode} ${STATUS_CODES[appError.statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}
