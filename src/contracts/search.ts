import { Type, type TSchema } from 'typebox';
import { Address, ApiVersion, NullableTimestamp, PaginationB, Timestamp, Wei } from './common.js';
import { SearchResult } from './search-result.js';

const Tri = (what: string) =>
  Type.Union([Type.Literal('include'), Type.Literal('exclude'), Type.Literal('only')], {
    description: `include: has at least one ${what}; exclude: has none; only: nothing but ${what}`,
  });
const Fragment = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
const Clubs = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 20, description: `${description}; repeat the parameter or separate with commas` });

/** Every sort key of global and related search (besides `relevance`). */
export const SORT_KEYS = [
  'price', 'expiry_date', 'registration_date', 'last_sale_date', 'last_sale_price', 'character_count',
  'alphabetical', 'offer', 'listing_date', 'votes',
] as const;

/** Each filter of global and related search, flat or inside `filters[...]`. */
export const FILTERS = {
  minPrice: { ...Wei, description: 'listing price at least this, in wei of ETH (a listing in USDC counts at the latest ETH/USD price)' },
  maxPrice: { ...Wei, description: 'listing price at most this, in wei of ETH (a listing in USDC counts at the latest ETH/USD price)' },
  minOffer: { ...Wei, description: 'highest pending offer at least this (wei)' },
  maxOffer: { ...Wei, description: 'highest pending offer at most this (wei)' },
  minLength: Type.Integer({ minimum: 1, maximum: 255, description: 'label length in characters (an emoji counts once), at least' }),
  maxLength: Type.Integer({ minimum: 1, maximum: 255, description: 'label length in characters, at most' }),
  digits: Tri('digit 0-9'),
  letters: Tri('letter a-z'),
  emoji: Tri('emoji'),
  repeatingChars: Tri('character repeated in a row (only: one character throughout, such as 000)'),
  contains: Fragment('label contains this text'),
  startsWith: Fragment('label starts with this text'),
  endsWith: Fragment('label ends with this text'),
  listed: Type.Boolean({ description: 'has an active listing' }),
  hasOffer: Type.Boolean({ description: 'has a pending offer' }),
  hasSales: Type.Boolean({ description: 'has been sold before' }),
  clubs: Clubs('in at least one of these clubs (999, 10k, 100k, …)'),
  excludeClubs: Clubs('in none of these clubs'),
  status: Type.Union([Type.Literal('registered'), Type.Literal('grace'), Type.Literal('premium'), Type.Literal('available')], {
    description: 'registered: not expired; grace: expired under GRACE_PERIOD_DAYS (90); premium: the next PREMIUM_PERIOD_DAYS (21); available: later',
  }),
  expiringWithinDays: Type.Integer({ minimum: 1, maximum: 3650, description: 'registered and expiring within this many days' }),
  owner: { ...Address, description: 'owned by this address' },
} satisfies Record<string, TSchema>;

const optional = <T extends Record<string, TSchema>>(props: T) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>> };

const filterParams = {
  filters: Type.Optional(Type.Object(optional(FILTERS), { description: 'bracket notation: filters[minPrice]=…&filters[clubs][]=999' })),
  ...optional(FILTERS),
  'clubs[]': Type.Optional({ ...FILTERS.clubs, description: 'same as clubs' }),
  'excludeClubs[]': Type.Optional({ ...FILTERS.excludeClubs, description: 'same as excludeClubs' }),
};

const SortBy = Type.Union([...SORT_KEYS.map((k) => Type.Literal(k)), Type.Literal('relevance')], {
  description: 'relevance (default with q), price, expiry_date, registration_date, last_sale_date, last_sale_price, character_count, alphabetical, offer, listing_date (default without q), votes',
});
const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'asc or desc; default depends on sortBy (see description)' });
const PageParam = Type.Integer({ minimum: 1, default: 1, description: 'page number, from 1' });
const LimitParam = Type.Integer({ minimum: 1, maximum: 100, default: 20, description: '1 to 100' });

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'name or part of one; `.eth` optional' })),
  page: PageParam,
  limit: LimitParam,
  sortBy: Type.Optional(SortBy),
  sortOrder: Type.Optional(Order),
  ...filterParams,
});

export const RelatedQuery = Type.Object({
  q: Type.String({ minLength: 2, maxLength: 100, description: 'search text, at least 2 characters' }),
  page: PageParam,
  limit: LimitParam,
  sortBy: Type.Optional({ ...SortBy, description: 'as global search; without it (or relevance) the order of the suggestions' }),
  sortOrder: Type.Optional(Order),
  ...filterParams,
});

export const SearchPage = Type.Object({ results: Type.Array(SearchResult), pagination: PaginationB });

export const SearchMeta = Type.Object({
  timestamp: Timestamp,
  version: ApiVersion,
  sort: Type.Object({ by: Type.String(), order: Type.String() }),
  totalCapped: Type.Boolean({ description: 'true when more than 10,000 names match; total is then 10,000' }),
});

export const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 255, description: 'ENS name, with or without .eth', examples: ['apple.eth'] }) });

export const NameOffer = Type.Object({
  id: Type.Integer(),
  ens_name_id: Type.Integer(),
  buyer_address: Address,
  offer_amount_wei: Wei,
  currency_address: Address,
  order_hash: Type.String(),
  order_data: Type.Record(Type.String(), Type.Unknown(), { description: 'the signed Seaport order' }),
  status: Type.String(),
  created_at: Timestamp,
  expires_at: NullableTimestamp,
  source: Type.String(),
  last_validated_at: NullableTimestamp,
  unfunded_at: NullableTimestamp,
  unfunded_reason: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  token_id: Type.String(),
});

export const NameDetail = Type.Object({
  ...SearchResult.properties,
  offers: Type.Array(NameOffer, { description: 'pending unexpired offers, highest first (at most 100)' }),
});
