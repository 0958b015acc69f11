import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { providerBreaker } from '../breaker.js';
import { GoogleAdsKeywordMetrics } from './google-ads.js';
import type { KeywordMetricsProvider } from './types.js';

export type { KeywordMetrics, KeywordMetricsProvider } from './types.js';
export { KeywordMetricsError, KeywordMetricsUnavailableError } from './types.js';

/** Google Ads when its credentials are all configured; otherwise none (every fetch is a provider failure). */
export function createKeywordMetricsProvider(config: Config, logger?: Logger): KeywordMetricsProvider | undefined {
  const g = config.googleAds;
  if (!g.developerToken || !g.clientId || !g.clientSecret || !g.refreshToken || !g.customerId) return undefined;
  return new GoogleAdsKeywordMetrics({
    baseUrl: g.baseUrl,
    tokenUrl: g.tokenUrl,
    developerToken: g.developerToken,
    clientId: g.clientId,
    clientSecret: g.clientSecret,
    refreshToken: g.refreshToken,
    customerId: g.customerId,
    loginCustomerId: g.loginCustomerId,
    timeoutMs: g.timeoutMs,
    breaker: providerBreaker('keyword metrics provider', config, logger),
    logger,
  });
}
