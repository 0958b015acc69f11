import type pg from 'pg';
import type { Logger } from 'pino';
import type { PublicClient } from 'viem';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Cache } from './infra/cache.js';
import type { RedisLink } from './infra/redis.js';
import type { JobQueue } from './jobs/queue.js';
import type { KeywordMetricsProvider } from './providers/keyword-metrics/index.js';
import type { SuggestionGenerator } from './providers/llm/index.js';
import type { MailProvider } from './providers/mail/mail.provider.js';

/** Everything a route, service or job needs from the outside world. */
export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly pool: pg.Pool;
  readonly db: Db;
  readonly cache: Cache;
  /** Present when REDIS_URL is set: shared cache and rate-limit store (in-process while Redis is away). */
  readonly redis: RedisLink | undefined;
  readonly jobs: JobQueue;
  /** Present when ETH_RPC_URL is set: EIP-1271 signatures, balances, chain events. */
  readonly rpc: PublicClient | undefined;
  /** SMTP over SMTP_URL, else `.eml` files under DATA_DIR/mail. */
  readonly mail: MailProvider;
  /** Name suggestions: the model server at LLM_BASE_URL, else the embedded WordNet generator. */
  readonly suggestions: SuggestionGenerator;
  /** Google Ads keyword metrics when GOOGLE_ADS_* are set, else undefined. */
  readonly keywordMetrics: KeywordMetricsProvider | undefined;
}
