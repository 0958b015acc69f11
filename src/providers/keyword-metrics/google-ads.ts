import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { Logger } from 'pino';
import { CircuitOpenError, type CircuitBreaker } from '../../lib/circuit-breaker.js';
import { KeywordMetricsError, KeywordMetricsUnavailableError, type KeywordMetrics, type KeywordMetricsProvider } from './types.js';

export interface GoogleAdsOptions {
  baseUrl: string;
  tokenUrl: string;
  developerToken: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  customerId: string;
  loginCustomerId: string | undefined;
  /** Time budget of one lookup: token renewal and the retry included. */
  timeoutMs: number;
  /** Guards Google Ads: after repeated failures, lookups fail at once for a while. */
  breaker: CircuitBreaker;
  logger?: Logger;
}

// Int64 fields arrive as decimal strings in the REST JSON encoding.
const Int64 = Type.Union([Type.String({ pattern: '^-?[0-9]+$' }), Type.Integer()]);

const TokenResponse = Type.Object({ access_token: Type.String({ minLength: 1 }), expires_in: Type.Optional(Type.Number()) });

const HistoricalMetricsResponse = Type.Object({
  results: Type.Optional(Type.Array(Type.Object({
    text: Type.Optional(Type.String()),
    keywordMetrics: Type.Optional(Type.Object({
      avgMonthlySearches: Type.Optional(Int64),
      competition: Type.Optional(Type.String()),
      averageCpcMicros: Type.Optional(Int64),
      monthlySearchVolumes: Type.Optional(Type.Array(Type.Object({
        month: Type.Optional(Type.String()),
        year: Type.Optional(Int64),
        monthlySearches: Type.Optional(Int64),
      }))),
    })),
  }))),
});
type HistoricalMetrics = NonNullable<NonNullable<Static<typeof HistoricalMetricsResponse>['results']>[number]['keywordMetrics']>;

const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];
const RETRY_DELAY_MS = 300;

class HttpError extends Error {
  constructor(readonly status: number, what: string) {
    super(`${what} answered HTTP ${status}`);
  }
}

/**
 * Keyword metrics from the Google Ads API over REST:
 * `POST {baseUrl}/customers/{customerId}:generateKeywordHistoricalMetrics`, authorised by an
 * OAuth access token obtained from the refresh token (kept until shortly before it expires) and
 * the developer token. One retry on a network error, 429 or 5xx and one token renewal on a 401,
 * all within one time budget. While the circuit breaker is open Google is not called.
 */
export class GoogleAdsKeywordMetrics implements KeywordMetricsProvider {
  readonly kind = 'google-ads';
  private token: { value: string; expiresAt: number } | undefined;

  constructor(private readonly options: GoogleAdsOptions) {}

  async fetch(keyword: string): Promise<KeywordMetrics | null> {
    try {
      return await this.options.breaker.run(() => this.attempts(keyword), isOutage);
    } catch (e) {
      if (e instanceof CircuitOpenError) throw new KeywordMetricsUnavailableError(e.message, { cause: e });
      throw e;
    }
  }

  private async attempts(keyword: string): Promise<KeywordMetrics | null> {
    const deadline = Date.now() + this.options.timeoutMs;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request(keyword, signal);
      } catch (e) {
        if (e instanceof HttpError && e.status === 401 && !renewed) {
          this.token = undefined;
          renewed = true;
          continue;
        }
        const transient = !(e instanceof HttpError) || e.status === 429 || e.status >= 500;
        const noTimeLeft = signal.aborted || Date.now() + RETRY_DELAY_MS >= deadline;
        if (!transient || attempt >= 2 || noTimeLeft || e instanceof KeywordMetricsError) {
          throw e instanceof KeywordMetricsError ? e : new KeywordMetricsError('keyword metrics request failed', { cause: e });
        }
        this.options.logger?.warn({ err: e }, 'keyword metrics request failed, retrying');
        await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
      }
    }
  }

  private async request(keyword: string, signal: AbortSignal): Promise<KeywordMetrics | null> {
    const o = this.options;
    const customer = o.customerId.replace(/-/g, '');
    const headers: Record<string, string> = {
      authorization: `Bearer ${await this.accessToken(signal)}`,
      'developer-token': o.developerToken,
      'content-type': 'application/json',
    };
    if (o.loginCustomerId) headers['login-customer-id'] = o.loginCustomerId.replace(/-/g, '');
    const res = await fetch(`${o.baseUrl.replace(/\/$/, '')}/customers/${customer}:generateKeywordHistoricalMetrics`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ keywords: [keyword], keywordPlanNetwork: 'GOOGLE_SEARCH', historicalMetricsOptions: { includeAverageCpc: true } }),
      signal,
    });
    if (!res.ok) throw new HttpError(res.status, 'Google Ads');
    const body: unknown = await res.json();
    if (!Value.Check(HistoricalMetricsResponse, body)) throw new KeywordMetricsError('Google Ads answered in an unexpected shape');
    const results = body.results ?? [];
    const match = results.find((r) => r.text?.toLowerCase() === keyword.toLowerCase()) ?? results[0];
    return match?.keywordMetrics ? toMetrics(match.keywordMetrics) : null;
  }

  private async accessToken(signal: AbortSignal): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const o = this.options;
    const res = await fetch(o.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: o.clientId, client_secret: o.clientSecret, refresh_token: o.refreshToken }),
      signal,
    });
    if (!res.ok) throw new HttpError(res.status, 'OAuth token endpoint');
    const body: unknown = await res.json();
    if (!Value.Check(TokenResponse, body)) throw new KeywordMetricsError('OAuth token endpoint answered in an unexpected shape');
    const lifetimeMs = (body.expires_in ?? 3600) * 1000;
    this.token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, lifetimeMs - 60_000) };
    return body.access_token;
  }
}

/** A 400 refuses this keyword, not the service: the provider is up. */
function isOutage(e: unknown): boolean {
  return !(e instanceof KeywordMetricsError && e.cause instanceof HttpError && e.cause.status === 400);
}

/**
 * Google's metrics in our shape. Fields Google leaves out are its zero values (proto3 JSON omits
 * them); CPC micros become currency units; the monthly volumes run oldest first.
 */
export function toMetrics(m: HistoricalMetrics): KeywordMetrics {
  const months = (m.monthlySearchVolumes ?? [])
    .map((v) => ({ at: Number(v.year ?? 0) * 12 + Math.max(0, MONTHS.indexOf(v.month ?? '')), searches: Number(v.monthlySearches ?? 0) }))
    .sort((a, b) => a.at - b.at);
  return {
    avgMonthlySearches: Number(m.avgMonthlySearches ?? 0),
    avgCpc: Number(m.averageCpcMicros ?? 0) / 1_000_000,
    monthlyTrend: months.map((v) => v.searches),
    competition: m.competition ?? 'UNSPECIFIED',
  };
}
