import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createAll, dropAll, rebuildable, type SchemaItem } from './bulk.js';

/**
 * Triggers a bulk load does without: the rows carry what they would set, `instead` does their
 * work for all rows at once, or a later refresh does it (the rollups' dirty marks).
 */
export interface ReplacedTriggers {
  triggers: readonly string[];
  instead?: string;
  /** Tables `instead` writes: their secondary indexes are dropped with the load's own and built after it. */
  fills?: readonly string[];
}

export type CopyValue = string | number | boolean | null | undefined;

/** Bytes sent per write. */
const CHUNK = 262_144;
const SPECIAL = /[\\\t\n\r]/g;
const HAS_SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value in COPY text format: \N for null, backslash escapes for the separators. */
function field(v: CopyValue): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'string') return HAS_SPECIAL.test(v) ? v.replace(SPECIAL, (c) => ESCAPES[c]) : v;
  return String(v);
}

/** One row in COPY text format, without its line end. */
export function copyLine(values: readonly CopyValue[]): string {
  return values.map(field).join('\t');
}

/** A PostgreSQL text[] literal (for COPY), every element quoted. */
export function textArray(items: readonly string[]): string {
  return `{${items.map((i) => `"${i.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/**
 * Streams rows into one table with `COPY ... FROM STDIN` on a connection of its own (several
 * tables load at once), encoding each row straight into a 256 KB buffer (no large strings to
 * build and encode again) and waiting when the server falls behind.
 * Each table loads in one transaction, without statement timeout (the pool's API timeout would
 * cut a big load) and with its secondary indexes and unique constraints dropped and built again
 * before commit (see bulk.ts): a failed load leaves the table as it was. Foreign keys stay (a
 * seed parks them for the whole load: dropping one locks the referenced table).
 */
export class CopyWriter {
  rows = 0;
  private settled = false;
  private buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;

  private constructor(
    readonly table: string,
    private readonly client: pg.PoolClient,
    private readonly stream: Writable,
    private readonly done: Promise<unknown>,
    private readonly rebuild: SchemaItem[],
    private readonly replaced?: ReplacedTriggers,
  ) {}

  /**
   * With `replaced`, those triggers are off for the load (in its transaction: nobody else sees
   * it off) and its work is done once, set-based, before commit.
   */
  static async open(pool: pg.Pool, table: string, columns: readonly string[], replaced?: ReplacedTriggers): Promise<CopyWriter> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL statement_timeout = 0');
      const rebuild: SchemaItem[] = [];
      for (const t of [table, ...(replaced?.fills ?? [])]) rebuild.push(...await rebuildable(client, t));
      await dropAll(client, rebuild);
      for (const trigger of replaced?.triggers ?? []) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
      // Attached now, so that an error while rows are still being produced is never unhandled.
      const done = once(stream, 'finish');
      done.catch(() => undefined);
      return new CopyWriter(table, client, stream, done, rebuild, replaced);
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  }

  async add(values: readonly CopyValue[]): Promise<void> {
    return this.addLine(copyLine(values));
  }

  /** A row already in COPY text format (`copyLine`), without its line end. */
  async addLine(line: string): Promise<void> {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (this.used + 3 * line.length + 1 > this.buffer.length) {
      await this.flush();
      if (3 * line.length + 1 > this.buffer.length) this.buffer = Buffer.allocUnsafe(3 * line.length + 1);
    }
    this.used += this.buffer.write(line, this.used, 'utf8');
    this.buffer[this.used++] = 10; // \n
    this.rows++;
  }

  /** A row whose start is text and whose rest is already COPY text in UTF-8, without its line end. */
  async addBytes(head: string, rest: Uint8Array): Promise<void> {
    const size = 3 * head.length + rest.length + 1;
    if (this.used + size > this.buffer.length) {
      await this.flush();
      if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    }
    this.used += this.buffer.write(head, this.used, 'utf8');
    this.buffer.set(rest, this.used);
    this.used += rest.length;
    this.buffer[this.used++] = 10; // \n
    this.rows++;
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(CHUNK);
    this.used = 0;
    if (!this.stream.write(chunk)) await Promise.race([once(this.stream, 'drain'), this.done]);
  }

  /** Sends the rest, waits for the COPY, rebuilds the indexes, commits; the row count. */
  async end(): Promise<number> {
    this.settled = true;
    try {
      if (this.used > 0) await this.flush();
      this.stream.end();
      await this.done;
      if (this.replaced) {
        if (this.replaced.instead !== undefined) await this.client.query(this.replaced.instead);
        for (const trigger of this.replaced.triggers) await this.client.query(`ALTER TABLE ${this.table} ENABLE TRIGGER ${trigger}`);
      }
      await createAll(this.client, this.rebuild);
      await this.client.query('COMMIT');
      this.client.release();
    } catch (err) {
      this.client.release(err as Error);
      throw new Error(`loading ${this.table} failed: ${(err as Error).message}`);
    }
    return this.rows;
  }

  /** Gives up (after another writer failed): the connection is closed, the transaction rolled back; nothing once ended. */
  abort(): void {
    if (this.settled) return;
    this.settled = true;
    this.stream.destroy(new Error('aborted'));
    this.client.release(new Error('aborted'));
  }
}
