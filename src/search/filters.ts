import { AppError } from '../errors.js';
import { normalizeName, InvalidNameError } from '../lib/ens.js';
import { isWei } from '../lib/wei.js';
import type { FILTERS } from '../contracts/search.js';

/** include: has at least one; exclude: has none; only: consists of nothing else. */
export type Tri = 'include' | 'exclude' | 'only';
/** registered: not expired; grace: expired under GRACE_PERIOD_DAYS; premium: the auction after it; available: later. */
export type NameStatus = 'registered' | 'grace' | 'premium' | 'available';

/** The filters of global and related search, parsed and validated. Wei amounts are bigint. */
export interface SearchFilters {
  minPrice?: bigint;
  maxPrice?: bigint;
  minOffer?: bigint;
  maxOffer?: bigint;
  minLength?: number;
  maxLength?: number;
  digits?: Tri;
  letters?: Tri;
  emoji?: Tri;
  repeatingChars?: Tri;
  contains?: string;
  startsWith?: string;
  endsWith?: string;
  listed?: boolean;
  hasOffer?: boolean;
  hasSales?: boolean;
  clubs?: string[];
  excludeClubs?: string[];
  /** Any of these statuses (`all`, or all four, is no constraint). */
  status?: NameStatus[];
  expiringWithinDays?: number;
  /** An address, or a name whose owner is meant. */
  owner?: string;
  // The reference's further filters (see extra-filters.ts for what each matches).
  minWatchersCount?: number;
  maxWatchersCount?: number;
  minViewCount?: number;
  maxViewCount?: number;
  minClubsCount?: number;
  maxClubsCount?: number;
  hasNumbers?: boolean;
  hasEmoji?: boolean;
  doesNotContain?: string;
  doesNotStartWith?: string;
  doesNotEndWith?: string;
  showListings?: boolean;
  showUnlisted?: boolean;
  marketplace?: 'grails' | 'opensea' | 'all';
  inAnyClub?: boolean;
  isExpired?: boolean;
  isGracePeriod?: boolean;
  isPremiumPeriod?: boolean;
  includeExpired?: boolean;
  lastSoldAfter?: Date;
  lastSoldBefore?: Date;
  minDaysSinceLastSale?: number;
  maxDaysSinceLastSale?: number;
  minCreationDate?: Date;
  maxCreationDate?: Date;
  uniqueSeller?: boolean;
}

export type FilterName = keyof SearchFilters;

/** The contract's query schema (contracts/search.ts) names every filter, and no other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const FILTERS_MATCH_CONTRACT: Same<keyof typeof FILTERS, FilterName> = true;

/** Every filter name, in the order the documentation lists them. */
export const FILTER_NAMES = [
  'minPrice', 'maxPrice', 'minOffer', 'maxOffer', 'minLength', 'maxLength', 'digits', 'letters', 'emoji',
  'repeatingChars', 'contains', 'startsWith', 'endsWith', 'listed', 'hasOffer', 'hasSales', 'clubs',
  'excludeClubs', 'status', 'expiringWithinDays', 'owner',
  'minWatchersCount', 'maxWatchersCount', 'minViewCount', 'maxViewCount', 'minClubsCount', 'maxClubsCount', 'hasNumbers', 'hasEmoji',
  'doesNotContain', 'doesNotStartWith', 'doesNotEndWith', 'showListings', 'showUnlisted', 'marketplace', 'inAnyClub', 'isExpired',
  'isGracePeriod', 'isPremiumPeriod', 'includeExpired', 'lastSoldAfter', 'lastSoldBefore', 'minDaysSinceLastSale', 'maxDaysSinceLastSale',
  'minCreationDate', 'maxCreationDate', 'uniqueSeller',
] as const satisfies readonly FilterName[];

/** Flat list filters may also be sent PHP-style: `clubs[]=999&clubs[]=10k`. */
const FLAT_LIST_ALIASES: Record<string, FilterName> = { 'clubs[]': 'clubs', 'excludeClubs[]': 'excludeClubs' };

