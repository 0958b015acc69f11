import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Who runs a cluster: `<cluster>.lock` holds the pid of the service (or script) that started
 * its PostgreSQL and the port. A lock whose process is gone, or is no longer ours (the pid was
 * reused after a reboot), is stale.
 */
export interface LockOwner {
  pid: number;
  port: number;
  command: string;
}

/** The command line of a live process, or undefined when there is none. */
export function commandOf(pid: number): string | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    try {
      return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
    } catch {
      return undefined;
    }
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.port !== 'number') return undefined;
    return { pid: owner.pid, port: owner.port, command: String(owner.command ?? '') };
  } catch {
    return undefined;
  }
}

/** The live owner of the lock other than this process, if any. */
export function liveOwner(file: string): LockOwner | undefined {
  const owner = readOwner(file);
  if (!owner || owner.pid === process.pid) return undefined;
  const command = commandOf(owner.pid);
  return command?.includes('node') ? owner : undefined;
}

/** Takes the lock for this process; the caller has checked that no live owner holds it. */
export function takeLock(file: string, port: number): void {
  const owner: LockOwner = { pid: process.pid, port, command: process.argv.slice(1).join(' ') };
  rmSync(file, { force: true });
  try {
    writeFileSync(file, JSON.stringify(owner) + '\n', { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another start won the race between our check and our write.
    const winner = liveOwner(file);
    throw new Error(`the embedded PostgreSQL is being started by another process (pid ${winner?.pid ?? '?'})`);
  }
}

export function releaseLock(file: string): void {
  if (readOwner(file)?.pid === process.pid) rmSync(file, { force: true });
}

/** The pid in PostgreSQL's own postmaster.pid, when that process still runs as a postgres. */
export function livePostmaster(clusterDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(`${clusterDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  const command = commandOf(pid);
  return command?.includes('postgres') && command.includes(clusterDir) ? pid : undefined;
}
