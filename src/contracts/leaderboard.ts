import { Type } from 'typebox';
import { CLUB_NAME_PATTERN } from '../lib/clubs.js';
import { Address, ApiVersion, Limit, Page, PaginationA, SortOrder, Timestamp, Wei } from './common.js';

export const HOLDER_SORTS = ['names_owned', 'names_in_clubs', 'expired_names', 'names_listed', 'names_sold', 'sales_volume'] as const;
/** Most clubs one request may filter by. */
export const MAX_CLUB_FILTERS = 20;

const ClubValues = Type.Array(Type.String({ minLength: 1, maxLength: 1400 }), {
  maxItems: MAX_CLUB_FILTERS,
  description: `club identifiers (${CLUB_NAME_PATTERN}); repeatable, and each value may be a comma-separated list`,
});

export const HolderQuery = Type.Object({
  page: { ...Page, maximum: 1_000_000 },
  limit: Limit,
  sortBy: Type.Enum([...HOLDER_SORTS], { default: 'names_owned', description: 'ties are broken by address, in the same direction' }),
  sortOrder: SortOrder,
  'clubs[]': Type.Optional(ClubValues),
  clubs: Type.Optional({ ...ClubValues, description: 'same as clubs[] (as some clients send it): `clubs=a&clubs=b` or `clubs=a,b`' }),
});

export const HolderUser = Type.Object({
  address: Address,
  names_owned: Type.Integer({ description: 'active names (not past the grace period)' }),
  names_in_clubs: Type.Integer({ description: 'active names in at least one club' }),
  expired_names: Type.Integer({ description: 'names past the grace period' }),
  names_listed: Type.Integer({ description: 'active names with an active listing by this owner' }),
  names_sold: Type.Integer({ description: 'sales as seller, ETH and WETH only' }),
  sales_volume: { ...Wei, description: 'total of those sales, wei' },
  clubs: Type.Array(Type.String(), { description: 'distinct clubs of the active names, alphabetically' }),
});

export const HolderResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ users: Type.Array(HolderUser) }),
  pagination: PaginationA,
  meta: Type.Object({
    timestamp: Timestamp,
    version: ApiVersion,
    sort: Type.Object({ by: Type.Enum([...HOLDER_SORTS]), order: SortOrder }),
  }),
});