const MAX_CLUBS = 20;

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}`, { field });
}

function isFilterName(key: string): key is FilterName {
  return (FILTER_NAMES as readonly string[]).includes(key);
}

/**
 * Reads the filters of a search request from its query: bracket notation (`filters[minPrice]=`,
 * `filters[clubs][]=`) and the flat form older clients send (`minPrice=`, `clubs=999,10k`).
 * `ownKeys` are the route's other parameters (q, page...). Anything else is a 400 naming the field.
 * The query has already passed the route schema, so each value has its declared type.
 */
export function readFilters(query: Record<string, unknown>, ownKeys: readonly string[], where: 'query' | 'body' = 'query'): SearchFilters {
  const given = new Map<FilterName, { value: unknown; field: string }>();
  const put = (name: FilterName, value: unknown, field: string) => {
    const previous = given.get(name);
    if (previous) throw invalid(field, `repeats ${previous.field}; send each filter once`);
    given.set(name, { value, field });
  };

  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || ownKeys.includes(key)) continue;
    if (key === 'filters') {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${where}.filters`, 'must use bracket notation, e.g. filters[minPrice]=1');
      for (const [inner, innerValue] of Object.entries(value)) {
        if (innerValue === undefined) continue;
        if (!isFilterName(inner)) throw invalid(`${where}.filters.${inner}`, 'is not a known filter');
        put(inner, innerValue, `${where}.filters.${inner}`);
      }
    } else if (isFilterName(key)) {
      put(key, value, `${where}.${key}`);
    } else if (key in FLAT_LIST_ALIASES) {
      put(FLAT_LIST_ALIASES[key], value, `${where}.${key}`);
    } else {
      throw invalid(`${where}.${key}`, 'is not a known parameter');
    }
  }

  const filters: SearchFilters = {};
  for (const [name, { value, field }] of given) assign(filters, name, value, field);

  for (const [min, max] of [
    ['minPrice', 'maxPrice'], ['minOffer', 'maxOffer'], ['minLength', 'maxLength'], ['minWatchersCount', 'maxWatchersCount'], ['minViewCount', 'maxViewCount'],
    ['minClubsCount', 'maxClubsCount'], ['minDaysSinceLastSale', 'maxDaysSinceLastSale'], ['minCreationDate', 'maxCreationDate'], ['lastSoldAfter', 'lastSoldBefore'],
  ] as const) {
    const lo = filters[min];
    const hi = filters[max];
    if (lo !== undefined && hi !== undefined && lo > hi) throw invalid(given.get(max)!.field, `must not be below ${min}`);
  }
  return filters;
}

