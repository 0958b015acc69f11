import { sql, type RawBuilder } from 'kysely';
import { GENERIC_PLAN } from '../db/client.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { InvalidNameError, parseEthName } from '../lib/ens.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { iso } from '../lib/time.js';
import { weiString } from '../lib/wei.js';
import type { SearchResult } from '../contracts/search-result.js';
import { checkSortNeeds, normalizeQuery, readFilters } from '../search/filters.js';
import { defaultOrderOf, findNameId, RESULT_WINDOW, searchPage, type Sort, type SortKey, type SortOrder } from '../search/query.js';
import { loadSearchResults, resultRows, searchResultsOf } from '../search/results.js';
import { SingleFlight } from '../search/tiered.js';
import { currencyFields } from '../lib/currencies.js';

const OWN_KEYS = ['q', 'page', 'limit', 'sortBy', 'sortOrder'];
/** Pending offers shown on a name page, highest first. */
const MAX_OFFERS = 100;

export interface SearchQuery {
  q?: string;
  page: number;
  limit: number;
  sortBy?: SortKey | 'relevance';
  sortOrder?: SortOrder;
  [filter: string]: unknown;
}

export interface SearchPage {
  results: SearchResult[];
  pagination: PageB;
  sort: { by: SortKey | 'relevance'; order: SortOrder };
  /** True when more names match than the window (10,000): `total` is then 10,000. */
  totalCapped: boolean;
}

export interface NameOffer {
  id: number;
  ens_name_id: number;
  buyer_address: string;
  offer_amount_wei: string;
  currency_address: string;
  currency_symbol: string | null;
  currency_decimals: number | null;
  order_hash: string;
  order_data: Record<string, unknown>;
  status: string;
  created_at: string;
  expires_at: string | null;
  source: string;
  last_validated_at: string | null;
  unfunded_at: string | null;
  unfunded_reason: string | null;
  name: string;
  token_id: string;
}

export type NameDetail = SearchResult & { offers: NameOffer[] };

/** Global search and the name page. */
export class SearchService {
  private readonly countFlights = new SingleFlight();

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'cache'>) {}

  /**
   * `scope` narrows the names searched (a watchlist) and names the query keys that are not filters;
   * everything else (filters, sorts, window, counts) is global search's.
   */
  async search(query: SearchQuery, viewer: { id: number } | null, scope: { where?: RawBuilder<unknown>[]; ownKeys?: string[] } = {}): Promise<SearchPage> {
    const filters = readFilters(query, [...OWN_KEYS, ...(scope.ownKeys ?? [])]);
    checkSortNeeds(query.sortBy, filters);
    const q = query.q === undefined ? '' : normalizeQuery(query.q);
    const { page, limit } = query;
    const offset = offsetOf(page, limit);
    if (offset + limit > RESULT_WINDOW) {
      throw new AppError('VALIDATION_ERROR', `query.page reaches past the first ${RESULT_WINDOW} results; narrow the search instead`, { field: 'query.page' });
    }
    const relevance = q !== '' && (query.sortBy === undefined || query.sortBy === 'relevance');
    const by: SortKey = query.sortBy === undefined || query.sortBy === 'relevance' ? 'listing_date' : query.sortBy;
    const sort: Sort = { by, order: query.sortOrder ?? defaultOrderOf(by) };
    const { config, db, cache } = this.deps;
    const found = await searchPage(
      db,
      { q: q === '' ? undefined : q, filters, sort: relevance ? 'relevance' : sort, offset, limit, extra: scope.where, counts: { cache, flights: this.countFlights } },
      { now: new Date(), gracePeriodDays: config.gracePeriodDays, premiumPeriodDays: config.premiumPeriodDays },
      resultRows,
    );
    return {
      results: await searchResultsOf(db, found.rows, viewer?.id),
      pagination: pageB(page, limit, found.total),
      sort: relevance ? { by: 'relevance', order: 'desc' } : sort,
      totalCapped: found.capped,
    };
  }

  /** One name's standard result with its pending, unexpired offers; 404 NAME_NOT_FOUND. */
  async name(nameParam: string, viewer: { id: number } | null): Promise<NameDetail> {
    return this.nameById(await this.resolve(nameParam), viewer);
  }

  /** The stored name a path parameter names: 400 INVALID_NAME when it does not normalize, 404 NAME_NOT_FOUND when not here. */
  async resolve(nameParam: string): Promise<{ id: number; name: string }> {
    let name: string;
    try {
      name = parseEthName(nameParam).name;
    } catch (e) {
      if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', `Invalid name: ${e.message}`, { field: 'params.name' });
      throw e;
    }
    const found = await findNameId(this.deps.db, name);
    if (!found) throw new AppError('NAME_NOT_FOUND', `${name} is not in the marketplace`);
    return { id: found.id, name };
  }

  /** A resolved name's search result with its pending offers. */
  async nameById(found: { id: number; name: string }, viewer: { id: number } | null): Promise<NameDetail> {
    const { db } = this.deps;
    const { name } = found;
    const [[result], offers] = await Promise.all([
      loadSearchResults(db, [found.id], viewer?.id),
      db
        .selectFrom('offers')
        .modifyFront(GENERIC_PLAN)
        .innerJoin('ens_names', 'ens_names.id', 'offers.ens_name_id')
        .select([
          'offers.id', 'offers.ens_name_id', 'offers.buyer_address', 'offers.offer_amount_wei', 'offers.currency_address',
          'offers.order_hash', 'offers.order_data', 'offers.status', 'offers.created_at', 'offers.expires_at', 'offers.source',
          'offers.last_validated_at', 'offers.unfunded_at', 'offers.unfunded_reason', 'ens_names.name', 'ens_names.token_id',
        ])
        .where('offers.ens_name_id', '=', found.id)
        .where('offers.status', '=', 'pending')
        .where((eb) => eb.or([eb('offers.expires_at', 'is', null), eb('offers.expires_at', '>', sql<Date>`now()`)]))
        .orderBy('offers.offer_amount_wei', 'desc')
        .orderBy('offers.id', 'asc')
        .limit(MAX_OFFERS)
        .execute(),
    ]);
    if (!result) throw new AppError('NAME_NOT_FOUND', `${name} is not in the marketplace`);
    return {
      ...result,
      offers: offers.map((o) => ({
        id: o.id,
        ens_name_id: o.ens_name_id,
        buyer_address: o.buyer_address,
        offer_amount_wei: weiString(o.offer_amount_wei),
        currency_address: o.currency_address,
        ...currencyFields(o.currency_address),
        order_hash: o.order_hash,
        order_data: o.order_data,
        status: o.status,
        created_at: iso(o.created_at),
        expires_at: iso(o.expires_at),
        source: o.source,
        last_validated_at: iso(o.last_validated_at),
        unfunded_at: iso(o.unfunded_at),
        unfunded_reason: o.unfunded_reason,
        name: o.name,
        token_id: o.token_id,
      })),
    };
  }
}
