import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';

export interface TestContext {
  app: App;
  container: Container;
  config: Config;
  /** Connection string of this test file's own database. */
  databaseUrl: string;
  close(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh database cloned from the migrated template, for one test file. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_ADMIN_URL;
  const template = process.env.TEST_TEMPLATE_DB;
  if (!adminUrl || !template) throw new Error('run tests through `npm test` (tsx test/run.ts), which prepares the database');
  const name = `ensm_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Builds the real app on its own database. `env` overrides environment variables (provider URLs
 * of test servers and so on); Redis is used when the run has REDIS_URL, under a key prefix of its own.
 */
export async function createTestApp(env: Record<string, string | undefined> = {}, options: { database?: { url: string; drop(): Promise<void> }; workers?: boolean; logger?: Logger } = {}): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ensm-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    REDIS_URL: process.env.REDIS_URL,
    REDIS_PREFIX: `ensm-test-${randomBytes(6).toString('hex')}:`,
    JOBS_ENABLED: options.workers ? 'true' : 'false',
    SEED_ON_EMPTY: 'false',
    // Tests write and read the same URL again; the response cache has its own test
    // (test/foundation/response-cache.test.ts), which turns it on.
    RESPONSE_CACHE: 'false',
    ...env,
  });
  const container = await createContainer(config, options.logger ? { logger: options.logger } : {});
  if (options.workers) await container.startWorkers();
  const app = await buildApp(container);
  let closed = false;
  return {
    app,
    container,
    config,
    databaseUrl: database.url,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await container.close();
      if (!options.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The parsed JSON body; on a failed assertion print `res.body` with it. */
export function body<T = any>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}

/** Adds the whole response to an assertion message. */
export function show(res: LightMyRequestResponse): string {
  return `${res.statusCode} ${res.body}`;
}