function assign(filters: SearchFilters, name: FilterName, value: unknown, field: string): void {
  switch (name) {
    case 'minPrice':
    case 'maxPrice':
    case 'minOffer':
    case 'maxOffer':
      if (!isWei(value)) throw invalid(field, 'must be an amount in wei (decimal string)');
      filters[name] = BigInt(value);
      return;
    case 'minLength':
    case 'maxLength':
    case 'expiringWithinDays':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid(field, 'must be a whole number from 1');
      filters[name] = value;
      return;
    case 'minWatchersCount':
    case 'maxWatchersCount':
    case 'minViewCount':
    case 'maxViewCount':
    case 'minClubsCount':
    case 'maxClubsCount':
    case 'minDaysSinceLastSale':
    case 'maxDaysSinceLastSale':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(field, 'must be a whole number from 0');
      filters[name] = value;
      return;
    case 'digits':
    case 'letters':
    case 'emoji':
    case 'repeatingChars':
      if (value !== 'include' && value !== 'exclude' && value !== 'only') throw invalid(field, 'must be include, exclude or only');
      filters[name] = value;
      return;
    case 'doesNotContain':
    case 'doesNotStartWith':
    case 'doesNotEndWith':
      if (typeof value !== 'string') throw invalid(field, 'must be text');
      filters[name] = fragment(value, field);
      return;
    case 'hasNumbers':
    case 'hasEmoji':
    case 'showListings':
    case 'showUnlisted':
    case 'inAnyClub':
    case 'isExpired':
    case 'isGracePeriod':
    case 'isPremiumPeriod':
    case 'includeExpired':
    case 'uniqueSeller':
      if (typeof value !== 'boolean') throw invalid(field, 'must be true or false');
      filters[name] = value;
      return;
    case 'marketplace':
      if (value !== 'grails' && value !== 'opensea' && value !== 'all') throw invalid(field, 'must be grails, opensea or all');
      filters.marketplace = value;
      return;
    case 'lastSoldAfter':
    case 'lastSoldBefore':
    case 'minCreationDate':
    case 'maxCreationDate': {
      const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : undefined;
      if (!date || Number.isNaN(date.getTime())) throw invalid(field, 'must be an ISO 8601 date');
      filters[name] = date;
      return;
    }
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      if (typeof value !== 'string') throw invalid(field, 'must be text');
      filters[name] = fragment(value, field);
      return;
    case 'listed':
    case 'hasOffer':
    case 'hasSales':
      if (typeof value !== 'boolean') throw invalid(field, 'must be true or false');
      filters[name] = value;
      return;
    case 'clubs':
    case 'excludeClubs':
      filters[name] = clubList(value, field);
      return;
    case 'status': {
      const items = (Array.isArray(value) ? value : [value]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).map((v) => (typeof v === 'string' ? v.trim() : v));
      if (items.includes('all')) return;
      const statuses = [...new Set(items)];
      if (statuses.length === 0 || !statuses.every((s): s is NameStatus => s === 'registered' || s === 'grace' || s === 'premium' || s === 'available')) {
        throw invalid(field, 'must be registered, grace, premium, available or all (several separated by commas)');
      }
      if (statuses.length < 4) filters.status = statuses;
      return;
    }
    case 'owner':
      if (typeof value !== 'string' || (/^0x/i.test(value) && !/^0x[0-9a-fA-F]{40}$/.test(value))) throw invalid(field, 'must be an address or a name');
      if (/^0x[0-9a-fA-F]{40}$/.test(value)) filters.owner = value.toLowerCase();
      else {
        try {
          filters.owner = normalizeName(/\.eth$/i.test(value.trim()) ? value.trim() : `${value.trim()}.eth`);
        } catch (e) {
          if (e instanceof InvalidNameError) throw invalid(field, 'must be an address or a name');
          throw e;
        }
      }
      return;
  }
}

/** `clubs=999,10k`, `clubs=999&clubs=10k` and `filters[clubs][]=999` all give ['999', '10k']. */
function clubList(value: unknown, field: string): string[] {
  const items = (Array.isArray(value) ? value : [value]).flatMap((v) => {
    if (typeof v !== 'string') throw invalid(field, 'must be club names');
    return v.split(',').map((s) => s.trim()).filter(Boolean);
  });
  const unique = [...new Set(items)];
  if (unique.length === 0) throw invalid(field, 'must name at least one club');
  if (unique.length > MAX_CLUBS) throw invalid(field, `must name at most ${MAX_CLUBS} clubs`);
  return unique;
}

/** A piece of a label (contains, startsWith, endsWith), normalized like labels are. */
function fragment(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalid(field, 'must not be empty');
  try {
    const normalized = normalizeName(trimmed);
    if (normalized.includes('.')) throw new InvalidNameError('a label fragment has no dot');
    return normalized;
  } catch (e) {
    if (e instanceof InvalidNameError) throw invalid(field, `is not part of a valid name: ${e.message}`);
    throw e;
  }
}

/**
 * The search text as a label: trimmed, `.eth` removed, ENS-normalized when it can be (so `Apple.ETH`
 * finds apple.eth); text that is no valid label is only lower-cased, and then matches by similarity.
 */
export function normalizeQuery(q: string): string {
  const text = q.trim().replace(/\.eth$/i, '').trim();
  try {
    return normalizeName(text);
  } catch {
    return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ');
  }
}

/** Sorts that need a filter: `ranking` ranks within one club, so exactly one club must be given. */
export function checkSortNeeds(sortBy: string | undefined, filters: SearchFilters, where: 'query' | 'body' = 'query'): void {
  if (sortBy === 'ranking' && filters.clubs?.length !== 1) throw invalid(`${where}.sortBy`, 'ranking needs exactly one club in filters[clubs]');
}
