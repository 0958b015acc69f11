import type { Deps } from '../deps.js';
import { FOR_YOU_WEIGHTS, RECOMMENDATION_SOURCES, type RECOMMENDATION_TYPES } from '../contracts/recommendations.js';
import { AppError, isAppError } from '../errors.js';
import { cached } from '../infra/cache.js';
import { loadSearchResults, type ResultJson } from '../search/results.js';
import { nameIdOf } from './comments.service.js';
import { RecommendationsService } from './recommendations.service.js';
import {
  alsoViewed, clubMates, coUpvoted, coWatched, idsOfNames, popular, recentlyViewed, userSeeds, type Candidate,
} from './recommendation-signals.js';

export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number];
export type RecommendationSource = (typeof RECOMMENDATION_SOURCES)[number];

/** Seconds a user's (or, for also-viewed, a name's) ranking is kept; results are loaded per request. */
export const RECOMMENDATION_CACHE_SECONDS = 30;
/** Seed names the suggestion generator is asked about (each a cached or stored answer after its first time). */
const SUGGESTION_SEEDS = 2;

interface Ranked {
  id: number;
  source: RecommendationSource;
  score: number;
  peers: number;
}

export interface RecommendationMetrics {
  type: RecommendationType;
  source: RecommendationSource;
  also_viewed_count?: number;
  shared_viewers_count?: number;
  similarity_score?: number;
  common_watchers?: number;
  recommendation_score?: number;
  similar_voters?: number;
  personalized_score?: number;
}

/** A standard search result (JSON text) with its `recommendation_metrics`. */
export type RecommendedName = ResultJson;

export interface RecommendationPage {
  names: RecommendedName[];
  meta: { type: RecommendationType; limit: number; sources: RecommendationSource[]; target_name?: string; score_weights?: typeof FOR_YOU_WEIGHTS };
}

function metricsOf(type: RecommendationType, r: Ranked): RecommendationMetrics {
  switch (type) {
    case 'also-viewed': return { type, source: r.source, also_viewed_count: r.score, shared_viewers_count: r.peers };
    case 'similar-to-watchlist': return { type, source: r.source, similarity_score: r.score, common_watchers: r.peers };
    case 'based-on-votes': return { type, source: r.source, recommendation_score: r.score, similar_voters: r.peers };
    case 'for-you': return { type, source: r.source, personalized_score: r.score };
  }
}

const collaborative = (list: Candidate[]): Ranked[] => list.map((c) => ({ ...c, source: 'collaborative' }));

/**
 * Personal recommendations. Each kind ranks collaborative candidates first, then fills what is
 * left of `limit` from fallbacks that need no history of anyone: the suggestion generator and the
 * clubs of the caller's own names, then trending, popular and club names. So a new user, or a
 * name nobody viewed yet, still gets a useful answer, and every name says where it came from.
 * Rankings (ids, scores, sources) are cached 30 s per user; results are loaded per request.
 */
export class PersonalRecommendationService {
  private readonly similar: RecommendationsService;

  constructor(private readonly deps: Pick<Deps, 'cache' | 'db' | 'logger' | 'suggestions'>) {
    this.similar = new RecommendationsService(deps);
  }

  /** `field` names where the name was sent (`params.name` or `query.name`) for a 400. */
  async alsoViewed(nameParam: string, field: string, limit: number, viewerId: number | undefined): Promise<RecommendationPage> {
    const target = await nameIdOf(this.deps.db, nameParam, field);
    const ranked = await cached(this.deps.cache, `recs:also-viewed:${target.id}:${viewerId ?? '-'}:${limit}`, RECOMMENDATION_CACHE_SECONDS, async () => {
      const peers = collaborative(await alsoViewed(this.deps.db, [target.id], limit, viewerId === undefined ? undefined : `u:${viewerId}`));
      return this.fill(peers, limit, [target.id], [target.id], viewerId !== undefined);
    });
    return this.page('also-viewed', ranked, limit, viewerId, undefined, { target_name: target.name });
  }

  async similarToWatchlist(user: { id: number; address: string }, limit: number): Promise<RecommendationPage> {
    const ranked = await cached(this.deps.cache, `recs:watchlist:${user.id}:${limit}`, RECOMMENDATION_CACHE_SECONDS, async () => {
      const seeds = await userSeeds(this.deps.db, user.id);
      return this.fill(collaborative(await coWatched(this.deps.db, user.id, limit)), limit, seeds.watched, seeds.watched, true);
    });
    return this.page('similar-to-watchlist', ranked, limit, user.id, user.address);
  }

  async basedOnVotes(user: { id: number; address: string }, limit: number): Promise<RecommendationPage> {
    const ranked = await cached(this.deps.cache, `recs:votes:${user.id}:${limit}`, RECOMMENDATION_CACHE_SECONDS, async () => {
      const seeds = await userSeeds(this.deps.db, user.id);
      const voted = await this.votedOn(user.id);
      return this.fill(collaborative(await coUpvoted(this.deps.db, user.id, limit)), limit, seeds.upvoted, voted, true);
    });
    return this.page('based-on-votes', ranked, limit, user.id, user.address);
  }

