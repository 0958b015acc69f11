import { sql } from 'kysely';
import type pg from 'pg';
import type { Executor } from '../db/client.js';

/**
 * Cursors and checkpoints of the sync jobs live in `sync_state` (key → jsonb). Each batch reads
 * its row FOR UPDATE inside the transaction that applies the batch and writes the next cursor in
 * that same transaction, so a crash leaves the cursor exactly at the last applied batch. If the
 * row is not what the batch started from, another worker got there first and the batch is dropped.
 */
export class SyncConflictError extends Error {
  constructor(key: string) {
    super(`sync state "${key}" moved under this run (another sync is running)`);
    this.name = 'SyncConflictError';
  }
}

export async function readState<T>(db: Executor, key: string): Promise<T | null> {
  const row = await db.selectFrom('sync_state').select('value').where('key', '=', key).executeTakeFirst();
  return (row?.value as T | null | undefined) ?? null;
}

/** Locks the row of `key` for this transaction and checks it still holds `expected`. */
export async function claimState<T>(trx: Executor, key: string, expected: T | null): Promise<void> {
  await sql`INSERT INTO sync_state (key, value) VALUES (${key}, 'null'::jsonb) ON CONFLICT (key) DO NOTHING`.execute(trx);
  const row = await trx.selectFrom('sync_state').select('value').where('key', '=', key).forUpdate().executeTakeFirstOrThrow();
  if (canonical(row.value ?? null) !== canonical(expected ?? null)) throw new SyncConflictError(key);
}

/** JSON with object keys sorted: jsonb does not keep the key order it was given. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export async function writeState<T>(trx: Executor, key: string, value: T): Promise<void> {
  await trx
    .insertInto('sync_state')
    .values({ key, value: JSON.stringify(value), updated_at: new Date() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: new Date() }))
    .execute();
}

const LOCK_NAMESPACE = 0x454e53; // "ENS"

/**
 * Runs `fn` while holding a session advisory lock for `name`, on a connection of its own, so one
 * sync of a kind runs at a time across processes (the server's jobs and `npm run sync`).
 * Returns undefined without running `fn` when the lock is taken.
 */
export async function withSyncLock<T>(pool: pg.Pool, name: string, fn: () => Promise<T>): Promise<T | undefined> {
  const client = await pool.connect();
  try {
    const key = hashName(name);
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [LOCK_NAMESPACE, key]);
    if (!rows[0]?.locked) return undefined;
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, key]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

function hashName(name: string): number {
  let h = 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}
