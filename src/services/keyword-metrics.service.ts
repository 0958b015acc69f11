import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { KeywordMetricsError, KeywordMetricsUnavailableError, type KeywordMetrics } from '../providers/keyword-metrics/index.js';
import { labelOfParam } from '../search/name-param.js';
import { findNameId } from '../search/query.js';
import { SingleFlight, tieredLookup, type Tiered } from '../search/tiered.js';

/** Database tier of keyword metrics (interface: "15 s plus 30 days in the database"). */
export const METRICS_TTL_SECONDS = 30 * 86_400;
/** Longest label after normalization (interface Limits: "at most 20 after normalization"). */
const MAX_LABEL = 20;

class NoProviderError extends KeywordMetricsError {}

/**
 * `meta` of a keyword-metrics answer: which provider serves metrics and, when `data` is null,
 * why, so "no provider configured" never reads like "Google has no data".
 */
export interface KeywordMetricsMeta {
  provider: string;
  reason?: 'no_provider' | 'provider_failed' | 'provider_unavailable' | 'unknown_name' | 'no_data';
}

/** GET /google-metrics/:name: keyword metrics of a label through the two cache tiers. */
export class KeywordMetricsService {
  private readonly flights = new SingleFlight();

  constructor(private readonly deps: Pick<Deps, 'cache' | 'db' | 'keywordMetrics' | 'logger'>) {}

  async forName(nameParam: string, signedIn: boolean): Promise<Tiered<KeywordMetrics | null> & { meta: KeywordMetricsMeta }> {
    const failure: { skipped: boolean } = { skipped: false };
    const answer = await this.lookup(nameParam, signedIn, failure);
    const provider = this.deps.keywordMetrics?.kind ?? 'none';
    if (answer.data !== null) return { ...answer, meta: { provider } };
    const failed = provider === 'none' ? 'no_provider' : failure.skipped ? 'provider_unavailable' : 'provider_failed';
    const reason = answer.emptyReason === 'unknown_name' ? 'unknown_name' : answer.emptyReason === 'provider_failed' ? failed : 'no_data';
    return { ...answer, meta: { provider, reason } };
  }

  private async lookup(nameParam: string, signedIn: boolean, failure: { skipped: boolean }): Promise<Tiered<KeywordMetrics | null>> {
    const label = labelOfParam(nameParam, { maxLength: MAX_LABEL });
    const { db, cache, keywordMetrics, logger } = this.deps;
    return tieredLookup<KeywordMetrics | null>(cache, this.flights, {
      key: `search:metrics:${label}`,
      empty: null,
      signedIn,
      readStored: async () => {
        const row = await db.selectFrom('keyword_metrics').select('metrics').where('label', '=', label).where('expires_at', '>', sql<Date>`now()`).executeTakeFirst();
        return row ? { value: (row.metrics as KeywordMetrics | null) ?? null } : undefined;
      },
      nameExists: async () => (await findNameId(db, `${label}.eth`)) !== undefined,
      fetchAndStore: async () => {
        if (!keywordMetrics) throw new NoProviderError('no keyword metrics provider is configured (GOOGLE_ADS_*)');
        const metrics = await keywordMetrics.fetch(label);
        const expiresAt = new Date(Date.now() + METRICS_TTL_SECONDS * 1000);
        const json = metrics === null ? null : JSON.stringify(metrics);
        await db
          .insertInto('keyword_metrics')
          .values({ label, metrics: json, expires_at: expiresAt })
          .onConflict((oc) => oc.column('label').doUpdateSet({ metrics: json, expires_at: expiresAt, fetched_at: sql<Date>`now()` }))
          .execute();
        return metrics;
      },
      isFailure: (e) => {
        if (!(e instanceof KeywordMetricsError)) return false;
        failure.skipped = e instanceof KeywordMetricsUnavailableError;
        // An open circuit was logged once when it opened; one line per skipped request would flood.
        if (!failure.skipped) logger.warn({ err: e, label }, 'keyword metrics unavailable');
        return true;
      },
    });
  }
}
