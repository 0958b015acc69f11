/**
 * Test runner: prepares PostgreSQL once, then runs node's test runner over the test files.
 * DATABASE_URL set: that server. Unset: a throw-away embedded PostgreSQL (the fresh-machine path).
 * A template database gets the migrations and the job-queue schema; each test file clones it.
 *
 *   tsx test/run.ts                 all tests
 *   tsx test/run.ts test/foo.test.ts  some files
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { createDb, createPool, migrateToLatest } from '../src/db/client.js';
import { generateDbTypes } from '../src/db/codegen.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return entry === 'helpers' ? [] : testFiles(full);
    return entry.endsWith('.test.ts') ? [full] : [];
  });
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : testFiles('test').sort();
let stopEmbedded: (() => Promise<void>) | undefined;
let tmp: string | undefined;
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  tmp = mkdtempSync(path.join(tmpdir(), 'ensm-test-pg-'));
  const embedded = await startEmbeddedPostgres(path.join(tmp, 'pg'), await freePort(), { persistent: false });
  stopEmbedded = embedded.stop;
  adminUrl = embedded.url;
  console.log('tests: embedded PostgreSQL (no DATABASE_URL)');
} else {
  console.log(`tests: PostgreSQL at ${new URL(adminUrl).host}${process.env.REDIS_URL ? ', Redis at ' + new URL(process.env.REDIS_URL).host : ''}`);
}

const template = `ensm_tpl_${process.pid}_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${template}`);
const templateUrl = withDatabase(adminUrl, template);
const pool = createPool(templateUrl, { max: 2 });
const db = createDb(pool);
await migrateToLatest(db);
await db.destroy();
const boss = new PgBoss({ connectionString: templateUrl, max: 1, supervise: false, schedule: false });
await boss.start();
await boss.stop({ graceful: false, wait: true });

let code = 1;
try {
  // The committed database types must be what the migrations give (`npm run db:types` after a migration).
  await generateDbTypes(templateUrl, 'verify');
  code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-reporter=spec', '--test-timeout=300000', ...files], {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'test', TEST_ADMIN_URL: adminUrl, TEST_TEMPLATE_DB: template },
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  await stopEmbedded?.();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
