import { sql, type RawBuilder } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import type { SearchResultObject } from '../contracts/search-result.js';
import { iso } from '../lib/time.js';
import { jsonBytes, jsonPieces, RawJson, type Piece } from '../lib/raw-json.js';
import { currencyJson, isoText, jsonObject, jsonValue, weiText } from '../db/json-rows.js';
import { pageJson, present, readBefore, rowTexts, statementKey, statusMiddle, versionRef, type KeptPage, type RowPieces, type RowVersion } from '../db/row-texts.js';
import { weiString } from '../lib/wei.js';
import { currencyFields } from '../lib/currencies.js';
import type { PageReader } from './query.js';

/** An active listing as the name query returns it (JSON: amounts and times as text). */
interface ListingJson {
  id: number;
  price_wei: string;
  currency_address: string;
  seller_address: string;
  order_hash: string;
  /** the signed order as its stored JSON text (written as it is: lib/raw-json.ts) */
  order_data: string;
  expires_at: string | null;
  created_at: string;
  status: string;
  source: string;
  broker_address: string | null;
  broker_fee_bps: number | null;
}

/** A name row of a search result, with its active unexpired listings (null when none). */
export interface ResultRow {
  id: number;
  name: string;
  token_id: string;
  owner_address: string | null;
  expiry_date: Date | null;
  registration_date: Date | null;
  clubs: string[];
  has_emoji: boolean;
  has_numbers: boolean;
  last_sale_date: Date | null;
  last_sale_price_wei: string | null;
  last_sale_currency: string | null;
  highest_offer_wei: string | null;
  highest_offer_currency: string | null;
  highest_offer_id: number | null;
  upvotes: number;
  downvotes: number;
  net_score: number;
  watchers_count: number;
  listings: ListingJson[] | null;
}

/** The listings `l` of a standard result: the name `n`'s active unexpired ones (listings_one_active_idx). */
export const ACTIVE_WHERE = sql`l.ens_name_id = n.id AND l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now())`;

/**
 * A name's active unexpired listings (listings_one_active_idx) as one JSON array, newest first
 * (null when none), for a result row that JavaScript maps (toResult: the name page): amounts as
 * text (JSON numbers lose digits), each signed order as its JSON text (a string written as it is).
 */
const ACTIVE_LISTINGS = sql`(SELECT json_agg(json_build_object('id', l.id, 'price_wei', l.price_wei::text, 'currency_address', l.currency_address,
        'seller_address', l.seller_address, 'order_hash', l.order_hash, 'order_data', l.order_json::text, 'expires_at', l.expires_at, 'created_at', l.created_at,
        'status', l.status, 'source', l.source, 'broker_address', l.broker_address, 'broker_fee_bps', l.broker_fee_bps) ORDER BY l.created_at DESC, l.id DESC)
      FROM listings l WHERE ${ACTIVE_WHERE})`;

/**
 * The listings `l` that `where` picks as the result's `listings` JSON array (newest first, `[]`
 * when none), each as ResultListing shows it; with `status` (SQL of a listing's effective status)
 * each also has its status and creation time (BrokeredResultListing).
 */
export function resultListingsJson(where: RawBuilder<unknown>, status?: string): RawBuilder<unknown> {
  const item = jsonValue(resultListingFields(status));
  return sql`coalesce((SELECT json_agg(${sql.raw(item)} ORDER BY l.created_at DESC, l.id DESC) FROM listings l WHERE ${where}), '[]'::json)`;
}

/** The fields of a result's listing `l` (ResultListing), with `status` also its status and creation time (BrokeredResultListing). */
function resultListingFields(status?: string): Record<string, string> {
  return {
    id: 'l.id',
    price: weiText('l.price_wei'),
    currency_address: 'l.currency_address',
    ...currencyJson('l.currency_address'),
    seller_address: 'l.seller_address',
    order_hash: 'l.order_hash',
    order_data: 'l.order_json',
    expires_at: isoText('l.expires_at'),
    source: 'l.source',
    broker_address: 'l.broker_address',
    broker_fee_bps: 'l.broker_fee_bps',
    ...(status === undefined ? {} : { status, created_at: isoText('l.created_at') }),
  };
}

