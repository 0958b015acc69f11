/** The interface document's Keyword metrics resource. */
export interface KeywordMetrics {
  avgMonthlySearches: number;
  /** Average cost per click in the account's currency units. */
  avgCpc: number;
  /** Monthly search volumes, oldest first. */
  monthlyTrend: number[];
  /** Google's competition level: LOW, MEDIUM, HIGH, or UNSPECIFIED / UNKNOWN when it has none. */
  competition: string;
}

/** Fetches metrics for one keyword: null when the provider has no data for it; throws KeywordMetricsError on failure. */
export interface KeywordMetricsProvider {
  readonly kind: string;
  fetch(keyword: string): Promise<KeywordMetrics | null>;
}

export class KeywordMetricsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeywordMetricsError';
  }
}

/** The provider was not called: its circuit breaker skips it after repeated failures. */
export class KeywordMetricsUnavailableError extends KeywordMetricsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeywordMetricsUnavailableError';
  }
}
