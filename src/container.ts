import path from 'node:path';
import { Redis } from 'ioredis';
import PgBoss from 'pg-boss';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { createDb, createPool, migrateToLatest } from './db/client.js';
import { checkShapes } from './db/shapes.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { syncCurrencies } from './db/repositories/currencies.repository.js';
import { FallbackCache, MemoryCache } from './infra/cache.js';
import { RedisLink } from './infra/redis.js';
import { jobDefinitions } from './jobs/index.js';
import { JobQueue } from './jobs/queue.js';
import { createQueues, startWorkers } from './jobs/registry.js';
import { createMailProvider } from './providers/mail/mail.provider.js';
import { createSuggestionGenerator } from './providers/llm/index.js';
import { createKeywordMetricsProvider } from './providers/keyword-metrics/index.js';
import { createRpcClient } from './providers/rpc/client.js';

export interface Container extends Deps {
  /** The PostgreSQL this container uses: DATABASE_URL, or the embedded server's. */
  readonly databaseUrl: string;
  /** Starts the job workers (and their schedules) in this process. */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
}

export interface ContainerOptions {
  logger?: Logger;
  /**
   * The embedded PostgreSQL of DATA_DIR already runs in another live process: `use` it (the
   * default: scripts next to a running server) or `refuse` to start (a second server).
   */
  whenEmbeddedRunning?: 'use' | 'refuse';
}

/** Composition root: the database (embedded when no DATABASE_URL), migrations, cache, jobs. */
export async function createContainer(config: Config, options: ContainerOptions = {}): Promise<Container> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  // under tests every statement compiled once per shape is also checked against a fresh build
  checkShapes(config.env === 'test');
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), config.embeddedPgPort, {
      whenRunning: options.whenEmbeddedRunning ?? 'use',
      onNotice: (message) => logger.warn(message),
    });
    logger.info(`embedded PostgreSQL: ${embedded.description}`);
    databaseUrl = embedded.url;
  }

  const pool = createPool(databaseUrl, { max: config.dbPoolMax, statementTimeoutMs: config.statementTimeoutMs, timeoutMs: config.dbTimeoutMs });
  const db = createDb(pool);
  const redis = config.redisUrl
    ? new RedisLink(new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false, lazyConnect: true, connectTimeout: 2000 }), logger)
    : undefined;
  const boss = new PgBoss({ connectionString: databaseUrl, max: 4, application_name: 'ens-market-jobs', supervise: config.jobsEnabled, schedule: config.jobsEnabled, maintenanceIntervalSeconds: config.jobsMaintenanceIntervalSeconds });
  boss.on('error', (err) => logger.error({ err }, 'job queue error'));

  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    await syncCurrencies(db, config);
    if (redis) await redis.connect();
    await boss.start();
    await createQueues(boss, jobDefinitions);
  } catch (err) {
    await Promise.allSettled([db.destroy(), boss.stop({ graceful: false }), redis?.close()]);
    await embedded?.stop();
    throw err;
  }

  const deps: Deps = {
    config,
    logger,
    pool,
    db,
    cache: redis ? new FallbackCache(redis, `${config.redisPrefix}cache:`) : new MemoryCache(),
    redis,
    jobs: new JobQueue(boss),
    rpc: createRpcClient(config),
    mail: createMailProvider(config, logger),
    suggestions: createSuggestionGenerator(config, logger),
    keywordMetrics: createKeywordMetricsProvider(config, logger),
  };

  let closed = false;
  return {
    ...deps,
    databaseUrl,
    startWorkers: () => startWorkers(boss, deps, jobDefinitions),
    async close() {
      if (closed) return;
      closed = true;
      // Each step runs even when an earlier one fails, so no connection or child process is left behind.
      const steps: [string, () => Promise<unknown>][] = [
        ['job queue', () => boss.stop({ graceful: true, timeout: 3000, wait: true })],
        ['database pool', () => db.destroy()],
        ['redis', async () => redis?.close()],
        ['suggestions', () => deps.suggestions.close()],
        ['embedded PostgreSQL', async () => embedded?.stop()],
      ];
      for (const [what, step] of steps) {
        await step().catch((err: unknown) => logger.warn({ err }, `closing ${what} failed`));
      }
    },
  };
}