/**
 * The fields of the name `n`'s standard result (the SearchResult schema, field for field, without
 * the viewer's fields) before its `listings`, and after them, as PostgreSQL writes them (db/json-rows.ts).
 */
const RESULT_BEFORE = {
  id: 'n.id',
  name: 'n.name',
  token_id: weiText('n.token_id'),
  owner: 'n.owner_address',
  expiry_date: isoText('n.expiry_date'),
  registration_date: isoText('n.registration_date'),
  clubs: 'n.clubs',
  has_numbers: 'n.has_numbers',
  has_emoji: 'n.has_emoji',
  last_sale_date: isoText('n.last_sale_date'),
  last_sale_price: weiText('n.last_sale_price_wei'),
  last_sale_currency: 'n.last_sale_currency',
};
const RESULT_AFTER = {
  highest_offer_wei: weiText('n.highest_offer_wei'),
  highest_offer_currency: 'n.highest_offer_currency',
  highest_offer_id: 'n.highest_offer_id',
  upvotes: 'n.upvotes',
  downvotes: 'n.downvotes',
  net_score: 'n.net_score',
  watchers_count: 'n.watchers_count',
};

/**
 * A name of a page with its version, for its kept text (db/row-texts.ts): read again, its
 * listings' versions (`lv`: `id:version`, and `:status` where they show one, comma-separated, newest
 * first; null when none: one text parses faster than an array); read first, its
 * text's pieces and its listings' JSON array (`lj`) as well.
 */
interface VersionedResultRow extends RowVersion {
  name: string;
  owner_address: string | null;
  lv?: string | null;
  lj?: string;
}

/** A result's text without its listings: the fields before, `"listings":`, and after (`RowPieces`). */
const RESULT_HEAD = sql<string>`left(${jsonObject(RESULT_BEFORE)}, -1) || ',"listings":'`;
const RESULT_TAIL = sql<string>`',' || substr(${jsonObject(RESULT_AFTER)}, 2)`;

/** A listing of a result as its kept text reads it: id, version and (where shown) its status now. */
interface ItemRef extends RowVersion {
  status?: string;
}

/**
 * What a page's results show as their `listings`, in the three forms a page reads: the JSON array
 * whole (`whole`, a page read first), the listings' versions (`versions`, a page read again:
 * `lv`), and the texts of listings by id (`texts`: `RowPieces`, with the status where shown). `kind`
 * names their kept texts; `middle` is what stands between a text's head and tail.
 */
interface ResultListings {
  kind: string;
  whole: RawBuilder<string>;
  versions: RawBuilder<string | null>;
  texts: (ids: number[]) => RawBuilder<ItemRef & RowPieces>;
  ref: (text: string) => ItemRef;
  middle: (ref: ItemRef) => string;
  /** what tells this page's listings from another's with the same names (in the page's key) */
  key: string;
}

/**
 * A name's active unexpired listings (standard results). A name without any has no listing summary
 * (`listing_price_wei`, kept by every listing move in its transaction: orders/summaries.ts), and
 * its lookup is skipped: most names of a page have none, and the lookup was a sixth of a 100-name
 * trending page's database time. A summary still set for a listing past its end time only costs
 * the lookup, which leaves it out.
 */
const ACTIVE_LISTINGS_OF_RESULT: ResultListings = {
  kind: 'result-listings',
  whole: sql<string>`(CASE WHEN n.listing_price_wei IS NULL THEN '[]'::json ELSE ${resultListingsJson(ACTIVE_WHERE)} END)::text`,
  versions: sql<string | null>`CASE WHEN n.listing_price_wei IS NULL THEN NULL
    ELSE (SELECT string_agg(l.id::text || ':' || l.xmin::text, ',' ORDER BY l.created_at DESC, l.id DESC) FROM listings l WHERE ${ACTIVE_WHERE}) END`,
  texts: (ids) => sql`SELECT ${GENERIC_PLAN} l.id, l.xmin::text AS v, ${jsonObject(resultListingFields())} AS head, '' AS tail
    FROM listings l WHERE l.id = ANY(${ids}::bigint[])`,
  ref: versionRef,
  middle: () => '',
  key: 'active',
};

/**
 * The listings `l` of the name `n` that `where` picks, each with its effective status (`status`,
 * SQL: it changes without a write, so it is the texts' middle, read fresh) and creation time
 * (BrokeredResultListing); `key` tells `where`'s values (a broker and a status).
 */
