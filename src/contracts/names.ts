import { Type, type Static } from 'typebox';
import { Address, CurrencyFields, EnsNameParam, Limit, NullableTimestamp, Page, PaginationB, Timestamp, Wei } from './common.js';
import { ORDER_EXAMPLE, storedOrder } from './order.js';
import { NameOffer } from './search.js';
import { SearchResultFields } from './search-result.js';

const NullableWei = Type.Union([Wei, Type.Null()]);
const NullableAddress = Type.Union([Address, Type.Null()]);
const Nothing = (description: string) => Type.Null({ description });

export const NameStatus = Type.Union([Type.Literal('registered'), Type.Literal('grace'), Type.Literal('premium'), Type.Literal('available')], {
  description: 'registered: not expired; grace: expired under GRACE_PERIOD_DAYS (90); premium: the PREMIUM_PERIOD_DAYS (21) after; available: later, or never registered',
});

/** An active listing with what a buyer needs: the signed order. */
export const NameListing = Type.Object({
  id: Type.Integer(),
  price: Wei,
  price_wei: Wei,
  currency_address: Address,
  ...CurrencyFields,
  status: Type.String(),
  seller_address: Address,
  order_hash: Type.String(),
  order_data: storedOrder(ORDER_EXAMPLE, 'the signed Seaport order ({parameters, signature}) to fulfil'),
  expires_at: NullableTimestamp,
  created_at: Timestamp,
  source: Type.String(),
  broker_address: NullableAddress,
  broker_fee_bps: Type.Union([Type.Integer(), Type.Null()]),
});

/** Fields the name page adds to the standard search result. */
const NAME_EXTRA = {
  status: NameStatus,
  wrapped: Type.Boolean({ description: 'held in the NameWrapper (ERC-1155)' }),
  registrant: NullableAddress,
  creation_date: { ...NullableTimestamp, description: 'first registration known here' },
  last_transfer_date: NullableTimestamp,
  last_sale_price_usd: Nothing('not computed'),
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'ENS text records; none are stored yet, so {}', examples: [{}] }),
  metadata_updated_at: Nothing('text records are not stored yet'),
  created_at: Timestamp,
  updated_at: Timestamp,
  view_count: Type.Integer({ description: 'name page views, one per viewer and UTC day' }),
  watchers_count: Type.Integer({ minimum: 0, description: 'distinct users with the name on a watchlist', examples: [3] }),
  is_user_watching: Type.Boolean({ description: 'whether the caller has the name on a watchlist (false without a token)' }),
  watchlist_record_id: Type.Union([Type.Integer(), Type.Null()], { description: "the caller's oldest watchlist entry for the name (PATCH/DELETE /watchlist/:id); null when not watching or without a token", examples: [7] }),
};

/** GET /names/:name: the search result of the name, its listings with their orders, pending offers, and more. */
export const NamePage = Type.Object({
  ...SearchResultFields,
  listings: Type.Array(NameListing, { description: 'active unexpired listings, newest first' }),
  offers: Type.Array(NameOffer, { description: 'pending unexpired offers, highest first (at most 100)' }),
  ...NAME_EXTRA,
});
export type NamePage = Static<typeof NamePage>;

/** One name of GET /names (the reference's list item). */
export const NameListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String({ examples: ['apple.eth'] }),
  token_id: Type.String(),
  owner_address: NullableAddress,
  expiry_date: NullableTimestamp,
  registration_date: NullableTimestamp,
  last_sale_date: NullableTimestamp,
  last_sale_price: NullableWei,
  last_sale_currency: NullableAddress,
  resolver_address: Nothing('not stored'),
  has_emoji: Type.Boolean(),
  has_numbers: Type.Boolean(),
  clubs: Type.Array(Type.String()),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  net_score: Type.Integer(),
  highest_offer_wei: NullableWei,
  highest_offer_currency: NullableAddress,
  highest_offer_id: Type.Union([Type.Integer(), Type.Null()]),
  last_offer_update: Nothing('not stored'),
  listings: Type.Array(Type.Object({
    id: Type.Integer(),
    price_wei: Wei,
    currency_address: Address,
    ...CurrencyFields,
    status: Type.String(),
    source: Type.String(),
    expires_at: NullableTimestamp,
    created_at: Timestamp,
  })),
  ...NAME_EXTRA,
});
export type NameListItem = Static<typeof NameListItem>;

export const NamesQuery = Type.Object({
  page: Page,
  limit: { ...Limit, description: 'items per page, 1 to 100 (page × limit at most 10,000)' },
  owner: Type.Optional({ ...Address, description: 'owned by this address' }),
  status: Type.Optional(Type.Union([Type.Literal('available'), Type.Literal('listed'), Type.Literal('expiring'), Type.Literal('registered'), Type.Literal('grace'), Type.Literal('premium')], {
    description: 'available (registrable), listed (active listing), expiring (registered, expiring within 30 days), registered, grace, premium; without it names past their grace period are left out',
  })),
  sort: Type.Union([Type.Literal('name'), Type.Literal('price'), Type.Literal('expiry'), Type.Literal('created')], { default: 'created', description: 'name, price (lowest listing; unlisted last), expiry, created (registration date)' }),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' }),
});

