import type { preValidationAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../errors.js';
import { RAW_JSON, type RawJson } from '../lib/raw-json.js';
import { Address, described } from './common.js';

/**
 * A real order for the reference: demo account 0 lists coffee.eth (registrar token id =
 * labelhash("coffee")) for 0.5 ETH, signed with its key; `ORDER_EXAMPLE_HASH` is its order hash.
 */
export const ORDER_EXAMPLE = {
  'parameters': {
    'offerer': '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    'zone': '0x0000000000000000000000000000000000000000',
    'orderType': 0,
    'startTime': '1795368000',
    'endTime': '1797960000',
    'zoneHash': '0x0000000000000000000000000000000000000000000000000000000000000000',
    'salt': '24446860302761739304752683030156737591518664810215442929812183727491190151168',
    'conduitKey': '0x0000000000000000000000000000000000000000000000000000000000000000',
    'counter': '0',
    'offer': [
      {
        'itemType': 2,
        'token': '0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85',
        'identifierOrCriteria': '47745988384822878386125752626008226207894757330973631232045716595533468831285',
        'startAmount': '1',
        'endAmount': '1'
      }
    ],
    'consideration': [
      {
        'itemType': 0,
        'token': '0x0000000000000000000000000000000000000000',
        'identifierOrCriteria': '0',
        'startAmount': '500000000000000000',
        'endAmount': '500000000000000000',
        'recipient': '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
      }
    ]
  },
  'signature': '0x75b24ea01b989fec91e9b7ef95ab3813c7bf4503ed1244224c670ea748c8a4e7300dbf706caf5e56559ab4bf10cdc823267167cd9b6d8d3ce06b38e65a6c56a81b'
} as const;
export const ORDER_EXAMPLE_HASH = '0x67b3f0b5ca2b1f1133862c96cad5251134f1ff9b59d6b4ca1bbffa6bbb8b2fda';

/** A real offer for the reference: demo account 1 offers 0.4 WETH for coffee.eth, signed with its key. */
export const OFFER_EXAMPLE = {
  'parameters': {
    'offerer': '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    'zone': '0x0000000000000000000000000000000000000000',
    'orderType': 0,
    'startTime': '1795368000',
    'endTime': '1797960000',
    'zoneHash': '0x0000000000000000000000000000000000000000000000000000000000000000',
    'salt': '24446860302761739304752683030156737591518664810215442929812183727491190151169',
    'conduitKey': '0x0000000000000000000000000000000000000000000000000000000000000000',
    'counter': '0',
    'offer': [
      {
        'itemType': 1,
        'token': '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
        'identifierOrCriteria': '0',
        'startAmount': '400000000000000000',
        'endAmount': '400000000000000000'
      }
    ],
    'consideration': [
      {
        'itemType': 2,
        'token': '0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85',
        'identifierOrCriteria': '47745988384822878386125752626008226207894757330973631232045716595533468831285',
        'startAmount': '1',
        'endAmount': '1',
        'recipient': '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
      }
    ]
  },
  'signature': '0xf2b81ec1c9263b96833491a881d8a6e32de4c1cc018a86d9d5fd63e827724a52760d3703c20c75c54904d533b5aae39d40027bc631220f33516b03212dbef97c1c'
} as const;
export const OFFER_EXAMPLE_HASH = '0x2c338669899ebee458261f6c6352dcd51a1eac6e8445f06011f4e6b43fd0e1a5';

/** A uint256 as seaport-js sends it: decimal, or 0x hex (salts often are). */
const Uint = Type.String({ pattern: '^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$', format: 'uint256', description: 'uint256 as a decimal or 0x-hex string' });
const Bytes32 = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', examples: ['0x0000000000000000000000000000000000000000000000000000000000000000'] });
const P = ORDER_EXAMPLE.parameters;

const Item = {
  itemType: Type.Integer({ minimum: 0, maximum: 5, description: '0 ETH, 1 ERC-20, 2 ERC-721, 3 ERC-1155' }),
  token: described('the token contract; the zero address for ETH', Address, P.offer[0].token),
  identifierOrCriteria: described('token id (a name: labelhash for the registrar, namehash for the NameWrapper); 0 for currencies', Uint, P.offer[0].identifierOrCriteria),
  startAmount: described('amount at the start (1 for a name, wei for a currency)', Uint, '1'),
  endAmount: described('amount at the end; equal to startAmount', Uint, '1'),
};

export const OrderComponentsSchema = Type.Object({
  offerer: described('who signs and gives the offer items: the seller of a listing, the buyer of an offer', Address, P.offerer),
  zone: described('Seaport zone; the zero address', Address, P.zone),
  offer: Type.Array(Type.Object(Item), { minItems: 1, maxItems: 16, description: 'what the offerer gives: the name token (listing) or the currency amount (offer)' }),
  consideration: Type.Array(Type.Object({ ...Item, recipient: described('who receives the item', Address, P.offerer) }), { minItems: 1, maxItems: 16, description: 'what the offerer asks for, and for whom' }),
  orderType: Type.Integer({ minimum: 0, maximum: 4, description: 'Seaport order type; 0 (full open)', examples: [0] }),
  startTime: described('Unix seconds from which the order can be filled', Uint, P.startTime),
  endTime: described('Unix seconds at which the order ends', Uint, P.endTime),
  zoneHash: described('zone data; zero', Bytes32),
  salt: described('random uint256 that makes the order unique', Uint, P.salt),
  conduitKey: described('conduit key; zero for Seaport itself (then Seaport is the spender to approve)', Bytes32),
  counter: described("the offerer's Seaport counter (getCounter); raising it on chain voids every older order", Uint, P.counter),
}, { description: 'Seaport 1.6 OrderComponents (seaport-js form, with counter)' });

export const SignedOrder = Type.Object({
  parameters: OrderComponentsSchema,
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]{128,}$', maxLength: 4096, description: 'EIP-712 signature of the order by its offerer (65 or 64 bytes; EIP-1271 when ETH_RPC_URL is set)', examples: [ORDER_EXAMPLE.signature] }),
}, { description: 'the signed Seaport 1.6 order', examples: [ORDER_EXAMPLE] });