export function listingsWithStatus(where: RawBuilder<unknown>, status: string, key: string): ResultListings {
  const fields = resultListingFields(status);
  const { status: _shown, created_at: createdAt, ...before } = fields;
  return {
    kind: 'result-listings-with-status',
    whole: sql<string>`${resultListingsJson(where, status)}::text`,
    versions: sql<string | null>`(SELECT string_agg(l.id::text || ':' || l.xmin::text || ':' || ${sql.raw(status)}, ',' ORDER BY l.created_at DESC, l.id DESC)
      FROM listings l WHERE ${where})`,
    texts: (ids) => sql`SELECT ${GENERIC_PLAN} l.id, l.xmin::text AS v, ${sql.raw(status)} AS status,
      left(${jsonObject(before)}, -1) AS head, substr(${jsonObject({ created_at: createdAt })}, 2) AS tail FROM listings l WHERE l.id = ANY(${ids}::bigint[])`,
    ref: (text) => {
      const [id, v, shown] = text.split(':');
      return { id: Number(id), v, status: shown };
    },
    middle: (ref) => statusMiddle({ status: ref.status ?? '' }),
    key,
  };
}

/**
 * The results of a page's names, each its kept text (db/row-texts.ts) with its listings' kept
 * texts between its halves: a name's text is kept by the name's row version, each listing's by its
 * own, so a page read again only reads the JSON of what changed since it was kept. A page read
 * first carries its names' pieces and listings (`lj`), and they are kept.
 */
async function withResultTexts<R extends VersionedResultRow & Partial<RowPieces>>(
  db: Executor, rows: readonly R[], page: string, listings: ResultListings,
): Promise<(R & ResultJsonRow)[]> {
  const refsOf = new Map(rows.map((r) => [r.id, r.lv === undefined || r.lv === null ? [] : r.lv.split(',').map(listings.ref)]));
  const refs = [...refsOf.values()].flat();
  const items = refs.length === 0 ? [] : await rowTexts(db, listings.kind, refs, (ids) => listings.texts(ids).execute(db).then((r) => r.rows), { middle: listings.middle });
  const itemOf = new Map(refs.map((ref, i) => [ref.id, items[i]]));
  const listingsOf = (r: R) => r.lj ?? `[${present(refsOf.get(r.id)!.map((ref) => itemOf.get(ref.id))).join(',')}]`;
  const pageRow = new Map(rows.map((r) => [r.id, r]));
  const texts = await rowTexts(db, 'results', rows, async (ids) => {
    const { rows: read } = await sql<RowPieces>`SELECT ${GENERIC_PLAN} n.id, n.xmin::text AS v, ${RESULT_HEAD} AS head, ${RESULT_TAIL} AS tail
      FROM ens_names n WHERE n.id = ANY(${ids}::bigint[])`.execute(db);
    return read.map((f) => ({ ...pageRow.get(f.id)!, ...f }));
  }, { middle: listingsOf, page });
  // each row takes its text in place (the rows are this read's own; a copy of each was 2 % of a 100-name page's CPU)
  const results: (R & ResultJsonRow)[] = [];
  for (const [i, r] of rows.entries()) {
    const json = texts[i];
    if (json !== undefined) results.push(Object.assign(r, { json }));
  }
  return results;
}

/** A name of a page as its standard result's JSON text (ResultJson), with the columns the services read. */
export interface ResultJsonRow {
  id: number;
  name: string;
  owner_address: string | null;
  json: string;
}

/**
 * A standard search result as the JSON text PostgreSQL wrote, which a response writes as it is;
 * `id`, `name` and `owner` are there for the services that match or filter results. `with` adds
 * fields (the viewer's vote, a trending figure) to the text.
 */
export class ResultJson extends RawJson {
  /** `more`: JSON objects whose fields follow the result's own (see `with`) */
  constructor(json: string, readonly id: number, readonly name: string, readonly owner: string | null, private readonly more: readonly string[] = []) {
    super(json);
  }

  override get json(): string {
    return this.more.length === 0 ? super.json : this.pieces().join('');
  }

