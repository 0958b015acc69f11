import { createHash } from 'node:crypto';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { SuggestionError } from '../providers/llm/index.js';
import type { SearchResult } from '../contracts/search-result.js';
import { checkSortNeeds, normalizeQuery, readFilters } from '../search/filters.js';
import { defaultOrderOf, idsAmongLabels, type Sort, type SortKey, type SortOrder } from '../search/query.js';
import { loadSearchResults } from '../search/results.js';
import { readSuggestions, writeSuggestions } from '../search/suggestion-store.js';
import { RESPONSE_CACHE_SECONDS, SingleFlight, tieredLookup, type CacheState } from '../search/tiered.js';

/** Database tier of related-search suggestions (interface: "30 days for suggestions"). */
export const RELATED_TTL_SECONDS = 30 * 86_400;
/** Suggestions per generation (interface Limits: "about 30"). */
export const RELATED_COUNT = 30;
const MIN_QUERY = 2;
const OWN_KEYS = ['q', 'page', 'limit', 'sortBy', 'sortOrder'];

export interface RelatedQuery {
  q: string;
  page: number;
  limit: number;
  sortBy?: SortKey | 'relevance';
  sortOrder?: SortOrder;
  [filter: string]: unknown;
}

export interface RelatedPage {
  results: SearchResult[];
  pagination: PageB;
  suggestionsCount: number;
  cache: CacheState;
  /** Seconds a client may keep it; undefined when the generation failed (not cached). */
  maxAgeSeconds: number | undefined;
}

/** The caller-independent part of a page, shared by every caller for 15 s. */
interface IdPage {
  ids: number[];
  total: number;
  suggestionsCount: number;
}

/** GET /ai/search/related: suggestions for a text, matched exactly against the names we have. */
export class RelatedSearchService {
  /** Concurrent misses of one page share its lookup; of one text, its generation. */
  private readonly pages = new SingleFlight();
  private readonly generations = new SingleFlight();

  constructor(private readonly deps: Pick<Deps, 'cache' | 'config' | 'db' | 'logger' | 'suggestions'>) {}

  async search(query: RelatedQuery, viewer: { id: number } | null): Promise<RelatedPage> {
    const q = normalizeQuery(query.q);
    if ([...q].length < MIN_QUERY) throw new AppError('VALIDATION_ERROR', `query.q needs at least ${MIN_QUERY} characters`, { field: 'query.q' });
    const filters = readFilters(query, OWN_KEYS);
    checkSortNeeds(query.sortBy, filters);
    const sort: Sort | undefined = query.sortBy && query.sortBy !== 'relevance' ? { by: query.sortBy, order: query.sortOrder ?? defaultOrderOf(query.sortBy) } : undefined;
    const { page, limit } = query;
    const { db, cache, config, suggestions, logger } = this.deps;

    const ctx = { now: new Date(), gracePeriodDays: config.gracePeriodDays, premiumPeriodDays: config.premiumPeriodDays };
    const pageOf = async (labels: string[]): Promise<IdPage> => {
      const all = await idsAmongLabels(db, labels, filters, sort, ctx);
      const offset = offsetOf(page, limit);
      return { ids: all.slice(offset, offset + limit), total: all.length, suggestionsCount: labels.length };
    };

    const found = await tieredLookup<IdPage>(cache, this.pages, {
      key: `search:related:${digest({ q, filters, sort, page, limit })}`,
      async readStored() {
        const labels = await readSuggestions(db, 'related', q);
        return labels === undefined ? undefined : { value: await pageOf(labels) };
      },
      empty: { ids: [], total: 0, suggestionsCount: 0 },
      signedIn: viewer !== null,
      missAction: 'generate suggestions for this search',
      fetchAndStore: async () => {
        // one generation per text, whatever page, filter or sort asked for it
        const labels = await this.generations.run(q, async () => {
          const generated = await suggestions.suggest({ purpose: 'related', text: q, clubs: [], count: RELATED_COUNT });
          await writeSuggestions(db, 'related', q, generated, RELATED_TTL_SECONDS);
          return generated;
        });
        return pageOf(labels);
      },
      isFailure(e) {
        if (!(e instanceof SuggestionError)) return false;
        logger.warn({ err: e, q }, 'related suggestions could not be generated');
        return true;
      },
    });

    return {
      results: await loadSearchResults(db, found.data.ids, viewer?.id),
      pagination: pageB(page, limit, found.data.total),
      suggestionsCount: found.data.suggestionsCount,
      cache: found.cache,
      // related search has always said 15 s on a hit, where the other tiers count down what is left
      maxAgeSeconds: found.maxAgeSeconds === undefined ? undefined : RESPONSE_CACHE_SECONDS,
    };
  }
}

function digest(value: unknown): string {
  const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return createHash('sha256').update(json).digest('base64url').slice(0, 32);
}
