import { Type, type Static } from 'typebox';
import { Address, described, Wei } from './common.js';
import { Listing } from './listings.js';
import { Offer } from './offers.js';
import { ORDER_EXAMPLE, ORDER_EXAMPLE_HASH, OrderComponentsSchema, OrderHash, SignedOrder, Source } from './order.js';

/** The reference's `/orders` routes: one body for a listing or an offer, snake_case as its clients send it. */

const TOKEN_EXAMPLE = ORDER_EXAMPLE.parameters.offer[0].identifierOrCriteria;
export const TokenId = Type.String({
  pattern: '^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$',
  format: 'uint256',
  description: 'token id of the name, decimal (or 0x hex): uint256(labelhash) for the registrar, uint256(namehash) for a wrapped name',
  examples: [TOKEN_EXAMPLE],
});

export const OrderType = Type.Union([Type.Literal('listing'), Type.Literal('offer'), Type.Literal('collection_offer')], {
  description: 'listing or offer; collection_offer is refused (400 UNSUPPORTED_ORDER_TYPE)',
});

export const SaveOrderBody = Type.Object({
  type: OrderType,
  token_id: described("the name's token id; must be the token of the signed order (for a wrapped name its namehash or labelhash id)", TokenId),
  price_wei: described("price (listing) or amount (offer) in wei; must equal the signed order's", Wei),
  currency_address: Type.Optional(described("payment token; must be the signed order's (the zero address is ETH)", Address)),
  order_data: described('the signed order {parameters, signature}, as an object or as a JSON string of one', SignedOrder),
  order_hash: Type.Optional(described('claimed order hash; must equal the one the service computes', OrderHash)),
  seller_address: Type.Optional(described('listing: the seller, who must be the signed-in user (403 otherwise)', Address)),
  buyer_address: Type.Optional(described('offer: the buyer, who must be the signed-in user (403 otherwise)', Address)),
  traits: Type.Optional(Type.Unknown({ description: 'trait metadata of collection orders: accepted and not stored' })),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('pending')], { description: 'a new order is live: active (listing) or pending (offer); either is accepted for both' })),
  source: Type.Optional(Source),
});
export type SaveOrderBody = Static<typeof SaveOrderBody>;

export const OrderRefParams = Type.Object({
  id: Type.String({ pattern: '^([0-9]{1,15}|0x[0-9a-fA-F]{64})$', description: 'a listing id (number), or the order hash of a listing or an offer', examples: ['2797', ORDER_EXAMPLE_HASH] }),
});

const ListingOrder = Type.Object({ order_type: Type.Literal('listing', { description: 'listing or offer' }), ...Listing.properties }, { description: 'a listing' });
const OfferOrder = Type.Object({ order_type: Type.Literal('offer', { description: 'listing or offer' }), ...Offer.properties }, { description: 'an offer' });
export const OrderView = Type.Union([ListingOrder, OfferOrder], { description: 'the order as GET /listings/:id or GET /offers/:id shows it, with order_type' });
export type OrderView = Static<typeof OrderView>;

export const CancelledOrder = Type.Object({
  message: Type.String({ description: 'what happened', examples: ['Order cancelled successfully'] }),
  order: OrderView,
});

export const CreateOrderBody = Type.Object({
  tokenId: TokenId,
  price: described('price in wei (what the buyer pays)', Wei),
  currency: Type.Optional(described('payment token: the zero address for ETH (default) or an accepted ERC-20', Address)),
  duration: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 7, description: 'days the listing lasts from now, 1 to 365', examples: [30] })),
  offerer: described('the seller, who owns the name and will sign the order', Address),
});
export type CreateOrderBody = Static<typeof CreateOrderBody>;

export const UnsignedOrder = Type.Object({
  ...OrderComponentsSchema.properties,
  totalOriginalConsiderationItems: Type.Integer({ description: 'number of consideration items (seaport-js OrderParameters)', examples: [1] }),
  orderHash: described('the order hash the signed order will have', OrderHash),
  counterSource: Type.Union([Type.Literal('rpc'), Type.Literal('default')], { description: "rpc: the offerer's counter read from Seaport; default: 0, as no RPC is configured (check it before signing)" }),
  domain: Type.Object({
    name: Type.String({ description: 'EIP-712 domain name', examples: ['Seaport'] }),
    version: Type.String({ description: 'Seaport version', examples: ['1.6'] }),
    chainId: Type.Integer({ description: 'chain id', examples: [1] }),
    verifyingContract: described('the Seaport contract', Address, '0x0000000000000068f116a894984e2db1123eb395'),
  }, { description: 'the EIP-712 domain to sign the order under (primary type OrderComponents)' }),
}, { description: 'Seaport 1.6 OrderComponents ready to sign, with the signing domain' });
export type UnsignedOrder = Static<typeof UnsignedOrder>;