  /**
   * The result's text without its closing brace, then each added object's fields: no piece is
   * copied into a new string (a 2 KB result written after a concatenation is copied again first).
   */
  override pieces(): readonly Piece[] {
    if (this.more.length === 0) return [super.json];
    const [own, rest] = this.split();
    return [own, ...rest];
  }

  /** The result's own text without its closing brace, and the rest: the added objects' fields and the brace. */
  split(): [own: string, rest: string[]] {
    return [super.json.slice(0, -1), [...this.more.map((m) => `,${m.slice(1, -1)}`), '}']];
  }

  /** This result with `fields` after its own (plain JSON values: strings, numbers, booleans, null, plain objects). */
  with(fields: object): ResultJson {
    const more = JSON.stringify(fields);
    return more === '{}' ? this : new ResultJson(super.json, this.id, this.name, this.owner, [...this.more, more]);
  }
}

export interface RowsOptions {
  /** further columns after the row's, each `, expression AS name` (not the name of a row's column: it would replace it) */
  extra?: RawBuilder<unknown>;
  /** `generic`: the source is a list of keys (ids, labels), whose plan does not depend on them (GENERIC_PLAN) */
  plan?: 'generic' | 'custom';
}

export interface JsonRowsOptions extends RowsOptions {
  /** the result's `listings` (listingsWithStatus); the name's active ones when not given */
  listings?: ResultListings;
}

/**
 * The result rows of the ids `source` yields as `p(id, ord, …)`, in `ord` order: each name by its
 * primary key and its listings, in one statement. An id without a name gives no row.
 */
async function resultRowsFrom<R extends ResultRow = ResultRow>(db: Executor, source: RawBuilder<unknown>, options: RowsOptions = {}): Promise<R[]> {
  const { extra = sql``, plan = 'custom' } = options;
  const { rows } = await sql<R>`SELECT ${plan === 'generic' ? GENERIC_PLAN : sql``} n.id, n.name, n.token_id, n.owner_address, n.expiry_date, n.registration_date, n.clubs, n.has_emoji,
      n.has_numbers, n.last_sale_date, n.last_sale_price_wei, n.last_sale_currency, n.highest_offer_wei, n.highest_offer_currency,
      n.highest_offer_id, n.upvotes, n.downvotes, n.net_score, n.watchers_count, ${ACTIVE_LISTINGS} AS listings${extra}
    FROM ${source} JOIN ens_names n ON n.id = p.id ORDER BY p.ord`.execute(db);
  return rows;
}

/**
 * Result rows of the ids `source` yields as `p(id, ord, …)` with `extra` columns beside them
 * (`, p.total AS trend_total`: figures the page was ranked by), in one statement.
 */
export const resultRowsWith = <E extends object>(db: Executor, source: RawBuilder<unknown>, options: RowsOptions): Promise<(ResultRow & E)[]> =>
  resultRowsFrom<ResultRow & E>(db, source, options);

/** What one statement of a page returned (`readResultRows`): its rows, its key (`page`), whether it was read before. */
interface ResultChunk<E extends object = object> {
  rows: (VersionedResultRow & Partial<RowPieces> & E)[];
  page: string;
  again: boolean;
  listings: ResultListings;
}

/**
 * The statement of the names the ids `source` yields as `p(id, ord, …)`, in `ord` order, with
 * `extra` columns (`, p.total AS trend_total`), run: a page read first (`readBefore`) with its
 * rows' texts whole, one read again with their versions. `page` is its key.
 */
async function readResultRows<E extends object>(db: Executor, source: RawBuilder<unknown>, options: JsonRowsOptions): Promise<ResultChunk<E>> {
  const { extra = sql``, plan = 'custom', listings = ACTIVE_LISTINGS_OF_RESULT } = options;
  const generic = plan === 'generic' ? GENERIC_PLAN : sql``;
  const [src, more] = [source.compile(db), extra.compile(db)];
  const page = `results:${plan}:${listings.key}:${statementKey(src)}:${statementKey(more)}`;
  const again = readBefore(db, page);
  const columns = again
    ? sql`${listings.versions} AS lv`
    : sql`${RESULT_HEAD} AS head, ${RESULT_TAIL} AS tail, ${listings.whole} AS lj`;
  const { rows } = await sql<VersionedResultRow & Partial<RowPieces> & E>`SELECT ${generic} n.id, n.name, n.owner_address, n.xmin::text AS v, ${columns}${extra}
    FROM ${source} JOIN ens_names n ON n.id = p.id ORDER BY p.ord`.execute(db);
  return { rows, page, again, listings };
}

