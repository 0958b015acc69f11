import { Type } from 'typebox';
import { Address, ApiVersion, Limit, Page, PaginationA, SortOrder, Timestamp, Wei } from './common.js';

export const PROGRAM_START = '2026-04-01T00:00:00.000Z';
export const AWARD_SORTS = ['points', 'registration_duration', 'renewal_duration', 'total_duration', 'total_eth_spend', 'base_cost_usd', 'base_cost_eth'] as const;

export const AwardsQuery = Type.Object({
  page: { ...Page, maximum: 1_000_000 },
  limit: Limit,
  sortBy: Type.Enum([...AWARD_SORTS], { default: 'points', description: 'ties are broken by address, in the same direction' }),
  sortOrder: SortOrder,
});

export const AwardsUser = Type.Object({
  rank: Type.Integer({ description: 'position in the chosen sort, from 1' }),
  address: Address,
  points: Type.Integer({ description: 'floor of total_duration_years' }),
  registration_duration_seconds: Type.Integer(),
  renewal_duration_seconds: Type.Integer(),
  total_duration_seconds: Type.Integer(),
  total_duration_years: Type.Number({ description: 'total_duration_seconds / 31556952' }),
  total_eth_spend_wei: { ...Wei, description: 'total cost paid for these registrations and renewals, wei' },
  base_cost_usd: Type.Number({ description: '5 USD per year of total duration' }),
  base_cost_eth: Type.Number({ description: 'per event, 5 USD × its years ÷ the ETH/USD price of its day; summed' }),
  registration_count: Type.Integer(),
  renewal_count: Type.Integer(),
});

export const AwardsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ users: Type.Array(AwardsUser) }),
  pagination: PaginationA,
  meta: Type.Object({
    timestamp: Timestamp,
    version: ApiVersion,
    program_start: Type.String({ description: `always ${PROGRAM_START}` }),
    seconds_per_year: Type.Integer({ description: 'always 31556952' }),
    sort: Type.Object({ by: Type.Enum([...AWARD_SORTS]), order: SortOrder }),
  }),
});
