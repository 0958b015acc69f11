import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createAll, dropAll, rebuildable, type SchemaItem } from './bulk.js';

export type CopyValue = string | number | boolean | null | undefined;

const SPECIAL = /[\\\t\n\r]/g;
const HAS_SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value in COPY text format: \N for null, backslash escapes for the separators. */
function field(v: CopyValue): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'string') return HAS_SPECIAL.test(v) ? v.replace(SPECIAL, (c) => ESCAPES[c]) : v;
  return String(v);
}

/** A PostgreSQL text[] literal (for COPY), every element quoted. */
export function textArray(items: readonly string[]): string {
  return `{${items.map((i) => `"${i.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/**
 * Streams rows into one table with `COPY ... FROM STDIN` on a connection of its own (several
 * tables load at once), buffering ~256 KB per write and waiting when the server falls behind.
 * Each table loads in one transaction, without statement timeout (the pool's API timeout would
 * cut a big load) and with its secondary indexes and unique constraints dropped and built again
 * before commit (see bulk.ts): a failed load leaves the table as it was. Foreign keys stay:
 * dropping one would lock the referenced table (ens_names) against the loaders running beside it.
 */
export class CopyWriter {
  rows = 0;
  private buffer = '';

  private constructor(
    readonly table: string,
    private readonly client: pg.PoolClient,
    private readonly stream: Writable,
    private readonly done: Promise<unknown>,
    private readonly rebuild: SchemaItem[],
  ) {}

  static async open(pool: pg.Pool, table: string, columns: readonly string[]): Promise<CopyWriter> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL statement_timeout = 0');
      const rebuild = await rebuildable(client, table);
      await dropAll(client, rebuild);
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
      // Attached now, so that an error while rows are still being produced is never unhandled.
      const done = once(stream, 'finish');
      done.catch(() => undefined);
      return new CopyWriter(table, client, stream, done, rebuild);
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  }

  async add(values: readonly CopyValue[]): Promise<void> {
    this.buffer += `${values.map(field).join('\t')}\n`;
    this.rows++;
    if (this.buffer.length > 262_144) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await Promise.race([once(this.stream, 'drain'), this.done]);
  }

  /** Sends the rest, waits for the COPY, rebuilds the indexes, commits; the row count. */
  async end(): Promise<number> {
    try {
      if (this.buffer) await this.flush();
      this.stream.end();
      await this.done;
      await createAll(this.client, this.rebuild);
      await this.client.query('COMMIT');
      this.client.release();
    } catch (err) {
      this.client.release(err as Error);
      throw new Error(`loading ${this.table} failed: ${(err as Error).message}`);
    }
    return this.rows;
  }

  /** Gives up (after another writer failed): the connection is closed, the transaction rolled back. */
  abort(): void {
    this.stream.destroy();
    this.client.release(new Error('aborted'));
  }
}