/** The rows of the chunks, in order, each with its result's JSON text (`json`). */
async function withTextsOf<E extends object>(db: Executor, chunks: readonly ResultChunk<E>[]): Promise<(ResultJsonRow & E)[]> {
  const read = await Promise.all(chunks.map((c) => withResultTexts(db, c.rows, c.page, c.listings)));
  return read.length === 1 ? read[0] : read.flat();
}

/**
 * The names the ids `source` yields as `p(id, ord, …)`, in `ord` order, each as its standard
 * result's JSON text (`json`) beside the columns services read, with `extra` columns (`, p.total AS
 * trend_total`); one statement. `listings` replaces the name's active listings (listingsWithStatus).
 */
async function resultJsonRowsFrom<E extends object = object>(db: Executor, source: RawBuilder<unknown>, options: JsonRowsOptions = {}): Promise<(ResultJsonRow & E)[]> {
  return withTextsOf(db, [await readResultRows<E>(db, source, options)]);
}

/** Result JSON rows of the ids `source` yields as `p(id, ord, …)` with `extra` columns beside them (figures the page was ranked by). */
export const resultJsonRowsWith = <E extends object>(db: Executor, source: RawBuilder<unknown>, options: JsonRowsOptions): Promise<(ResultJsonRow & E)[]> =>
  resultJsonRowsFrom<E>(db, source, options);

export interface ResultPageOptions<E extends object> {
  /** the viewer, whose vote and watch each result shows (none: anonymous) */
  viewerId?: number;
  /** what each result shows after its own fields (its trending figures), from its row's columns alone */
  fields?: (row: ResultJsonRow & E) => object;
  /** names what `fields` makes of a row (a kind and period of trending), for the kept page's key */
  shape: string;
}

/**
 * A page of results as one JSON array's UTF-8 bytes, with each result's id and where in the bytes
 * its own fields end (KeptPage): a viewer's fields go there (`viewerPage`), before what the page
 * added after them (`fields`: a trending figure).
 */
function keptPage(results: readonly ResultJson[]): KeptPage {
  const pieces = ['['];
  const marked: number[] = []; // for each result, the number of pieces up to its own fields' end
  for (const [i, result] of results.entries()) {
    if (i > 0) pieces.push(',');
    const [own, rest] = result.split();
    pieces.push(own);
    marked.push(pieces.length);
    pieces.push(...rest);
  }
  pieces.push(']');
  let size = 0;
  for (const p of pieces) size += Buffer.byteLength(p);
  const bytes = Buffer.allocUnsafe(size);
  const marks: number[] = [];
  let at = 0;
  for (const [k, p] of pieces.entries()) {
    at += bytes.write(p, at);
    if (marked[marks.length] === k + 1) marks.push(at);
  }
  return { bytes, ids: results.map((r) => r.id), marks };
}

/** A kept page as a viewer sees it: each result with the viewer's vote and watch after its own fields, as `toResultJson` writes them. */
function viewerPage(page: KeptPage, viewer: ViewerState): RawJson {
  const pieces: Piece[] = [];
  let from = 0;
  for (const [i, id] of page.ids.entries()) {
    pieces.push(page.bytes.subarray(from, page.marks[i]), `,${JSON.stringify(viewerFields(viewer, id)).slice(1, -1)}`);
    from = page.marks[i];
  }
  pieces.push(page.bytes.subarray(from));
  return jsonPieces(pieces);
}

/**
 * The standard results of a page's rows (what its statements returned, in order) as one JSON
 * array, which the response writes as it is, each with `fields` of its row after its own. A page
 * read again whose statements return what they returned the last time (the same names at the
 * same versions, their listings at theirs, the same figures) is the page kept then
 * (db/row-texts.ts `pageJson`): no result is looked up, composed or written again, which was a
 * fifth of the service's time for the bench's mix of trending pages. A viewer's page is the same
 * page with their vote and watch put after each result's own fields (one statement for them).
 */
