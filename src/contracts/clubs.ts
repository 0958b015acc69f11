import { Type } from 'typebox';
import { CLUB_CLASSIFICATIONS, CLUB_NAME_PATTERN } from '../lib/clubs.js';
import { Address, Envelope, Limit, Meta, Page, PaginationA, PaginationB, SortOrder, NullableTimestamp, Timestamp, Wei } from './common.js';
import { SearchResult } from './search-result.js';
import { glossed } from './glossary.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Percent = (description: string) => Type.Number({ description: `${description}, percent of member_count (two decimals)` });
const Volume = (description: string) => ({ ...Wei, description: `${description}, wei (ETH and WETH sales only)` });
const RegVolume = (description: string) => ({ ...Wei, description: `${description}, wei` });

/** Sort fields of GET /clubs, as the original marketplace names them. */
export const CLUB_SORT_FIELDS = [
  'total_sales_count', 'total_sales_volume_wei', 'sales_count_1y', 'sales_count_1mo', 'sales_count_1w',
  'sales_volume_wei_1y', 'sales_volume_wei_1mo', 'sales_volume_wei_1w',
  'total_reg_count', 'total_reg_volume_wei', 'reg_count_1y', 'reg_count_1mo', 'reg_count_1w',
  'reg_volume_wei_1y', 'reg_volume_wei_1mo', 'reg_volume_wei_1w',
  'member_count', 'registered_count', 'grace_count', 'premium_count', 'available_count', 'listings_count',
  'registered_percent', 'grace_percent', 'premium_percent', 'available_percent', 'listings_percent',
  'holders_count', 'holders_ratio', 'floor_price_wei', 'name',
] as const;

const EXAMPLE_CLUB = {
  name: '999', display_name: '999 Club', description: 'Three digits, 000 to 999 (1,000 names)', source: 'rule', classifications: ['digits'],
  member_count: 1000, floor_price_wei: '2500000000000000000', floor_price_currency: '0x0000000000000000000000000000000000000000',
  total_sales_count: 412, total_sales_volume_wei: '1630000000000000000000', sales_count_1w: 3, sales_count_1mo: 14, sales_count_1y: 121,
  sales_volume_wei_1w: '9100000000000000000', sales_volume_wei_1mo: '41500000000000000000', sales_volume_wei_1y: '402000000000000000000',
  total_reg_count: 1380, total_reg_volume_wei: '910000000000000000000', reg_count_1w: 0, reg_count_1mo: 2, reg_count_1y: 19,
  reg_volume_wei_1w: '0', reg_volume_wei_1mo: '380000000000000000', reg_volume_wei_1y: '4100000000000000000',
  registered_count: 968, grace_count: 12, premium_count: 4, available_count: 16, listings_count: 57,
  registered_percent: 96.8, grace_percent: 1.2, premium_percent: 0.4, available_percent: 1.6, listings_percent: 5.7,
  holders_count: 402, holders_ratio: 40.2, avatar_url: null, header_url: null,
  last_floor_update: '2026-11-22T19:40:00.000Z', last_sales_update: '2026-11-22T19:40:00.000Z',
  created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-22T19:40:00.000Z',
};

