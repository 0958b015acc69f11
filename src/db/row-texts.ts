import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Executor } from './client.js';

/**
 * Rows' JSON texts kept by row version, so a page sends PostgreSQL's JSON of a row once per
 * version instead of on every request. A listing's text is about 2 KB, 1.1 KB of it its signed
 * order; writing, detoasting and sending 20 of those was two thirds of PostgreSQL's time for a
 * page of listings and most of what the service parsed from it.
 *
 * A page read again (`readBefore`) then returns each row's id and version (and what the text's
 * middle needs); the texts of rows not kept, or kept at another version, come from a second
 * statement by id. A page read first returns its rows' texts with their versions, as before, and
 * they are kept: a client paging through thousands of rows once, or a search text asked once,
 * costs one statement a page, not two.
 *
 * The version is the `xmin` of every row the text is made of (`l.xmin || ':' || n.xmin`):
 * PostgreSQL gives each committed change of a row a new `xmin`, so a text is only served for the
 * very row versions it was written from. What a text shows that changes without a write (an
 * order's status once its end time passes) or that other rows hold (a search result's listings)
 * is its middle, given by the page's statement and put between the kept head and tail. Entries
 * expire after TTL_MS so an `xmin` cannot come round again (2^32 transactions) while kept.
 *
 * Inside a transaction nothing is kept or served: the transaction's own uncommitted writes keep
 * its `xmin` from one write to the next.
 */

/** A page's row: its id and version. */
export interface RowVersion {
  id: number;
  v: string;
}

/** A row's text without its middle, read at version `v`: the text is `head`, the middle, `tail`. */
export interface RowPieces extends RowVersion {
  head: string;
  tail: string;
}

interface Kept {
  v: string;
  head: string;
  tail: string;
}

/** At most this many characters of texts per kind and database handle (one-byte strings: bytes). */
const MAX_CHARS = 8_000_000;
const TTL_MS = 10 * 60_000;
/** Pages remembered as read (`readBefore`), per database handle; a key longer than this is hashed. */
const MAX_PAGES = 20_000;
const LONG_KEY = 200;

const kept = new WeakMap<object, Map<string, LRUCache<number, Kept>>>();
const pagesRead = new WeakMap<object, LRUCache<string, true>>();
const pageBytes = new WeakMap<object, LRUCache<string, KeptPage>>();

function keptOf(db: Executor, kind: string): LRUCache<number, Kept> {
  let kinds = kept.get(db);
  if (kinds === undefined) kept.set(db, kinds = new Map());
  let texts = kinds.get(kind);
  if (texts === undefined) {
    texts = new LRUCache<number, Kept>({ maxSize: MAX_CHARS, sizeCalculation: (k) => k.head.length + k.tail.length + 64, ttl: TTL_MS });
    kinds.set(kind, texts);
  }
  return texts;
}

/**
 * Whether the page `key` names (its statement's shape and values) was read within TTL_MS, and
 * remembers it read now. A page read again reads its rows' versions (its texts are likely kept);
 * one read first reads its texts whole (`RowPieces` on its rows). Inside a transaction: never.
 * A page whose texts were mostly no longer kept (`rowTexts`' `page`) reads whole next time.
 */
export function readBefore(db: Executor, key: string): boolean {
  if (db.isTransaction) return false;
  let pages = pagesRead.get(db);
  if (pages === undefined) pagesRead.set(db, pages = new LRUCache<string, true>({ max: MAX_PAGES, ttl: TTL_MS }));
  const k = pageKey(key);
  if (pages.has(k)) return true;
  pages.set(k, true);
  return false;
}

/**
 * A page of results kept whole: its JSON's UTF-8 bytes, its results' ids in order, and where in
 * the bytes each result's own fields end (`marks`: where a viewer's vote and watch go, before what
 * the page adds after them, such as a trending figure).
 */
export interface KeptPage {
  bytes: Buffer;
  ids: readonly number[];
  marks: readonly number[];
}

