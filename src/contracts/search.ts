import { Type, type TSchema } from 'typebox';
import { Address, ApiVersion, asJsonText, CurrencyFields, NullableTimestamp, PaginationB, Timestamp, Wei } from './common.js';
import { OFFER_EXAMPLE, storedOrder } from './order.js';
import { SearchResult, SearchResultFields } from './search-result.js';

const Tri = (what: string) =>
  Type.Union([Type.Literal('include'), Type.Literal('exclude'), Type.Literal('only')], {
    description: `include: has at least one ${what}; exclude: has none; only: nothing but ${what}`,
  });
const Fragment = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
const Clubs = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 500, examples: ['999'] }), { maxItems: 20, description: `${description}; repeat the parameter or separate with commas` });

/** Every sort key of global and related search (besides `relevance`). */
export const SORT_KEYS = [
  'price', 'expiry_date', 'registration_date', 'last_sale_date', 'last_sale_price', 'character_count',
  'alphabetical', 'offer', 'listing_date', 'votes',
  'creation_date', 'watchers_count', 'view_count', 'clubs_count', 'listing_expiry', 'ranking', 'google_monthly_searches', 'google_avg_cpc',
] as const;

const Count = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000_000, description });
const DateParam = (description: string) => Type.String({ maxLength: 40, description: `${description} (ISO 8601 date)` });

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
  status: Type.Array(Type.String({ maxLength: 64 }), {
    maxItems: 5,
    description: 'registered: not expired; grace: expired under GRACE_PERIOD_DAYS (90); premium: the next PREMIUM_PERIOD_DAYS (21); available: later; all: any. Several: repeat or separate with commas',
  }),
  expiringWithinDays: Type.Integer({ minimum: 1, maximum: 3650, description: 'registered and expiring within this many days' }),
  owner: Type.String({ minLength: 1, maxLength: 255, description: 'owned by this address, or by the owner of this name (abc.eth)' }),
  minWatchersCount: Count('watchers (distinct users with the name on a watchlist) at least'),
  maxWatchersCount: Count('watchers at most'),
  minViewCount: Count('views at least (views are not counted yet: every name has 0)'),
  maxViewCount: Count('views at most (every name has 0 for now)'),
  minClubsCount: Count('in at least this many clubs'),
  maxClubsCount: Count('in at most this many clubs'),
  hasNumbers: Type.Boolean({ description: 'has a digit (older form of digits)' }),
  hasEmoji: Type.Boolean({ description: 'has an emoji (older form of emoji)' }),
  doesNotContain: Fragment('label does not contain this text'),
  doesNotStartWith: Fragment('label does not start with this text'),
  doesNotEndWith: Fragment('label does not end with this text'),
  showListings: Type.Boolean({ description: 'true: only listed names' }),
  showUnlisted: Type.Boolean({ description: 'true: only names without an active listing' }),
  marketplace: Type.Union([Type.Literal('grails'), Type.Literal('opensea'), Type.Literal('all')], { description: 'listed with an active listing from this source; all: no constraint' }),
  inAnyClub: Type.Boolean({ description: 'in at least one club (false: in none)' }),
  isExpired: Type.Boolean({ description: 'past its expiry date (false: registered)' }),
  isGracePeriod: Type.Boolean({ description: 'in its grace period' }),
  isPremiumPeriod: Type.Boolean({ description: 'in its premium auction' }),
  includeExpired: Type.Boolean({ description: 'false: leave out names past their grace period' }),
  lastSoldAfter: DateParam('last sold at or after'),
  lastSoldBefore: DateParam('last sold at or before'),
  minDaysSinceLastSale: Count('last sold at least this many days ago'),
  maxDaysSinceLastSale: Count('last sold at most this many days ago'),
  minCreationDate: DateParam('registered at or after (the registration date on record)'),
  maxCreationDate: DateParam('registered at or before'),
  uniqueSeller: Type.Boolean({ description: 'accepted; results are already one per name' }),
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
  description: 'relevance (default with q), price, expiry_date, registration_date, creation_date (the registration date), last_sale_date, last_sale_price, character_count, alphabetical, offer, listing_date (default without q), listing_expiry, votes, clubs_count, ranking (needs exactly one club filter: rank within it), google_monthly_searches and google_avg_cpc (names with fetched metrics first), watchers_count (distinct users watching), view_count (not on the name row yet: by id)',
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

export const SearchPage = Type.Object({ results: asJsonText(Type.Array(SearchResult)), pagination: PaginationB });

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
  ...CurrencyFields,
  order_hash: Type.String(),
  order_data: storedOrder(OFFER_EXAMPLE, 'the signed Seaport order'),
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
  ...SearchResultFields,
  offers: Type.Array(NameOffer, { description: 'pending unexpired offers, highest first (at most 100)' }),
});

/** Bulk search: up to 10,000 names in one request. */
export const MAX_BULK_TERMS = 10_000;
const Terms = Type.Array(Type.String({ minLength: 1, maxLength: 255, description: 'a name, `.eth` optional', examples: ['coffee'] }), {
  minItems: 1, maxItems: MAX_BULK_TERMS, description: `the names to look up, 1 to ${MAX_BULK_TERMS.toLocaleString('en-US')}; \`.eth\` optional, ENS-normalized`, examples: [['coffee', 'vitalik.eth', 'example']],
});

export const BulkSearchBody = Type.Object({ terms: Terms, page: PageParam, limit: LimitParam });

export const BulkFiltersBody = Type.Object({
  terms: Terms,
  page: PageParam,
  limit: LimitParam,
  sortBy: Type.Optional({ ...SortBy, description: 'as global search; without it (or relevance) the order of `terms`' }),
  sortOrder: Type.Optional(Order),
  filters: Type.Optional(Type.Object(optional(FILTERS), { description: 'the filters of global search, as an object' })),
});

export const BulkFiltersPage = Type.Object({
  results: Type.Array(SearchResult),
  pagination: PaginationB,
  stats: Type.Object({
    inputTerms: Type.Integer({ description: 'terms sent', examples: [4] }),
    matchedTerms: Type.Integer({ description: 'distinct names among them that exist and pass the filters', examples: [2] }),
  }),
});
