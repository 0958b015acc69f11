import { Type } from 'typebox';
import { EnsNameParam, described } from './common.js';
import { searchResultWith } from './search-result.js';

export const RECOMMENDATION_TYPES = ['also-viewed', 'similar-to-watchlist', 'based-on-votes', 'for-you'] as const;

/**
 * Where a recommended name came from: `collaborative` (people who viewed, watched or upvoted
 * what you did), `suggestions` (the suggestion generator on your names), `club` (names in the
 * clubs of your names), `trending` (this week's composite trend), `popular` (most upvoted),
 * `clubs` (names in the most clubs: the last resort, never empty while names are in clubs).
 */
export const RECOMMENDATION_SOURCES = ['collaborative', 'suggestions', 'club', 'trending', 'popular', 'clubs'] as const;

/** Weights of the for-you blend (the reference's 3 and 2, plus name views at 1). */
export const FOR_YOU_WEIGHTS = { watchlist_similarity: 3, vote_similarity: 2, view_similarity: 1 } as const;

const RecLimit = Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'names to return, 1 to 50' });
const Source = Type.Union([
  Type.Literal('collaborative'), Type.Literal('suggestions'), Type.Literal('club'), Type.Literal('trending'), Type.Literal('popular'), Type.Literal('clubs'),
], {
  description: 'where the name came from: collaborative (people who viewed, watched or upvoted what you did), suggestions (the suggestion ' +
    'generator on your names), club (names in the clubs of your names), trending (this week), popular (most upvoted), clubs (names in the most clubs)',
  examples: ['collaborative'],
});
const Kind = Type.Union([Type.Literal('also-viewed'), Type.Literal('similar-to-watchlist'), Type.Literal('based-on-votes'), Type.Literal('for-you')], { description: 'the kind of recommendation' });
const Count = (description: string, example: number) => Type.Optional(Type.Integer({ description, examples: [example] }));

export const RecommendationMetrics = Type.Object({
  type: { ...Kind, examples: ['also-viewed'] },
  source: Source,
  also_viewed_count: Count('also-viewed: viewer-days on this name by viewers of the target (last 30 days); 0 from a fallback', 25),
  shared_viewers_count: Count('also-viewed: viewers who viewed both; 0 from a fallback', 12),
  similarity_score: Count('similar-to-watchlist: the summed overlap (names in common with yours) of the watchers of this name', 15),
  common_watchers: Count('similar-to-watchlist: users with names in common with your watchlist who watch this one', 8),
  recommendation_score: Count('based-on-votes: the summed overlap (upvotes in common with yours) of the upvoters of this name', 12),
  similar_voters: Count('based-on-votes: users with upvotes in common with yours who upvoted this one', 6),
  personalized_score: Count('for-you: watchlist score × 3 + vote score × 2 + view score × 1; 0 from a fallback', 45),
}, { description: 'why the name is recommended' });

export const RecommendedName = searchResultWith({ recommendation_metrics: RecommendationMetrics });

export const RecommendationPage = Type.Object({
  names: Type.Array(RecommendedName, { description: 'collaborative names first (best first), then the fallbacks, at most `limit`' }),
  meta: Type.Object({
    type: Kind,
    limit: Type.Integer({ description: 'the limit asked for' }),
    sources: Type.Array(Source, { description: 'the sources the names came from, in order of preference' }),
    target_name: Type.Optional(Type.String({ description: 'also-viewed: the name asked about', examples: ['example.eth'] })),
    score_weights: Type.Optional(Type.Object({
      watchlist_similarity: Type.Integer({ description: 'weight of the watchlist score', examples: [3] }),
      vote_similarity: Type.Integer({ description: 'weight of the vote score', examples: [2] }),
      view_similarity: Type.Integer({ description: 'weight of the view score', examples: [1] }),
    }, { description: 'for-you: the weights of the blend' })),
  }, { description: 'about the recommendation' }),
});

export const LimitQuery = Type.Object({ limit: RecLimit });
export const AlsoViewedQuery = Type.Object({ name: described('the name to find related names for', EnsNameParam), limit: RecLimit });
export const AlsoViewedParams = Type.Object({ name: EnsNameParam });
