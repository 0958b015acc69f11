import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { App } from './app.js';
import type { Container } from './container.js';

/** Stopping may take this long (HTTP drain, jobs, PostgreSQL) before the process exits anyway. */
const STOP_BUDGET_MS = 4500;

/** One line naming the cause of a failed start: a message, or at least the error's name or code. */
function reason(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return `${err.message}: another program listens there; set PORT to a free port`;
    return err.message || code || err.name;
  }
  return String(err);
}

let container: Container | undefined;
let app: App | undefined;
let stopping = false;

/** WEB_CONCURRENCY > 1: HTTP workers forked by this (primary) process, which keeps the jobs and the embedded PostgreSQL. */
const workers = new Set<Worker>();

function stopWorkers(): Promise<void> {
  return Promise.all([...workers].map((worker) => new Promise<void>((resolve) => {
    worker.once('exit', () => resolve());
    worker.process.kill('SIGTERM');
  }))).then(() => undefined);
}

function forkWorkers(config: Config, started: Container): void {
  const env = { DATABASE_URL: started.databaseUrl, JOBS_ENABLED: 'false', SEED_ON_EMPTY: 'false' };
  let listening = 0;
  const fork = () => {
    const worker = cluster.fork(env);
    workers.add(worker);
    worker.once('listening', () => {
      if (++listening === config.webConcurrency) started.logger.info(`ENS market API on http://localhost:${config.port} with ${config.webConcurrency} HTTP workers — reference at /docs`);
    });
    worker.on('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      started.logger.error({ code, signal }, 'HTTP worker died: starting another');
      setTimeout(() => { if (!stopping) fork(); }, 1000).unref();
    });
  };
  for (let i = 0; i < config.webConcurrency; i++) fork();
  if (!config.redisUrl) started.logger.warn('WEB_CONCURRENCY > 1 without REDIS_URL: each worker keeps its own cache and rate limits');
}

/**
 * Stops in dependency order (HTTP, then jobs and pools, then the embedded PostgreSQL) so no
 * connection is cut from under us, from any point of the start-up on. The process exits after
 * STOP_BUDGET_MS whatever happens; the embedded PostgreSQL is signalled on exit too.
 */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(code || 1), STOP_BUDGET_MS).unref();
  try {
    await app?.close();
    await stopWorkers();
    await container?.close();
  } catch (err) {
    console.error(`Stopping failed: ${reason(err)}`);
    code = 1;
  }
  process.exit(code);
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (container) container.logger.info({ signal }, 'shutting down');
    void stop(0);
  });
}
process.on('uncaughtException', (err) => {
  if (container) container.logger.fatal({ err }, 'uncaught exception: stopping');
  else console.error(`Uncaught exception: ${reason(err)}`);
  void stop(1);
});

/** Process entry: config → container → app → listen; stops cleanly on SIGTERM, SIGINT, SIGHUP. */
async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig(process.env);

  // The heavy modules load only once the configuration is known to be good: a wrong setting fails fast.
  const [{ buildApp }, { createContainer }, { seedIfEmpty }] = await Promise.all([
    import('./app.js'),
    import('./container.js'),
    import('./seed/seed-if-empty.js'),
  ]);
  const started = await createContainer(config, { whenEmbeddedRunning: cluster.isWorker ? 'use' : 'refuse' });
  container = started;
  if (stopping) return; // a signal came during start-up: stop() closes what exists
  if (cluster.isPrimary) {
    if (config.seedOnEmpty) await seedIfEmpty(started);
    if (config.jobsEnabled) await started.startWorkers();
    if (config.webConcurrency > 1) {
      forkWorkers(config, started);
      return;
    }
  }
  app = await buildApp(started);
  (await import('./lib/ens.js')).warmNormalizer();
  await app.listen({ host: config.host, port: config.port });
  if (cluster.isPrimary) started.logger.info(`ENS market API on http://localhost:${config.port} — reference at /docs`);
}

main().catch((err: unknown) => {
  if (stopping) return;
  console.error(err instanceof ConfigError ? err.message : `Start-up failed: ${reason(err)}`);
  void stop(1);
});
