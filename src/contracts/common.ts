import { Type, type Static, type TSchema } from 'typebox';
import { ADDRESS_PATTERN } from '../lib/address.js';
import { WEI_PATTERN } from '../lib/wei.js';
import { RAW_JSON, type RawJson } from '../lib/raw-json.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';

/** Shared schema primitives; every route builds on these so a field is described once. */
export const Address = Type.String({ pattern: ADDRESS_PATTERN, description: '0x followed by 40 hex characters', examples: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'] });
export const Wei = Type.String({ pattern: WEI_PATTERN, format: 'uint256', description: 'amount in wei, decimal string, at most 2^256 − 1', examples: ['1000000000000000000'] });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC', examples: ['2026-11-22T19:30:00.000Z'] });
/**
 * A timestamp or null, as one type list rather than a union: the serializer picks a union's member
 * by validating the value against each (a date-time check per field, about 0.4 µs), a type list by
 * its type alone. Same values, same OpenAPI 3.1 meaning.
 */
export const NullableTimestamp = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', description: 'ISO 8601, UTC; null when unknown', examples: ['2026-11-22T19:30:00.000Z'] });
export const EnsNameParam = Type.String({ minLength: 1, maxLength: 255, description: 'ENS name, with or without .eth', examples: ['vitalik.eth'] });
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'identifier', examples: [42] });
export const IdParams = Type.Object({ id: Id });
export const Page = Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1, description: 'page number, from 1' });
export const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'items per page, 1 to 100' });
export const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc', description: 'sort direction' });
export const ApiVersion = Type.String({ description: 'API version', examples: ['1.0.0'] });

/**
 * A value of `schema` that the service may hand over as the JSON text PostgreSQL wrote (a RawJson:
 * the rows of a page, db/json-rows.ts), which the response writes as it is (lib/raw-json.ts).
 * The OpenAPI document shows `schema`; the tests check such text against it.
 */
export const asJsonText = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | RawJson>({ ...schema, [RAW_JSON]: true });

/** A copy of `schema` with its own description (and example): one primitive, described where it is used. */
export function described<T extends TSchema>(description: string, schema: T, example?: unknown): T {
  return { ...schema, description, ...(example === undefined ? {} : { examples: [example] }) };
}

export const Meta = Type.Object(
  { timestamp: described('when the response was made (ISO 8601, UTC)', Timestamp), version: ApiVersion },
  { description: 'about the response: time and API version' },
);

/** Style B pagination, inside `data`. */
export const PaginationB = Type.Object({
  page: Type.Integer({ description: 'this page, from 1', examples: [1] }),
  limit: Type.Integer({ description: 'items per page', examples: [20] }),
  total: Type.Integer({ description: 'items in all pages', examples: [954] }),
  totalPages: Type.Integer({ description: 'number of pages', examples: [48] }),
  hasNext: Type.Boolean({ description: 'whether a later page exists' }),
  hasPrev: Type.Boolean({ description: 'whether an earlier page exists' }),
}, { description: 'paging (style B)' });

/** Style A pagination, beside `data`. */
export const PaginationA = Type.Object({
  page: Type.Integer({ description: 'this page, from 1', examples: [1] }),
  limit: Type.Integer({ description: 'items per page', examples: [20] }),
  total: Type.Integer({ description: 'items in all pages', examples: [478] }),
  pages: Type.Integer({ description: 'number of pages', examples: [24] }),
}, { description: 'paging (style A)' });

export function Envelope<D extends TSchema>(data: D): ReturnType<typeof envelopeOf<D, typeof Meta>>;
export function Envelope<D extends TSchema, M extends TSchema>(data: D, meta: M): ReturnType<typeof envelopeOf<D, M>>;
export function Envelope(data: TSchema, meta: TSchema = Meta) {
  return envelopeOf(data, meta);
}

const Success = Type.Literal(true, { description: 'true on success' });

function envelopeOf<D extends TSchema, M extends TSchema>(data: D, meta: M) {
  return Type.Object({
    success: Success,
    data: { ...data, description: (data as { description?: string }).description ?? 'the answer' } as D,
    meta: { ...meta, description: (meta as { description?: string }).description ?? 'about the response: time and API version' } as M,
  });
}

export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false, { description: 'false on failure' }),
    error: Type.Object({
      code: Type.String({ description: 'stable error code; match on this, not on the message', examples: ['VALIDATION_ERROR'] }),
      message: Type.String({ description: 'what went wrong, for people', examples: ['query.limit must be <= 100'] }),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown(), {
        description: 'more about the failure: `field` (the request field at fault), `allowed` (the accepted values), and per code what was expected',
        examples: [{ field: 'query.limit' }],
      })),
    }, { description: 'the failure' }),
    meta: Meta,
  },
  { title: 'Error' },
);

/**
 * Response schemas for the error codes a route documents, grouped by status:
 * `errors('NO_UPDATES', 'UNAUTHORIZED')` → `{400: Error, 401: Error}` with the codes in the description.
 */
export function errors(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'INTERNAL_ERROR' as const]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    const unique = [...new Set(list)];
    out[status] = { ...ErrorBody, description: unique.join(', '), examples: [errorExample(unique[0])] };
  }
  return out;
}

/** A realistic error body for the reference. */
function errorExample(code: ErrorCode) {
  const details = ERROR_STATUS[code] === 400 ? { field: code === 'VALIDATION_ERROR' ? 'query.limit' : 'body' } : undefined;
  return {
    success: false,
    error: { code, message: ERROR_EXAMPLE_MESSAGES[code] ?? code.toLowerCase().replace(/_/g, ' '), ...(details ? { details } : {}) },
    meta: { timestamp: '2026-11-22T19:30:00.000Z', version: '1.0.0' },
  };
}

const ERROR_EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'query.limit must be <= 100',
  UNAUTHORIZED: 'Authentication required',
  FORBIDDEN: 'You are not allowed to do this',
  RATE_LIMITED: 'Too many requests, slow down',
  INTERNAL_ERROR: 'Internal server error',
};

/** An order's currency as a client shows it, beside its `currency_address` (spread into every order schema). */
export const CurrencyFields = {
  currency_symbol: Type.Union([Type.String({ description: 'symbol of the currency (ETH, WETH, USDC); null for a currency the service does not know', examples: ['ETH'] }), Type.Null()]),
  currency_decimals: Type.Union([Type.Integer({ description: 'decimals of the currency: the amount is in units of 10^-decimals (18 for ETH and WETH, 6 for USDC)', examples: [18] }), Type.Null()]),
};
