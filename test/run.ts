/**
 * Test runner: prepares PostgreSQL once, then runs node's test runner over the test files.
 * DATABASE_URL set: that server. Unset: a throw-away embedded PostgreSQL (the fresh-machine path).
 * A template database gets the migrations and the job-queue schema; each test file clones it.
 *
 *   tsx test/run.ts                 all tests
 *   tsx test/run.ts test/foo.test.ts  some files
 *
 * A file whose text starts with a line `// test: self-contained (why)` starts every server it uses itself
 * (its own embedded PostgreSQL, its own service processes), so DATABASE_URL and REDIS_URL do not
 * change what it tests. SKIP_SELF_CONTAINED_TESTS=1 leaves those files out: CI's second pass, against
 * this machine's servers, sets it because the first pass already ran them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
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

const testFiles = (dir: string): string[] => sourceFiles(dir).filter((f) => f.endsWith('.test.ts') && !f.split(path.sep).includes('helpers'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * The test files and what they import run as JavaScript, compiled here once per run (esbuild, one
 * file in, one file out, no bundling), instead of through tsx in each test process: its loader
 * hooks cost about 1.5 s of CPU per file. Inside node_modules so packages resolve as from the
 * project; one folder per run, removed at the end. Type checking is `tsc --noEmit`, before this.
 */
async function compileForTests(): Promise<string> {
  const outDir = path.join('node_modules', '.cache', 'ensm-tests', `${process.pid}-${Date.now().toString(36)}`);
  await build({
    entryPoints: ['src', 'test', 'examples', 'bench'].flatMap(sourceFiles),
    outdir: outDir,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return outDir;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const SELF_CONTAINED = /^\/\/ test: self-contained\b/m;
/** Each file's time in the last run here (ms by path), kept to start the longest files first next time. */
const LAST_TIMES = path.join('node_modules', '.cache', 'ensm-test-times.json');
const lastTimes = new Map<string, number>(Object.entries(existsSync(LAST_TIMES) ? JSON.parse(readFileSync(LAST_TIMES, 'utf8')) as Record<string, number> : {}));
const named = process.argv.slice(2);
/**
 * Each file's time in a full run on the development machine, committed for a clean clone's first
 * run, which has no times of its own (refresh: copy node_modules/.cache/ensm-test-times.json there).
 */
const baseTimes = new Map<string, number>(Object.entries(JSON.parse(readFileSync('test/file-times.json', 'utf8')) as Record<string, number>));
/** A file known to neither (a new one): a self-contained one is long, another average. At least 1 ms, so no group is left empty. */
const weightOf = (f: { f: string; selfContained: boolean }) => Math.max(1, lastTimes.get(f.f) ?? baseTimes.get(f.f) ?? (f.selfContained ? 60_000 : 5_000));
const files = (named.length > 0 ? named : testFiles('test'))
  .map((f) => ({ f, selfContained: SELF_CONTAINED.test(readFileSync(f, 'utf8')) }))
  .filter(({ selfContained }) => named.length > 0 || process.env.SKIP_SELF_CONTAINED_TESTS !== '1' || !selfContained)
  .sort((a, b) => weightOf(b) - weightOf(a) || a.f.localeCompare(b.f));

/**
 * The test processes. Loading the service's modules and building an app costs a process ~2 s of
 * CPU, a third of the suite's CPU when each of ~85 files had its own process; so the files share
 * GROUPS processes, each running its files one after another (no test file changes process
 * state: no environment writes, no global mocks; each builds its own apps on its own database).
 * A self-contained file keeps a process of its own. Files fill the lightest group, longest first
 * (by the last run's times); three processes run at a time, each started as one ends, the
 * heaviest first, so that none starts last and runs alone at the end.
 */
const GROUPS = Number(process.env.TEST_GROUPS ?? 12);
interface Lane { files: string[]; ms: number }
const alone: Lane[] = files.filter((f) => f.selfContained).map((f) => ({ files: [f.f], ms: weightOf(f) }));
const shared: Lane[] = Array.from({ length: Math.min(GROUPS, files.length - alone.length) }, () => ({ files: [], ms: 0 }));
for (const f of files.filter((x) => !x.selfContained)) {
  const lightest = shared.reduce((a, b) => (b.ms < a.ms ? b : a));
  lightest.files.push(f.f);
  lightest.ms += weightOf(f);
}
const lanes = [...alone, ...shared].sort((a, b) => b.ms - a.ms);
if (process.env.SKIP_SELF_CONTAINED_TESTS === '1') console.log('tests: self-contained files left out (SKIP_SELF_CONTAINED_TESTS=1)');
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

// A second reporter writes each file's time: the slowest are printed at the end, to keep CI short.
const timesFile = path.join(mkdtempSync(path.join(tmpdir(), 'ensm-times-')), 'files.tsv');

/** This run's file times, slowest first; remembered for the next run's order. */
function fileTimes(): { ms: number; file: string }[] {
  const rows = readFileSync(timesFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => {
    const [ms, file] = line.split('\t');
    // the reporter names a file by its source (source maps), or by its compiled copy
    return { ms: Number(ms), file: path.relative(process.cwd(), file!.replace(/\/node_modules\/\.cache\/ensm-tests\/[^/]+\//, '/').replace(/\.js$/, '.ts')) };
  });
  rows.sort((a, b) => b.ms - a.ms);
  for (const r of rows) lastTimes.set(r.file, r.ms);
  mkdirSync(path.dirname(LAST_TIMES), { recursive: true });
  writeFileSync(LAST_TIMES, JSON.stringify(Object.fromEntries(lastTimes)));
  return rows;
}

const compiled = await compileForTests();

/** A lane's entry for `node --test`: its file when alone, else a module importing its files in order. */
function laneEntry(outDir: string, lane: Lane, i: number): string {
  const compiledOf = (f: string) => path.join(outDir, f.replace(/\.ts$/, '.js'));
  if (lane.files.length === 1) return compiledOf(lane.files[0]!);
  const entry = path.join(outDir, 'test-groups', `group-${String(i + 1).padStart(2, '0')}.mjs`);
  mkdirSync(path.dirname(entry), { recursive: true });
  writeFileSync(entry, lane.files.map((f) => `import ${JSON.stringify('./' + path.relative(path.dirname(entry), compiledOf(f)))};\n`).join(''));
  return entry;
}
let code = 1;
try {
  // The committed database types must be what the migrations give (`npm run db:types` after a migration).
  await generateDbTypes(templateUrl, 'verify');
  code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=3', '--test-timeout=300000',
      '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=./test/file-times.reporter.mjs', `--test-reporter-destination=${timesFile}`,
      ...lanes.map((lane, i) => laneEntry(compiled, lane, i))], {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'test', TEST_ADMIN_URL: adminUrl, TEST_TEMPLATE_DB: template },
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  const slowest = fileTimes().slice(0, Number(process.env.TEST_SLOWEST ?? 12));
  console.log(`slowest test files (their tests' time; ${lanes.length} processes, three at a time):\n${slowest.map((r) => `  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}`).join('\n')}`);
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  await stopEmbedded?.();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  rmSync(path.dirname(timesFile), { recursive: true, force: true });
  rmSync(compiled, { recursive: true, force: true });
}
process.exit(code);