async function pageOfChunks<E extends object>(db: Executor, chunks: readonly ResultChunk<E>[], options: ResultPageOptions<E>): Promise<RawJson> {
  const stored = chunks.every((c) => c.again) ? pageJson(db, options.shape, chunks.map((c) => c.page).join('\n'), chunks.map((c) => c.rows)) : undefined;
  let page = stored?.kept;
  if (page === undefined) {
    const read = await withTextsOf(db, chunks);
    const { fields } = options;
    const results = read.map((row) => toResultJson(row, undefined));
    page = keptPage(fields === undefined ? results : results.map((r, i) => r.with(fields(read[i]))));
    stored?.keep(page);
  }
  const viewer = page.ids.length === 0 ? undefined : await viewerState(db, page.ids, options.viewerId);
  return viewer === undefined ? jsonBytes(page.bytes) : viewerPage(page, viewer);
}

/** The standard results of the names the ids `source` yields as `p(id, ord, …)` as one JSON array (pageOfChunks); one statement. */
export async function resultPage<E extends object>(db: Executor, source: RawBuilder<unknown>, options: JsonRowsOptions & ResultPageOptions<E>): Promise<RawJson> {
  return pageOfChunks(db, [await readResultRows<E>(db, source, options)], options);
}

/**
 * Reads a page of global search (a PageReader for `searchPage`), keeping what each statement
 * returned, so that a page read in several statements (its tiers) becomes one page of results
 * (`page`) or the results one by one (`results`). A page planned once is one statement with its
 * results; a page planned with its values (a text, a filter) reads its ids first and then their
 * results under one plan: planned in one statement, the result mapping was planned on every
 * request, most of such a page's database time.
 */
export class ResultReader {
  private readonly chunks: ResultChunk[] = [];

  readonly read: PageReader<VersionedResultRow> = async (db, page, plan) => {
    let source: RawBuilder<unknown> = sql`unnest(ARRAY(${page})) WITH ORDINALITY AS p(id, ord)`;
    if (plan === 'custom') {
      const ids = (await page.execute(db)).rows.map((r) => r.id);
      if (ids.length === 0) return [];
      source = idsSource(ids);
    }
    const chunk = await readResultRows(db, source, { plan: 'generic' });
    this.chunks.push(chunk);
    return chunk.rows;
  };

  /** The page's standard results, one by one, with the viewer's votes and watches. */
  async results(db: Executor, viewerId: number | undefined): Promise<ResultJson[]> {
    return searchResultsOf(db, await withTextsOf(db, this.chunks), viewerId);
  }

  /** The page's standard results as one JSON array (pageOfChunks). */
  page(db: Executor, options: ResultPageOptions<object>): Promise<RawJson> {
    return pageOfChunks(db, this.chunks, options);
  }
}

/** Name ids as `p(id, ord)`, in the order given. */
const idsSource = (ids: readonly number[]) => sql`unnest(${[...ids]}::bigint[]) WITH ORDINALITY AS p(id, ord)`;

/** The result JSON rows of name ids, in the order given (a list of keys: planned once). */
const resultJsonRowsOfIds = (db: Executor, ids: readonly number[]) => resultJsonRowsFrom(db, idsSource(ids), { plan: 'generic' });

/**
 * Loads standard search results for name ids, in the order given. Indexed queries whatever the
 * page size: the names with their active unexpired listings, and (with a viewer) the viewer's
 * votes and watches. `viewerId` undefined means anonymous: `user_vote` and `is_user_watching` are left out.
 */
export async function loadSearchResults(db: Executor, ids: readonly number[], viewerId?: number): Promise<ResultJson[]> {
  if (ids.length === 0) return [];
  const [rows, viewer] = await Promise.all([
    resultJsonRowsOfIds(db, ids),
    viewerState(db, ids, viewerId),
  ]);
  return rows.map((row) => toResultJson(row, viewer));
}

/**
 * The standard search results of the searchable names among `names` (normalized .eth names), by
 * name, in one statement: each looked up by its label in the C-collated label index (a searchable
 * name is its label and `.eth`), with the viewer's votes and watches.
 */
