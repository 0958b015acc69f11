import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { cosine, OpenAiEmbeddings } from '../providers/llm/embeddings.js';
import { providerBreaker } from '../providers/breaker.js';
import { SuggestionError, type SuggestionGenerator } from '../providers/llm/index.js';
import { LocalSuggestionGenerator } from '../providers/llm/local.js';
import type { SearchResult } from '../contracts/search-result.js';
import { readEmbeddings, writeEmbeddings } from '../search/embedding-store.js';
import { checkSortNeeds, readFilters } from '../search/filters.js';
import { defaultOrderOf, idsAmongLabels, type Sort, type SortKey, type SortOrder } from '../search/query.js';
import { loadSearchResults } from '../search/results.js';
import { labelsContaining } from '../search/semantic-candidates.js';
import { readSuggestions, writeSuggestions } from '../search/suggestion-store.js';
import { RELATED_COUNT, RELATED_TTL_SECONDS } from './related.service.js';

const MIN_QUERY = 2;
const OWN_KEYS = ['q', 'page', 'limit', 'sortBy', 'sortOrder'];
/** Compounds of the phrase's words taken as candidates besides the expansions: the bound of the set. */
const COMPOUND_CANDIDATES = 200;
/** Words that say what is asked for, not what about: "names about the ocean" is about "ocean". */
const STOPWORDS = new Set([
  'a', 'an', 'the', 'of', 'for', 'about', 'with', 'and', 'or', 'to', 'in', 'on', 'like', 'that', 'are', 'is',
  'name', 'names', 'domain', 'domains', 'ens', 'eth', 'word', 'words', 'related', 'some', 'me', 'find', 'show',
]);

export type SemanticProvider = 'openai-compatible' | 'local-wordnet';
export type SemanticRanking = 'embeddings' | 'expansions' | 'sort';

export interface SemanticQuery {
  q: string;
  page: number;
  limit: number;
  sortBy?: SortKey | 'relevance';
  sortOrder?: SortOrder;
  [filter: string]: unknown;
}

export interface SemanticPage {
  results: SearchResult[];
  pagination: PageB;
  expansionsCount: number;
  semanticTotal: number;
  provider: SemanticProvider;
  ranking: SemanticRanking;
}

/** The words of a phrase that carry its meaning, lower case, in order, once each. */
export function topicWords(q: string): string[] {
  const words = q.toLowerCase().replace(/\.eth\b/g, ' ').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const topical = words.filter((w) => !STOPWORDS.has(w));
  return [...new Set(topical.length > 0 ? topical : words)];
}

/**
 * GET /ai/search/semantic: a phrase → names that exist. The phrase's topic words are expanded into
 * about 30 associated words (the model server's chat when LLM_BASE_URL is set, else the embedded
 * WordNet generator; kept 30 days in the database like related search's). Candidates are the names
 * whose label is a topic word or an expansion, and up to 200 compounds containing a topic word.
 * With a model server they are ranked by cosine similarity of their label's embedding to the
 * phrase's (vectors stored per model in label_embeddings, so each label is embedded once); without
 * one, exact topic words first, then the expansions in the generator's order, then compounds.
 * When the model server fails (or its circuit breaker skips it), the embedded WordNet generator
 * expands the phrase instead (`provider: local-wordnet`, not stored) and the expansion order ranks.
 */
