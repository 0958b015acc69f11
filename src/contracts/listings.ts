import { Type, type Static } from 'typebox';
import { Address, asJsonText, CurrencyFields, described, EnsNameParam, Id, Limit, NullableTimestamp, Page, PaginationB, SortOrder, Timestamp, Wei } from './common.js';
import { OrderData, OrderHash, SignedOrder, Source } from './order.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Statuses = [Type.Literal('active'), Type.Literal('sold'), Type.Literal('cancelled'), Type.Literal('expired'), Type.Literal('unfunded')];

export const Listing = Type.Object({
  id: Type.Integer({ description: 'identifier', examples: [2797] }),
  ens_name_id: Type.Integer({ description: 'identifier of the name', examples: [1751] }),
  seller_address: Address,
  price_wei: Wei,
  value_wei: Nullable({ ...Wei, description: 'the price valued in wei of ETH (USDC at the latest ETH/USD price): what sort=price and minPrice/maxPrice compare; null while unknown' }),
  currency_address: Address,
  ...CurrencyFields,
  order_hash: OrderHash,
  order_data: OrderData,
  status: Type.String({ description: 'active, sold, cancelled, expired or unfunded', examples: ['active'] }),
  source: Source,
  created_at: Timestamp,
  updated_at: Timestamp,
  expires_at: NullableTimestamp,
  last_validated_at: NullableTimestamp,
  unfunded_at: NullableTimestamp,
  unfunded_reason: Nullable(Type.String({ description: 'why the listing cannot be filled now: ownership_lost, not_approved…', examples: ['not_approved'] })),
  broker_address: Nullable(Address),
  broker_fee_bps: Nullable(Type.Integer({ description: 'broker fee in basis points of the price', examples: [250] })),
  ens_name: Type.String({ description: 'the listed name', examples: ['coffee.eth'] }),
  token_id: Type.String({ description: 'token id of the name: uint256 of its labelhash, decimal', examples: ['47745988384822878386125752626008226207894757330973631232045716595533468831285'] }),
  current_owner: Nullable(Address),
  name_expiry_date: NullableTimestamp,
  registration_date: NullableTimestamp,
  last_sale_date: NullableTimestamp,
});
export type Listing = Static<typeof Listing>;

export const ListingsQuery = Type.Object({
  page: Page,
  limit: Limit,
  status: Type.Union(Statuses, { default: 'active', description: 'active (default), sold, cancelled, expired or unfunded' }),
  seller: Type.Optional({ ...Address, description: 'seller address' }),
  minPrice: Type.Optional({ ...Wei, description: 'lowest price valued in wei of ETH (value_wei: USDC at the latest ETH/USD price)' }),
  maxPrice: Type.Optional({ ...Wei, description: 'highest price valued in wei of ETH (value_wei)' }),
  sort: Type.Union([Type.Literal('price'), Type.Literal('created'), Type.Literal('expiry'), Type.Literal('name')], { default: 'created', description: 'price (the value in ETH, value_wei, across currencies), created (default), expiry (the listing end time) or name' }),
  order: SortOrder,
});
export type ListingsQuery = Static<typeof ListingsQuery>;

export const ListingPage = Type.Object({ listings: asJsonText(Type.Array(Listing, { description: 'listings of this page' })), pagination: PaginationB });

export const NameParams = Type.Object({ name: EnsNameParam });

export const CreateListingBody = Type.Object({
  orderData: described('the signed order: {parameters, signature}', SignedOrder),
  source: Type.Optional(Source),
  ensNameId: Type.Optional(Id),
  sellerAddress: Type.Optional(Address),
  priceWei: Type.Optional(Wei),
  currencyAddress: Type.Optional(Address),
  expiresAt: Type.Optional(NullableTimestamp),
  orderHash: Type.Optional(described('claimed order hash; must equal the one the service computes', OrderHash)),
});
export type CreateListingBody = Static<typeof CreateListingBody>;

export const UpdateListingBody = Type.Object({
  orderData: Type.Optional(described("the seller's re-signed order for the same name: {parameters, signature}; it replaces the listing", SignedOrder)),
  priceWei: Type.Optional({ ...Wei, description: 'the new price in wei; must equal the price of the re-signed order' }),
  expiresAt: Type.Optional(described('the new end time; must equal the end time of the re-signed order (null: none)', NullableTimestamp)),
  source: Type.Optional(described("origin of the new order; default: the listing's own", Source)),
});
export type UpdateListingBody = Static<typeof UpdateListingBody>;
