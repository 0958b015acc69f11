import type { RawBuilder } from 'kysely';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { checkSortNeeds, normalizeQuery, readFilters } from '../search/filters.js';
import { defaultOrderOf, RESULT_WINDOW, searchPage, type Sort, type SortKey, type SortOrder } from '../search/query.js';
import type { RawJson } from '../lib/raw-json.js';
import { ResultReader, type ResultJson } from '../search/results.js';

const OWN_KEYS = ['q', 'page', 'limit', 'sortBy', 'sortOrder'];

export interface SearchQuery {
  q?: string;
  page: number;
  limit: number;
  sortBy?: SortKey | 'relevance';
  sortOrder?: SortOrder;
  [filter: string]: unknown;
}

export interface SearchPage<Results = ResultJson[]> {
  results: Results;
  pagination: PageB;
  sort: { by: SortKey | 'relevance'; order: SortOrder };
  /** True when more names match than the window (10,000): `total` is then 10,000. */
  totalCapped: boolean;
}

/** Global search and the name page. */
export class SearchService {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'cache'>) {}

  /**
   * A page of global search, its results one by one (to match or annotate). `scope` narrows the
   * names searched (a watchlist) and names the query keys that are not filters; everything else
   * (filters, sorts, window, counts) is global search's.
   */
  async search(query: SearchQuery, viewer: { id: number } | null, scope: { where?: RawBuilder<unknown>[]; ownKeys?: string[] } = {}): Promise<SearchPage> {
    const { reader, ...found } = await this.find(query, scope);
    return { ...found, results: await reader.results(this.deps.db, viewer?.id) };
  }

  /** A page of global search, its results as one JSON array (ResultReader.page: kept while unchanged, for an anonymous caller). */
  async page(query: SearchQuery, viewer: { id: number } | null): Promise<SearchPage<RawJson>> {
    const { reader, ...found } = await this.find(query, {});
    return { ...found, results: await reader.page(this.deps.db, { viewerId: viewer?.id, shape: 'search' }) };
  }

  private async find(query: SearchQuery, scope: { where?: RawBuilder<unknown>[]; ownKeys?: string[] }): Promise<Omit<SearchPage, 'results'> & { reader: ResultReader }> {
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
    const reader = new ResultReader();
    const found = await searchPage(
      db,
      { q: q === '' ? undefined : q, filters, sort: relevance ? 'relevance' : sort, offset, limit, extra: scope.where, counts: { cache } },
      { now: new Date(), gracePeriodDays: config.gracePeriodDays, premiumPeriodDays: config.premiumPeriodDays },
      reader.read,
    );
    return {
      reader,
      pagination: pageB(page, limit, found.total),
      sort: relevance ? { by: 'relevance', order: 'desc' } : sort,
      totalCapped: found.capped,
    };
  }
}