export class SemanticSearchService {
  private readonly embeddings: OpenAiEmbeddings | undefined;
  /** The fallback expander when the model server fails; the configured generator when it is the embedded one. */
  private readonly local: SuggestionGenerator;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'suggestions'>) {
    const { config, logger } = deps;
    const { llm } = config;
    this.embeddings = llm.baseUrl
      ? new OpenAiEmbeddings({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.embeddingModel, timeoutMs: llm.timeoutMs, breaker: providerBreaker('model server embeddings', config, logger) })
      : undefined;
    this.local = deps.suggestions.kind === 'local-wordnet' ? deps.suggestions : new LocalSuggestionGenerator();
  }

  async search(query: SemanticQuery, viewer: { id: number } | null): Promise<SemanticPage> {
    const phrase = query.q.trim().replace(/\s+/g, ' ').toLowerCase();
    if ([...phrase].length < MIN_QUERY) throw new AppError('VALIDATION_ERROR', `query.q needs at least ${MIN_QUERY} characters`, { field: 'query.q' });
    const filters = readFilters(query, OWN_KEYS);
    checkSortNeeds(query.sortBy, filters);
    const sort: Sort | undefined = query.sortBy && query.sortBy !== 'relevance' ? { by: query.sortBy, order: query.sortOrder ?? defaultOrderOf(query.sortBy) } : undefined;
    const { db, config } = this.deps;

    const topic = topicWords(phrase);
    const { words: expansions, provider } = await this.expansions(topic.join(' '), viewer);
    const compounds = await labelsContaining(db, topic, COMPOUND_CANDIDATES);
    const labels = [...new Set([...topic, ...expansions, ...compounds])];

    const ctx = { now: new Date(), gracePeriodDays: config.gracePeriodDays, premiumPeriodDays: config.premiumPeriodDays };
    let ids = await idsAmongLabels(db, labels, filters, sort, ctx);
    let ranking: SemanticRanking = sort ? 'sort' : 'expansions';
    if (!sort && this.embeddings && provider === 'openai-compatible' && ids.length > 1) {
      const ranked = await this.rankByMeaning(phrase, ids);
      if (ranked) {
        ids = ranked;
        ranking = 'embeddings';
      }
    }
    const offset = offsetOf(query.page, query.limit);
    return {
      results: await loadSearchResults(db, ids.slice(offset, offset + query.limit), viewer?.id),
      pagination: pageB(query.page, query.limit, ids.length),
      expansionsCount: expansions.length,
      semanticTotal: ids.length,
      provider,
      ranking,
    };
  }

  /**
   * Associated words of the topic, from the database tier or generated. Only generation by the
   * model server needs a signed-in caller (it costs money); the embedded generator answers anyone.
   */
  private async expansions(topic: string, viewer: { id: number } | null): Promise<{ words: string[]; provider: SemanticProvider }> {
    const { db, suggestions, logger } = this.deps;
    const provider: SemanticProvider = suggestions.kind === 'local-wordnet' ? 'local-wordnet' : 'openai-compatible';
    const stored = await readSuggestions(db, 'semantic', topic);
    if (stored) return { words: stored, provider };
    if (!viewer && provider !== 'local-wordnet') throw new AppError('UNAUTHORIZED', 'Not cached yet: sign in to expand this search');
    const request = { purpose: 'related' as const, text: topic, clubs: [], count: RELATED_COUNT };
    try {
      const generated = await suggestions.suggest(request);
      await writeSuggestions(db, 'semantic', topic, generated, RELATED_TTL_SECONDS);
      return { words: generated, provider };
    } catch (e) {
      if (!(e instanceof SuggestionError)) throw e;
      if (provider === 'local-wordnet') {
        logger.warn({ err: e, topic }, 'semantic expansions could not be generated');
        return { words: [], provider };
      }
      logger.warn({ err: e, topic }, 'semantic expansions fell back to the embedded WordNet generator');
    }
    // Not stored: the model server's own expansions replace these once it answers again.
    const fallback = await this.local.suggest(request).catch((e: unknown) => {
      if (!(e instanceof SuggestionError)) throw e;
      return [];
    });
    return { words: fallback, provider: 'local-wordnet' };
  }

  /** The ids ordered by their label's similarity to the phrase; undefined when the model fails. */
  private async rankByMeaning(phrase: string, ids: readonly number[]): Promise<number[] | undefined> {
    const model = this.embeddings!;
    const { db, logger } = this.deps;
    const rows = await db.selectFrom('ens_names').select(['id', 'label']).where('id', 'in', [...ids]).execute();
    const texts = [...new Set([phrase, ...rows.map((r) => r.label)])];
    const vectors = await readEmbeddings(db, model.model, texts);
    const missing = texts.filter((t) => !vectors.has(t));
    if (missing.length > 0) {
      try {
        const fresh = await model.embed(missing);
        const added = new Map(missing.map((t, i) => [t, fresh[i]]));
        await writeEmbeddings(db, model.model, added);
        for (const [t, v] of added) vectors.set(t, v);
      } catch (e) {
        if (!(e instanceof SuggestionError)) throw e;
        logger.warn({ err: e }, 'semantic ranking fell back to the expansion order');
        return undefined;
      }
    }
    const target = vectors.get(phrase)!;
    const score = new Map(rows.map((r) => [r.id, cosine(target, vectors.get(r.label)!)]));
    return [...ids].sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0) || a - b);
  }
}
