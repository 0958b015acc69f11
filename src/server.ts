import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.js';

/** Process entry: config → container → app → listen; drains and stops cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }

  // The heavy modules load only once the configuration is known to be good: a wrong setting fails fast.
  const [{ buildApp }, { createContainer }, { seedIfEmpty }] = await Promise.all([
    import('./app.js'),
    import('./container.js'),
    import('./seed/seed-if-empty.js'),
  ]);
  const container = await createContainer(config);
  const { logger } = container;
  if (config.seedOnEmpty) await seedIfEmpty(container);
  if (config.jobsEnabled) await container.startWorkers();
  const app = await buildApp(container);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await container.close();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  logger.info(`ENS market API on http://localhost:${config.port} — reference at /docs`);
}

main().catch((err) => {
  console.error(err instanceof Error ? `Start-up failed: ${err.message}` : err);
  process.exit(1);
});
