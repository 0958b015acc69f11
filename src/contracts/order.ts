import type { preValidationAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../errors.js';
import { Address } from './common.js';

/** A uint256 as seaport-js sends it: decimal, or 0x hex (salts often are). */
const Uint = Type.String({ pattern: '^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$', format: 'uint256', description: 'uint256 as a decimal or 0x-hex string' });
const Bytes32 = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' });

const Item = {
  itemType: Type.Integer({ minimum: 0, maximum: 5, description: '0 ETH, 1 ERC-20, 2 ERC-721, 3 ERC-1155' }),
  token: Address,
  identifierOrCriteria: Uint,
  startAmount: Uint,
  endAmount: Uint,
};

export const OrderComponentsSchema = Type.Object({
  offerer: Address,
  zone: Address,
  offer: Type.Array(Type.Object(Item), { minItems: 1, maxItems: 16 }),
  consideration: Type.Array(Type.Object({ ...Item, recipient: Address }), { minItems: 1, maxItems: 16 }),
  orderType: Type.Integer({ minimum: 0, maximum: 4 }),
  startTime: Uint,
  endTime: Uint,
  zoneHash: Bytes32,
  salt: Uint,
  conduitKey: Bytes32,
  counter: Uint,
}, { description: 'Seaport 1.6 OrderComponents (seaport-js form, with counter)' });

export const SignedOrder = Type.Object({
  parameters: OrderComponentsSchema,
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]{128,}$', maxLength: 4096, description: 'EIP-712 signature of the order by its offerer (65 or 64 bytes; EIP-1271 when ETH_RPC_URL is set)' }),
});

/** `order_data` as stored: `{parameters, signature}` of the signed order, normalised (lower-case addresses, decimal numbers). */
export const OrderData = Type.Object({}, { additionalProperties: true, description: 'the signed Seaport order: {parameters, signature}' });

export const Source = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$', description: 'origin of the order, default grails' });
export const OrderHash = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' });

/** A request without a body (or `null`) is read as `{}`, so the route decides what "nothing" means. */
export const emptyBodyAsObject: preValidationAsyncHookHandler = async (request) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/**
 * Body fields that must arrive as JSON strings. The validator coerces numbers to strings, and a
 * JSON number above 2^53 has already lost digits by then: for amounts that is the wrong money.
 */
export function jsonStrings(...fields: string[]): preValidationAsyncHookHandler {
  return async (request) => {
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    for (const field of fields) {
      const value = (body as Record<string, unknown>)[field];
      if (value !== undefined && typeof value !== 'string') {
        throw new AppError('VALIDATION_ERROR', `body.${field} must be a string`, { field: `body.${field}` });
      }
    }
  };
}