export const Club = glossed(Type.Object({
  name: Type.String({ description: 'club identifier, as used by the `clubs[]` filters' }),
  display_name: Type.String(),
  description: Type.String(),
  source: Type.Enum(['rule', 'csv'], { description: 'rule: membership decided by the label; csv: a loaded list' }),
  classifications: Type.Array(Type.String(), { description: `what GET /clubs filters by with class[]: ${CLUB_CLASSIFICATIONS.join(', ')}` }),
  member_count: Count('names in the database that belong to the club (kept by every name write)'),
  floor_price_wei: Type.Union([Wei, Type.Null()], { description: 'price of the active listing of a member with the lowest value in ETH, in its currency' }),
  floor_price_currency: Type.Union([Address, Type.Null()]),
  total_sales_count: Count('sales of members, all time'),
  total_sales_volume_wei: Volume('their volume'),
  sales_count_1w: Count('sales in the last 7 days'),
  sales_count_1mo: Count('sales in the last 30 days'),
  sales_count_1y: Count('sales in the last 365 days'),
  sales_volume_wei_1w: Volume('volume of the last 7 days'),
  sales_volume_wei_1mo: Volume('volume of the last 30 days'),
  sales_volume_wei_1y: Volume('volume of the last 365 days'),
  total_reg_count: Count('registrations of members, all time (renewals excluded)'),
  total_reg_volume_wei: RegVolume('their total cost'),
  reg_count_1w: Count('registrations in the last 7 days'),
  reg_count_1mo: Count('registrations in the last 30 days'),
  reg_count_1y: Count('registrations in the last 365 days'),
  reg_volume_wei_1w: RegVolume('registration cost of the last 7 days'),
  reg_volume_wei_1mo: RegVolume('registration cost of the last 30 days'),
  reg_volume_wei_1y: RegVolume('registration cost of the last 365 days'),
  registered_count: Count('members whose registration runs'),
  grace_count: Count('members in their grace period'),
  premium_count: Count('members in the premium auction after grace'),
  available_count: Count('members free to register (or never registered)'),
  listings_count: Count('members with an active listing'),
  registered_percent: Percent('registered_count'),
  grace_percent: Percent('grace_count'),
  premium_percent: Percent('premium_count'),
  available_percent: Percent('available_count'),
  listings_percent: Percent('listings_count'),
  holders_count: Count('distinct owners of registered and grace members'),
  holders_ratio: Percent('holders_count'),
  avatar_url: Type.Union([Type.String(), Type.Null()], { description: 'club images are not served: null' }),
  header_url: Type.Union([Type.String(), Type.Null()]),
  last_floor_update: Type.Union([Timestamp, Type.Null()], { description: 'when the aggregates were last computed' }),
  last_sales_update: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
}, { examples: [EXAMPLE_CLUB] }));

const ClassValues = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20, description: 'classifications, repeatable or comma-separated' });

export const ClubsQuery = Type.Object({
  sortBy: Type.Enum([...CLUB_SORT_FIELDS], { default: 'total_sales_volume_wei', description: 'ties by name' }),
  sortOrder: SortOrder,
  'class[]': Type.Optional(ClassValues),
  class: Type.Optional(ClassValues),
  search: Type.Optional(Type.String({ maxLength: 100, description: 'part of the name, display name or description, any case', examples: ['digit'] })),
});

export const ClubsResponse = glossed(Envelope(Type.Object({ clubs: Type.Array(Club, { description: 'the clubs, sorted' }), total: Type.Integer() }, { examples: [{ clubs: [EXAMPLE_CLUB], total: 1 }] })), { total: 'clubs in the answer' });

export const ClubParams = Type.Object({ club: Type.String({ pattern: CLUB_NAME_PATTERN, description: 'club identifier', examples: ['999'] }) });

export const ClubPageQuery = Type.Object({ page: { ...Page, maximum: 100_000 }, limit: Limit });

export const ClubResponse = glossed(Envelope(Type.Object({
  club: Club,
  names: Type.Array(SearchResult, { description: 'members in alphabetical order, as standard search results' }),
  pagination: PaginationB,
})), { club: 'the club and its figures' });

const ClubValues = Type.Array(Type.String({ minLength: 1, maxLength: 1400 }), { maxItems: 20, description: 'club identifiers; repeatable, and each value may be a comma-separated list' });

export const HoldersQuery = Type.Object({
  page: { ...Page, maximum: 1_000_000 },
  limit: Limit,
  sortOrder: { ...SortOrder, description: 'by name count; ties by address in the same direction' },
});

export const AllHoldersQuery = Type.Object({ ...HoldersQuery.properties, 'clubs[]': Type.Optional(ClubValues), clubs: Type.Optional(ClubValues) });

const EXAMPLE_HOLDERS = {
  clubs: ['999'], unique_holders: 402,
  holders: [{ address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', name_count: 42 }, { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', name_count: 15 }],
};

export const HoldersResponse = glossed(Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    clubs: Type.Array(Type.String(), { description: 'the clubs asked for (empty: any club)' }),
    unique_holders: Type.Integer({ description: 'distinct owners of registered and grace names in those clubs' }),
    holders: Type.Array(Type.Object({ address: Address, name_count: Type.Integer() })),
  }, { examples: [EXAMPLE_HOLDERS] }),
  pagination: PaginationA,
  meta: Meta,
}), { clubs: 'the clubs asked for (empty: any club)' });

export const CountsParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 64, description: 'an owner address, or the status `premium` or `available`', examples: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'] }),
});

export const CountsResponse = glossed(Envelope(Type.Record(Type.String(), Type.Integer(), {
  description: '`any`: names in at least one club; then one count per club of the catalogue',
  examples: [{ any: 15, '999': 3, '10k': 8, '100k': 4, '3-digit-palindromes': 0, '4-digit-palindromes': 1, '3-letters': 0 }],
})));