  /** Watchlist overlap ×3, vote overlap ×2, views ×1, summed per name; then the fallbacks. */
  async forYou(user: { id: number; address: string }, limit: number): Promise<RecommendationPage> {
    const ranked = await cached(this.deps.cache, `recs:for-you:${user.id}:${limit}`, RECOMMENDATION_CACHE_SECONDS, async () => {
      const { db } = this.deps;
      const [seeds, viewed] = await Promise.all([userSeeds(db, user.id), recentlyViewed(db, `u:${user.id}`)]);
      const pool = limit * 3;
      const [watch, votes, views] = await Promise.all([coWatched(db, user.id, pool), coUpvoted(db, user.id, pool), alsoViewed(db, viewed, pool, `u:${user.id}`)]);
      const blended = new Map<number, Ranked>();
      const add = (list: Candidate[], weight: number) => {
        for (const c of list) {
          const r = blended.get(c.id) ?? { id: c.id, source: 'collaborative' as const, score: 0, peers: 0 };
          r.score += weight * c.score;
          r.peers += c.peers;
          blended.set(c.id, r);
        }
      };
      add(watch, FOR_YOU_WEIGHTS.watchlist_similarity);
      add(votes, FOR_YOU_WEIGHTS.vote_similarity);
      add(views, FOR_YOU_WEIGHTS.view_similarity);
      const own = [...new Set([...seeds.watched, ...seeds.upvoted, ...viewed])];
      const exclude = [...new Set([...own, ...(await this.votedOn(user.id))])];
      const sorted = [...blended.values()].filter((r) => !exclude.includes(r.id)).sort((a, b) => b.score - a.score || b.peers - a.peers || a.id - b.id);
      return this.fill(sorted, limit, own, exclude, true);
    });
    return this.page('for-you', ranked, limit, user.id, user.address, { score_weights: FOR_YOU_WEIGHTS });
  }

  private async votedOn(userId: number): Promise<number[]> {
    const rows = await this.deps.db.selectFrom('votes').select('ens_name_id').where('user_id', '=', userId).limit(1000).execute();
    return rows.map((r) => r.ens_name_id);
  }

  /**
   * `ranked` topped up to `limit` (plus a margin for the caller's own names, dropped later):
   * suggestions for the first seeds, their club-mates, then trending, popular and club names.
   */
  private async fill(ranked: Ranked[], limit: number, seeds: number[], exclude: number[], signedIn: boolean): Promise<Ranked[]> {
    const want = limit + 10;
    const out = ranked.slice(0, want);
    const taken = new Set([...exclude, ...out.map((r) => r.id)]);
    const take = (ids: number[], source: RecommendationSource) => {
      for (const id of ids) {
        if (out.length >= want) return;
        if (taken.has(id)) continue;
        taken.add(id);
        out.push({ id, source, score: 0, peers: 0 });
      }
    };
    if (out.length < want && seeds.length > 0) take(await this.suggested(seeds.slice(0, SUGGESTION_SEEDS), signedIn), 'suggestions');
    if (out.length < want && seeds.length > 0) take(await clubMates(this.deps.db, seeds.slice(0, 10), want), 'club');
    if (out.length < want) {
      const p = await popular(this.deps.db, want);
      take(p.trending, 'trending');
      take(p.voted, 'popular');
      take(p.clubs, 'clubs');
    }
    return out;
  }

  /** Stored names the suggestion generator proposes for the seeds (its cache and database tiers apply). */
  private async suggested(seedIds: number[], signedIn: boolean): Promise<number[]> {
    const names = await this.deps.db.selectFrom('ens_names').select('name').where('id', 'in', seedIds).execute();
    const suggestions: string[] = [];
    for (const { name } of names) {
      try {
        suggestions.push(...(await this.similar.forName(name, signedIn)).data.suggestions);
      } catch (e) {
        // A label too short for the generator, or a miss an anonymous caller may not fill: no suggestions.
        if (!isAppError(e)) this.deps.logger.warn({ err: e, name }, 'suggestions for recommendations failed');
      }
    }
    return idsOfNames(this.deps.db, [...new Set(suggestions)]);
  }

  private async page(
    type: RecommendationType, ranked: Ranked[], limit: number, viewerId: number | undefined, ownerAddress: string | undefined,
    extra: Partial<RecommendationPage['meta']> = {},
  ): Promise<RecommendationPage> {
    // the margin past `limit` (fill) stands in for the caller's own names, which only a page for an owner drops
    const shown = ownerAddress === undefined ? ranked.slice(0, limit) : ranked;
    const results = await loadSearchResults(this.deps.db, shown.map((r) => r.id), viewerId);
    const byId = new Map(ranked.map((r) => [r.id, r]));
    const picked = results
      .filter((r) => ownerAddress === undefined || r.owner !== ownerAddress)
      .slice(0, limit)
      .map((r) => {
        const rank = byId.get(r.id);
        if (!rank) throw new AppError('INTERNAL_ERROR', 'ranked name lost');
        return { result: r, metrics: metricsOf(type, rank) };
      });
    const sources = RECOMMENDATION_SOURCES.filter((s) => picked.some((p) => p.metrics.source === s));
    return { names: picked.map((p) => p.result.with({ recommendation_metrics: p.metrics })), meta: { type, limit, sources, ...extra } };
  }
}
