import { Type, type Static } from 'typebox';
import { Address, asJsonText, described, Limit, NullableTimestamp, Page, PaginationB, Timestamp, Wei } from './common.js';
import { OrderHash, SignedOrder, Source } from './order.js';
import { TokenId } from './orders.js';
import { ResultListing, SearchResultFields } from './search-result.js';

/** The reference's /brokered-listings routes: a listing whose signed order also pays a broker's fee. */

const FeeBps = Type.Integer({ minimum: 0, maximum: 10_000, description: 'broker fee in basis points of the price (100 = 1%)', examples: [250] });

export const BrokerConfig = Type.Object({
  minFeeBasisPoints: described('the least broker fee a brokered listing may set (BROKER_MIN_FEE_BPS)', FeeBps, 100),
  minFeePercent: Type.Number({ description: 'the same as a percentage', examples: [1] }),
  maxFeeBasisPoints: described('the most a fee item of any listing may take (BROKER_MAX_FEE_BPS)', FeeBps, 1000),
  maxFeePercent: Type.Number({ description: 'the same as a percentage', examples: [10] }),
});
export type BrokerConfig = Static<typeof BrokerConfig>;

export const CreateBrokeredListingBody = Type.Object({
  token_id: described("the name's token id; must be the token of the signed order", TokenId),
  price_wei: described('the price in wei, what the buyer pays (the sum of the consideration, fee included); must equal the signed order\'s', Wei),
  currency_address: Type.Optional(described("payment token; must be the signed order's (the zero address is ETH)", Address)),
  order_data: described('the signed order {parameters, signature}, as an object or as a JSON string of one', SignedOrder),
  order_hash: Type.Optional(described('claimed order hash; must equal the one the service computes', OrderHash)),
  seller_address: described('the seller, who must be the signed-in user (403 otherwise)', Address),
  broker_address: described('the broker, paid the fee; not the seller', Address),
  broker_fee_bps: described('the broker fee in basis points of the price; the order pays the broker exactly this share', FeeBps),
  expires_at: Type.Optional(described("claimed end time; must equal the order's endTime (null: none)", NullableTimestamp)),
  source: Type.Optional(Source),
});
export type CreateBrokeredListingBody = Static<typeof CreateBrokeredListingBody>;

export const BrokerParams = Type.Object({ address: described("the broker's address", Address) });

const ListingStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('sold'), Type.Literal('cancelled'), Type.Literal('expired'), Type.Literal('unfunded')],
  { description: 'only names with a brokered listing in this status (past its end time reads as expired)' },
);

export const BrokerListingsQuery = Type.Object({ page: Page, limit: Limit, status: Type.Optional(ListingStatus) });
export type BrokerListingsQuery = Static<typeof BrokerListingsQuery>;

export const BrokeredResultListing = Type.Object({
  ...ResultListing.properties,
  status: Type.String({ description: 'active, sold, cancelled, expired or unfunded', examples: ['active'] }),
  created_at: Timestamp,
}, { description: 'a listing of this broker' });
export type BrokeredResultListing = Static<typeof BrokeredResultListing>;

export const BrokeredResult = asJsonText(Type.Object({
  ...SearchResultFields,
  listings: Type.Array(BrokeredResultListing, { description: "this broker's listings of the name (in `status` when given), newest first" }),
}, { description: 'a name as global search shows it, with the broker\'s listings of it' }));

/** How long the brokered listing totals are reused: a sum over every brokered listing, not a counter (an active listing ends by time). */
export const BROKER_STATS_SECONDS = 30;

export const BrokerListingsPage = Type.Object({
  results: Type.Array(BrokeredResult, { description: 'names of this page, the one with the newest brokered listing first' }),
  pagination: PaginationB,
});
export type BrokerListingsPage = Static<typeof BrokerListingsPage>;

export const BrokerStats = Type.Object({
  activeBrokeredListings: Type.Integer({ description: 'brokered listings active now (not past their end time)', examples: [42] }),
  soldBrokeredListings: Type.Integer({ description: 'brokered listings sold', examples: [128] }),
  uniqueBrokers: Type.Integer({ description: 'distinct brokers of every brokered listing', examples: [15] }),
  averageBrokerFeeBps: Type.Union([Type.Number({ description: 'mean broker fee of every brokered listing, basis points (2 decimals)', examples: [350.5] }), Type.Null()]),
});
export type BrokerStats = Static<typeof BrokerStats>;

