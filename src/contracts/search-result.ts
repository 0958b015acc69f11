import { Type, type Static, type TProperties } from 'typebox';
import { Address, asJsonText, CurrencyFields, NullableTimestamp, Timestamp, Wei } from './common.js';
import { ORDER_EXAMPLE, storedOrder } from './order.js';

const NullableWei = Type.Union([Wei, Type.Null()]);
const NullableAddress = Type.Union([Address, Type.Null()]);

/** An active listing as shown inside a search result, newest first. */
export const ResultListing = Type.Object({
  id: Type.Integer(),
  price: Wei,
  currency_address: Address,
  ...CurrencyFields,
  seller_address: Address,
  order_hash: Type.String(),
  order_data: storedOrder(ORDER_EXAMPLE, 'the signed Seaport order {parameters, signature}, what a buyer fulfils'),
  expires_at: NullableTimestamp,
  source: Type.String(),
  broker_address: NullableAddress,
  broker_fee_bps: Type.Union([Type.Integer(), Type.Null()]),
});

/**
 * The standard search result: one name with its market and community figures. Used by global
 * search, related search, trending and the name page, so a client renders them all alike.
 */
const SearchResultObject = Type.Object({
  id: Type.Integer(),
  name: Type.String({ examples: ['apple.eth'] }),
  token_id: Type.String({ description: 'ERC-721 token id of the base registrar, decimal' }),
  owner: NullableAddress,
  expiry_date: NullableTimestamp,
  registration_date: NullableTimestamp,
  clubs: Type.Array(Type.String()),
  has_numbers: Type.Boolean(),
  has_emoji: Type.Boolean(),
  last_sale_date: NullableTimestamp,
  last_sale_price: NullableWei,
  last_sale_currency: NullableAddress,
  listings: Type.Array(ResultListing),
  highest_offer_wei: NullableWei,
  highest_offer_currency: NullableAddress,
  highest_offer_id: Type.Union([Type.Integer(), Type.Null()]),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  net_score: Type.Integer(),
  watchers_count: Type.Integer({ minimum: 0, description: 'distinct users with the name on a watchlist', examples: [3] }),
  is_user_watching: Type.Optional(Type.Boolean({ description: 'whether the caller has the name on a watchlist; only present with a valid token' })),
  user_vote: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(-1), Type.Null()], { description: "the caller's vote; only present with a valid token" })),
});
/** The fields of a standard search result, for the responses that show one with more (the name page, a brokered name). */
export const SearchResultFields = SearchResultObject.properties;
/** A standard search result, which the service may give as the JSON text PostgreSQL wrote (search/results.ts). */
export const SearchResult = asJsonText(SearchResultObject);
export type SearchResult = Static<typeof SearchResult>;
export type SearchResultObject = Static<typeof SearchResultObject>;

/** A standard search result with more fields (a trending figure, a cart item's own), given as JSON text too. */
export const searchResultWith = <P extends TProperties>(more: P) => asJsonText(Type.Object({ ...SearchResultFields, ...more }));

export { Timestamp };