export const NamesPage = Type.Object({ names: Type.Array(NameListItem), pagination: PaginationB });
export const NamesMeta = Type.Object({
  timestamp: Timestamp,
  version: Type.String(),
  totalCapped: Type.Boolean({ description: 'true when more than 10,000 names match; total is then 10,000' }),
});

export const NamePathParams = Type.Object({ name: EnsNameParam });

/** ERC-721 token metadata as the ENS metadata service serves it, plus the reference's fields. */
export const NameMetadata = Type.Object({
  name: Type.String(),
  description: Type.String(),
  image: Type.String({ description: 'ENS_METADATA_URL/<contract>/<token id>/image' }),
  image_url: Type.String(),
  background_image: Type.String(),
  url: Type.String({ description: 'the name page of the web app (APP_URL)' }),
  is_normalized: Type.Boolean(),
  name_length: Type.Integer(),
  segment_length: Type.Integer(),
  version: Type.Integer({ description: '0 unwrapped, 1 wrapped' }),
  attributes: Type.Array(Type.Object({
    trait_type: Type.String(),
    display_type: Type.Optional(Type.String()),
    value: Type.Union([Type.String(), Type.Number()]),
  })),
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'ENS text records; none are stored yet, so {}', examples: [{}] }),
  source: Type.String({ description: 'database' }),
}, {
  examples: [{
    name: 'apple.eth', description: 'apple.eth, an ENS name.', image: 'https://metadata.ens.domains/mainnet/0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85/123/image',
    image_url: 'https://metadata.ens.domains/mainnet/0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85/123/image', background_image: 'https://metadata.ens.domains/mainnet/avatar/apple.eth',
    url: 'http://localhost:3001/apple.eth', is_normalized: true, name_length: 5, segment_length: 5, version: 0,
    attributes: [{ trait_type: 'Length', display_type: 'number', value: 5 }, { trait_type: 'Character Set', value: 'letter' }], metadata: {}, source: 'database',
  }],
});

/** A chain event of the name, as GET /names/:name/history lists them. */
export const NameTransaction = Type.Object({
  id: Type.Integer({ description: 'the activity event id' }),
  ens_name_id: Type.Integer(),
  transaction_hash: Type.Union([Type.String(), Type.Null()]),
  block_number: Type.Union([Type.String(), Type.Null()]),
  from_address: NullableAddress,
  to_address: NullableAddress,
  price_wei: NullableWei,
  currency_address: NullableAddress,
  transaction_type: Type.String({ description: 'registration, renewal, transfer or sale' }),
  timestamp: Timestamp,
  created_at: Timestamp,
});
export type NameTransaction = Static<typeof NameTransaction>;

export const NameHistoryQuery = Type.Object({ page: Page, limit: { ...Limit, description: 'items per page, 1 to 100 (page × limit at most 10,000)' } });
export const NameHistoryPage = Type.Object({ transactions: Type.Array(NameTransaction), pagination: PaginationB });

/** The reference's legacy shape: the newest listing inline, the offer count, recent transactions. */
export const NameLegacy = Type.Object({
  ...NameListItem.properties,
  listing_price: NullableWei,
  listing_status: Type.Union([Type.String(), Type.Null()]),
  listing_expires_at: NullableTimestamp,
  listing_seller: NullableAddress,
  listing_order_data: Type.Union([storedOrder(ORDER_EXAMPLE), Type.Null()]),
  listing_currency_address: NullableAddress,
  listing_source: Type.Union([Type.String(), Type.Null()]),
  active_offers_count: Type.String(),
  recent_transactions: Type.Array(NameTransaction, { description: 'the 10 newest' }),
  opensea_listing: Nothing('not read from OpenSea'),
  opensea_offer: Nothing('not read from OpenSea'),
});

/** What the web app renders its name page from, in one call. */
export const NameBundle = Type.Object({
  details: NamePage,
  offers: Type.Array(NameOffer),
  roles: Type.Union([Type.Object({
    name: Type.String(),
    owner: NullableAddress,
    manager: NullableAddress,
    ethAddress: NullableAddress,
    isWrapped: Type.Boolean(),
    fuses: Type.Null(),
    expiryDate: Type.Union([Type.Integer(), Type.Null()], { description: 'seconds since the epoch' }),
    resolver: NullableAddress,
  }), Type.Null()], { description: 'owner and manager as stored (the registrant manages an unwrapped name here); resolver records are not stored' }),
});