export async function loadSearchResultsOfNames(db: Executor, names: readonly string[], viewerId?: number): Promise<Map<string, ResultJson>> {
  const labels = names.filter((n) => n.endsWith('.eth')).map((n) => n.slice(0, -'.eth'.length));
  if (labels.length === 0) return new Map();
  const rows = await resultJsonRowsFrom(db, sql`(SELECT f.id, t.ord FROM unnest(${labels}::text[]) WITH ORDINALITY AS t(label, ord)
    JOIN ens_names f ON (f.label COLLATE "C") = t.label AND f.searchable) p`, { plan: 'generic' });
  const results = await searchResultsOf(db, rows, viewerId);
  return new Map(results.map((r) => [r.name, r]));
}

/** Standard search results of result JSON rows, with the viewer's votes and watches. */
export async function searchResultsOf(db: Executor, rows: readonly ResultJsonRow[], viewerId?: number): Promise<ResultJson[]> {
  const viewer = rows.length === 0 ? undefined : await viewerState(db, rows.map((r) => r.id), viewerId);
  return rows.map((row) => toResultJson(row, viewer));
}

/** A result JSON row as the standard search result, with the viewer's vote and watch when given. */
export function toResultJson(row: ResultJsonRow, viewer: ViewerState | undefined): ResultJson {
  const result = new ResultJson(row.json, row.id, row.name, row.owner_address);
  return viewer ? result.with(viewerFields(viewer, row.id)) : result;
}

/** What a result shows its viewer, after its own fields. */
const viewerFields = (viewer: ViewerState, id: number) => ({ is_user_watching: viewer.watching.has(id), user_vote: viewer.votes.get(id) ?? null });

export interface ViewerState { votes: Map<number, 1 | -1>; watching: Set<number> }

/**
 * The viewer's votes and watches among the names (undefined when anonymous), in one statement: a
 * vote is a row with its value, a watch a row without one (two statements took two connections
 * and round trips on every signed-in page).
 */
export async function viewerState(db: Executor, ids: readonly number[], viewerId: number | undefined): Promise<ViewerState | undefined> {
  if (viewerId === undefined) return undefined;
  const { rows } = await sql<{ id: number; vote: 1 | -1 | null }>`
    SELECT ${GENERIC_PLAN} ens_name_id AS id, vote FROM votes WHERE user_id = ${viewerId} AND ens_name_id = ANY(${ids as number[]}::bigint[])
    UNION ALL
    SELECT DISTINCT ens_name_id, NULL::smallint FROM watchlist_items WHERE user_id = ${viewerId} AND ens_name_id = ANY(${ids as number[]}::bigint[])`.execute(db);
  const state: ViewerState = { votes: new Map(), watching: new Set() };
  for (const r of rows) {
    if (r.vote === null) state.watching.add(r.id);
    else state.votes.set(r.id, r.vote);
  }
  return state;
}

const toListing = (l: ListingJson): SearchResultObject['listings'][number] => ({
  id: l.id,
  price: weiString(l.price_wei),
  currency_address: l.currency_address,
  ...currencyFields(l.currency_address),
  seller_address: l.seller_address,
  order_hash: l.order_hash,
  order_data: new RawJson(l.order_data),
  expires_at: iso(l.expires_at),
  source: l.source,
  broker_address: l.broker_address,
  broker_fee_bps: l.broker_fee_bps,
});

/** A result row as the standard search result, with the viewer's vote and watch when given. */
export function toResult(n: ResultRow, viewer: ViewerState | undefined): SearchResultObject {
  const result: SearchResultObject = {
    id: n.id,
    name: n.name,
    token_id: n.token_id,
    owner: n.owner_address,
    expiry_date: iso(n.expiry_date),
    registration_date: iso(n.registration_date),
    clubs: n.clubs,
    has_numbers: n.has_numbers,
    has_emoji: n.has_emoji,
    last_sale_date: iso(n.last_sale_date),
    last_sale_price: weiString(n.last_sale_price_wei),
    last_sale_currency: n.last_sale_currency,
    listings: n.listings?.map(toListing) ?? [],
    highest_offer_wei: weiString(n.highest_offer_wei),
    highest_offer_currency: n.highest_offer_currency,
    highest_offer_id: n.highest_offer_id,
    upvotes: n.upvotes,
    downvotes: n.downvotes,
    net_score: n.net_score,
    watchers_count: n.watchers_count,
  };
  if (viewer) {
    result.is_user_watching = viewer.watching.has(n.id);
    result.user_vote = viewer.votes.get(n.id) ?? null;
  }
  return result;
}
