import { Type, type TSchema } from 'typebox';
import { ADDRESS_PATTERN } from '../lib/address.js';
import { WEI_PATTERN } from '../lib/wei.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';

/** Shared schema primitives; every route builds on these so a field is described once. */
export const Address = Type.String({ pattern: ADDRESS_PATTERN, description: '0x followed by 40 hex characters', examples: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'] });
export const Wei = Type.String({ pattern: WEI_PATTERN, format: 'uint256', description: 'amount in wei, decimal string, at most 2^256 − 1', examples: ['1000000000000000000'] });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
export const EnsNameParam = Type.String({ minLength: 1, maxLength: 255, description: 'ENS name, with or without .eth', examples: ['vitalik.eth'] });
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
export const IdParams = Type.Object({ id: Id });
export const Page = Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1, description: 'page number, from 1' });
export const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'items per page, 1 to 100' });
export const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' });

export const Meta = Type.Object({ timestamp: Timestamp, version: Type.String() });

/** Style B pagination, inside `data`. */
export const PaginationB = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
  hasNext: Type.Boolean(),
  hasPrev: Type.Boolean(),
});

/** Style A pagination, beside `data`. */
export const PaginationA = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  pages: Type.Integer(),
});

export function Envelope<D extends TSchema>(data: D): ReturnType<typeof envelopeOf<D, typeof Meta>>;
export function Envelope<D extends TSchema, M extends TSchema>(data: D, meta: M): ReturnType<typeof envelopeOf<D, M>>;
export function Envelope(data: TSchema, meta: TSchema = Meta) {
  return envelopeOf(data, meta);
}

function envelopeOf<D extends TSchema, M extends TSchema>(data: D, meta: M) {
  return Type.Object({ success: Type.Literal(true), data, meta });
}

export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: 'stable error code; match on this, not on the message' }),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
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
  for (const [status, list] of byStatus) out[status] = { ...ErrorBody, description: [...new Set(list)].join(', ') };
  return out;
}
