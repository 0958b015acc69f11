import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT, scriptArgs } from '../../helpers/scripts.js';

/** The real service (`src/server.ts`) as a child process, as `npm start` runs it. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or signal name) once it ends. */
  exited: Promise<number | string>;
}


/**
 * Starts the service on `port` with only the given environment on top of a clean one: no
 * DATABASE_URL or REDIS_URL of the test run, so it uses its embedded PostgreSQL unless told otherwise.
 */
export function startServer(port: number, env: Record<string, string>, script = 'src/server.ts', args: string[] = []): ServerProcess {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|REDIS_URL|TEST_|NODE_TEST|NODE_ENV)/.test(k)));
  const child = spawn(process.execPath, [...scriptArgs(script), ...args], {
    cwd: ROOT,
    env: { ...clean, NODE_ENV: 'development', LOG_LEVEL: 'info', SEED_ON_EMPTY: 'false', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, port, output: () => output, exited };
}

/** Waits for /health/ready to answer 200; fails with the process's output when it exits first. */
export async function waitReady(server: ServerProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`the service exited:\n${server.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/health/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the service was not ready within ${timeoutMs} ms:\n${server.output()}`);
}

/** The pid in the embedded cluster's postmaster.pid (the cluster may be a link when run as root). */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(path.join(realpathSync(path.join(dataDir, 'pg')), 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); // a zombie has ended
  } catch {
    return true;
  }
}

/** Polls until `pid` is gone; returns the milliseconds it took, or undefined after `timeoutMs`. */
export async function waitGone(pid: number, timeoutMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (!isAlive(pid)) return Date.now() - start;
    await sleep(50);
  }
  return undefined;
}

/** Log lines at error level or above (pino's 50 and 60). */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => /"level":(50|60)/.test(line));
}

/** Removes a test's DATA_DIR and, when run as root, the cluster folder it links to. */
export function removeDataDir(dataDir: string): void {
  const cluster = path.join(dataDir, 'pg');
  if (lstatSync(cluster, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(path.dirname(realpathSync(cluster)), { recursive: true, force: true });
  rmSync(path.dirname(dataDir), { recursive: true, force: true });
}

/** A PostgreSQL's postmaster and its children (each backend runs in its own session). */
function postgresFamily(postmaster: number): number[] {
  const children = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
  return [postmaster, ...children];
}

/** Freezes (SIGSTOP) or thaws (SIGCONT) a whole PostgreSQL: a server that takes connections and never answers. */
export function freezePostgres(postmaster: number, frozen: boolean): void {
  for (const pid of postgresFamily(postmaster)) {
    try {
      process.kill(pid, frozen ? 'SIGSTOP' : 'SIGCONT');
    } catch {
      // gone meanwhile
    }
  }
}