export const ValidateOrderBody = Type.Object({
  orderData: Type.Unknown({ description: 'the signed order {parameters, signature}, as an object or a JSON string of one', examples: [ORDER_EXAMPLE] }),
});
export type ValidateOrderBody = Static<typeof ValidateOrderBody>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const OrderProblem = Type.Object({
  field: Type.String({ description: 'the request field at fault', examples: ['body.orderData.parameters.counter'] }),
  code: Type.String({ description: 'the catalogue code POST /orders would answer', examples: ['INVALID_ORDER'] }),
  reason: Nullable(Type.String({ description: 'a stable word for the fault (stale_counter, insufficient_balance, pattern…)', examples: ['stale_counter'] })),
  message: Type.String({ description: 'what is wrong, for people', examples: ['The order was signed with counter 0; the offerer\'s Seaport counter is 1'] }),
  expected: Type.Optional(Type.Unknown({ description: 'what the service expected, when it says' })),
  got: Type.Optional(Type.Unknown({ description: 'what the order has, when it says' })),
});
export type OrderProblem = Static<typeof OrderProblem>;

export const OrderValidation = Type.Object({
  valid: Type.Boolean({ description: 'true when POST /orders would store the order' }),
  kind: Nullable(Type.String({ description: 'listing or offer, once the order can be read', examples: ['listing'] })),
  orderHash: Nullable(described('the order hash, once the order can be read', OrderHash)),
  errors: Type.Array(OrderProblem, { description: 'every fault found, field by field' }),
  messages: Type.Array(Type.String({ description: 'one fault', examples: ['The order has already ended'] }), { description: 'the same faults as plain strings (the original\'s `errors`)' }),
  unchecked: Type.Array(Type.String({ description: 'a check', examples: ['counter'] }), { description: 'checks not made: counter and funds without an RPC (or when it did not answer)' }),
});
export type OrderValidation = Static<typeof OrderValidation>;

export const BulkOrdersBody = Type.Object({
  listings: Type.Array(SaveOrderBody, { minItems: 1, maxItems: 100, description: 'up to 100 listings or offers, each as POST /orders takes it' }),
});
export type BulkOrdersBody = Static<typeof BulkOrdersBody>;

export const BulkItemResult = Type.Object({
  index: Type.Integer({ description: 'position in the request, from 0', examples: [0] }),
  type: Type.String({ description: 'the item\'s type', examples: ['listing'] }),
  token_id: Type.String({ description: 'the item\'s token_id as sent', examples: [TOKEN_EXAMPLE] }),
  order_hash: Nullable(described('the order hash the service computed, once the order could be read', OrderHash)),
  status: Type.Union([Type.Literal('created'), Type.Literal('failed'), Type.Literal('skipped')], { description: 'created; failed (see error); skipped: the same order is already stored, or earlier in this request' }),
  listing_id: Nullable(Type.Integer({ description: 'the stored (or already stored) listing', examples: [2797] })),
  offer_id: Nullable(Type.Integer({ description: 'the stored (or already stored) offer', examples: [1204] })),
  error: Nullable(Type.Object({
    code: Type.String({ description: 'the catalogue code POST /orders would answer', examples: ['NOT_OWNER'] }),
    message: Type.String({ description: 'what is wrong, for people', examples: ['coffee.eth is not owned by 0xf39f…'] }),
    field: Nullable(Type.String({ description: 'the request field at fault', examples: ['body.listings.1.order_data.parameters.offerer'] })),
  }, { description: 'why the item was not stored' })),
});

export const BulkOrdersResult = Type.Object({
  summary: Type.Object({
    total: Type.Integer({ description: 'items sent', examples: [2] }),
    succeeded: Type.Integer({ description: 'items stored', examples: [1] }),
    failed: Type.Integer({ description: 'items refused', examples: [1] }),
    skipped: Type.Integer({ description: 'items already stored', examples: [0] }),
  }, { description: 'counts per outcome' }),
  results: Type.Array(BulkItemResult, { description: 'one per item, in request order' }),
});
export type BulkOrdersResult = Static<typeof BulkOrdersResult>;
