/** What a suggestion is for: names related to a search text, or names similar to one name. */
export type SuggestionPurpose = 'related' | 'recommendations';

export interface SuggestionRequest {
  purpose: SuggestionPurpose;
  /** The normalized search text (related) or the normalized label (recommendations). */
  text: string;
  /** Clubs the name belongs to (recommendations): context for the generator. */
  clubs: readonly string[];
  /** How many suggestions to aim for. */
  count: number;
}

/**
 * Generates name suggestions. Implementations return normalized .eth labels (no suffix), unique,
 * without the request's own label, at most `count`; they throw SuggestionError when they cannot.
 */
export interface SuggestionGenerator {
  /** `openai-compatible` or `local-wordnet`: shown in logs and the README. */
  readonly kind: string;
  suggest(request: SuggestionRequest): Promise<string[]>;
  close(): Promise<void>;
}

export class SuggestionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SuggestionError';
  }
}