/**
 * `order_data` as stored: `{parameters, signature}` of the signed order, normalised (lower-case
 * addresses, decimal numbers). A page may give it as the stored JSON text (RawJson), which the
 * response writes as it is.
 */
export const storedOrder = (example: object, description = 'the signed Seaport order: {parameters, signature}') => Type.Unsafe<Record<string, unknown> | RawJson>(
  Type.Object({}, { additionalProperties: true, description, examples: [example], [RAW_JSON]: true }),
);
export const OrderData = storedOrder(ORDER_EXAMPLE);
export const OfferOrderData = storedOrder(OFFER_EXAMPLE);

export const Source = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$', description: 'origin of the order, default grails', examples: ['grails'] });
export const OrderHash = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: "the order hash (Seaport's getOrderHash), computed by the service", examples: [ORDER_EXAMPLE_HASH] });

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

function badField(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}`, { field });
}

/**
 * The original's clients send `order_data` as a JSON string: parsed here, before validation, so
 * the schema checks the order inside. `price_wei` must arrive as a JSON string (see jsonStrings).
 * `list` names the array of orders in a bulk body.
 */
export function orderDataStrings(list?: string): preValidationAsyncHookHandler {
  return async (request) => {
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    const items = list === undefined ? [['body', body]] : Array.isArray((body as Record<string, unknown>)[list])
      ? ((body as Record<string, unknown[]>)[list]).map((item, i) => [`body.${list}.${i}`, item] as const)
      : [];
    for (const [path, item] of items) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const o = item as Record<string, unknown>;
      if (o.price_wei !== undefined && typeof o.price_wei !== 'string') throw badField(`${path}.price_wei`, 'must be a string');
      if (typeof o.order_data !== 'string') continue;
      try {
        o.order_data = JSON.parse(o.order_data);
      } catch {
        throw badField(`${path}.order_data`, 'must be the signed order as an object or as a JSON string of one');
      }
    }
  };
}