/**
 * A whole page's JSON (KeptPage), kept by what its statement returned when it was read again
 * (`readBefore`): `page` is the page's key (its statement), `shape` what the caller makes of each
 * row, and `rows` every row as the statement returned it (ids, versions, listings' versions,
 * figures: numbers and text, which JSON writes without a replacer, 8 % of a trending request with
 * one). The same rows at the same versions make the same JSON, so a page whose statement returns
 * what it returned last time is those bytes again, with no row looked up, composed or written
 * anew. Outside a transaction only; entries expire after TTL_MS like the row texts.
 */
export function pageJson(db: Executor, shape: string, page: string, rows: readonly object[]): { kept: KeptPage | undefined; keep: (page: KeptPage) => void } | undefined {
  if (db.isTransaction) return undefined;
  let pages = pageBytes.get(db);
  if (pages === undefined) pageBytes.set(db, pages = new LRUCache<string, KeptPage>({ maxSize: MAX_CHARS, sizeCalculation: (k) => k.bytes.length + 16 * k.ids.length + 64, ttl: TTL_MS }));
  const key = createHash('sha1').update(shape).update('\n').update(page).update('\n').update(JSON.stringify(rows)).digest('base64');
  return { kept: pages.get(key), keep: (kept) => pages.set(key, kept) };
}

/** A page's key from its statement (its text and values; a bigint as its digits). */
export const statementKey = (q: { sql: string; parameters: readonly unknown[] }): string =>
  `${q.sql}:${JSON.stringify(q.parameters, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;

const pageKey = (key: string) => (key.length > LONG_KEY ? createHash('sha256').update(key).digest('base64') : key);

export interface RowTextsOptions<R> {
  /** what stands between a row's head and tail (its status; a result's listings) */
  middle?: (row: R) => string;
  /** the key the page was read under (`readBefore`) */
  page?: string;
}

/**
 * The texts of a page's `rows`, in their order, each with `middle` of its row between head and
 * tail (`options`): a row that carries its pieces (a page read whole) as it carries them, kept;
 * else as kept at its version; the others read by `fetch` (their ids, in one statement) and kept.
 * A row `fetch` reads is as it is now (a version, and a middle, newer than the page's, never
 * older); one it no longer finds (deleted since the page was read) has no text (`present` leaves
 * it out). `kind` names the texts (a table, or a table's rows as another resource shows them).
 */
export async function rowTexts<R extends RowVersion>(
  db: Executor, kind: string, rows: readonly (R & Partial<RowPieces>)[], fetch: (ids: number[]) => Promise<(R & RowPieces)[]>, options: RowTextsOptions<R> = {},
): Promise<(string | undefined)[]> {
  const { middle = () => '', page } = options;
  const texts = db.isTransaction ? undefined : keptOf(db, kind);
  const keep = (r: R & RowPieces) => {
    texts?.set(r.id, { v: r.v, head: r.head, tail: r.tail });
    return r.head + middle(r) + r.tail;
  };
  const out: (string | undefined)[] = rows.map((r) => {
    if (r.head !== undefined) return keep(r as R & RowPieces);
    const k = texts?.get(r.id);
    return k !== undefined && k.v === r.v ? k.head + middle(r) + k.tail : undefined;
  });
  const missing = rows.filter((_, i) => out[i] === undefined);
  if (missing.length === 0) return out;
  if (page !== undefined && missing.length * 2 > rows.length) pagesRead.get(db)?.delete(pageKey(page));
  const fetched = new Map((await fetch(missing.map((r) => r.id))).map((f) => [f.id, f]));
  for (const [i, r] of rows.entries()) {
    const f = out[i] === undefined ? fetched.get(r.id) : undefined;
    if (f !== undefined) out[i] = keep(f);
  }
  return out;
}

/** The middle of a kept text whose row shows a status that changes without a write (an order's): the status between the fields before and after it. */
export const statusMiddle = (row: { status: string }): string => `,"status":${JSON.stringify(row.status)},`;

/** The texts that are there (rowTexts: a row deleted since its page was read has none). */
export const present = (texts: readonly (string | undefined)[]): string[] => texts.filter((t): t is string => t !== undefined);

/** A row's id and version from `id:version` (how a list of rows' versions comes out of one column). */
export function versionRef(text: string): RowVersion {
  const colon = text.indexOf(':');
  return { id: Number(text.slice(0, colon)), v: text.slice(colon + 1) };
}
