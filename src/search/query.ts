import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { sql, type RawBuilder } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import { DAY } from '../lib/time.js';
import type { FilterName, SearchFilters } from './filters.js';
import { SORT_KEYS } from '../contracts/search.js';
import { extraConditions } from './extra-filters.js';
import { cached, cachedStale, type Cache } from '../infra/cache.js';

export type SortKey = (typeof SORT_KEYS)[number];
export { SORT_KEYS };
export type SortOrder = 'asc' | 'desc';
export interface Sort { by: SortKey; order: SortOrder }

interface SortColumn {
  /** The key, or for character_count the key and its alphabetical tie-break. */
  keys: RawBuilder<unknown>[];
  /** Nullable keys keep their null rows after the others in both directions. */
  nullable: boolean;
  /** The order a user means by "sort by X" without saying which way. */
  defaultOrder: SortOrder;
  /** For a key computed from another table: which rows have a value, as an indexable condition. */
  present?: RawBuilder<unknown>;
  /**
   * The filter that says whether a name has a value by this key (the key is set and cleared with
   * what the filter reads): with it, one of the two tiers is empty and is not read.
   */
  presentWhen?: 'listed' | 'hasOffer' | 'hasSales';
}

const keywordMetric = (field: string) => sql`(SELECT (k.metrics->>${field})::numeric FROM keyword_metrics k WHERE k.label = ens_names.label)`;

/** Each sort key, its columns and the index of migration 0005 that serves it; ties go by id. */
const SORT_COLUMNS: Record<SortKey, SortColumn> = {
  price: { keys: [sql`listing_price_wei`], nullable: true, defaultOrder: 'asc', presentWhen: 'listed' },
  expiry_date: { keys: [sql`expiry_date`], nullable: true, defaultOrder: 'asc' },
  registration_date: { keys: [sql`registration_date`], nullable: true, defaultOrder: 'desc' },
  last_sale_date: { keys: [sql`last_sale_date`], nullable: true, defaultOrder: 'desc', presentWhen: 'hasSales' },
  last_sale_price: { keys: [sql`last_sale_price_wei`], nullable: true, defaultOrder: 'desc' },
  character_count: { keys: [sql`label_length`, sql`(label COLLATE "C")`], nullable: false, defaultOrder: 'asc' },
  alphabetical: { keys: [sql`(label COLLATE "C")`], nullable: false, defaultOrder: 'asc' },
  offer: { keys: [sql`highest_offer_wei`], nullable: true, defaultOrder: 'desc', presentWhen: 'hasOffer' },
  // set and cleared with the price (0033)
  listing_date: { keys: [sql`listing_created_at`], nullable: true, defaultOrder: 'desc', presentWhen: 'listed' },
  votes: { keys: [sql`net_score`], nullable: false, defaultOrder: 'desc' },
  creation_date: { keys: [sql`registration_date`], nullable: true, defaultOrder: 'desc' },
  // Distinct users watching, kept by every watchlist write (0014, ens_names_s_watchers_idx).
  watchers_count: { keys: [sql`watchers_count`], nullable: false, defaultOrder: 'desc' },
  // No view counts on the name row yet: the order is the tie-break alone.
  view_count: { keys: [sql`id`], nullable: false, defaultOrder: 'desc' },
  clubs_count: { keys: [sql`cardinality(clubs)`], nullable: false, defaultOrder: 'desc' },
  listing_expiry: {
    keys: [sql`listing_expires_at`],
    nullable: true, defaultOrder: 'asc', present: sql`listing_price_wei IS NOT NULL`, presentWhen: 'listed',
  },
  // Rank within the one club of the filter: numbered clubs rank by their digits, others alphabetically.
  ranking: { keys: [sql`label_length`, sql`(label COLLATE "C")`], nullable: false, defaultOrder: 'asc' },
  google_monthly_searches: { keys: [keywordMetric('avgMonthlySearches')], nullable: true, defaultOrder: 'desc', present: sql`label IN (SELECT label FROM keyword_metrics WHERE metrics IS NOT NULL)` },
  google_avg_cpc: { keys: [keywordMetric('avgCpc')], nullable: true, defaultOrder: 'desc', present: sql`label IN (SELECT label FROM keyword_metrics WHERE metrics IS NOT NULL)` },
};

export function defaultOrderOf(by: SortKey): SortOrder {
  return SORT_COLUMNS[by].defaultOrder;
}

/** Deepest result a page may reach; counts stop here too (see the global search description). */
export const RESULT_WINDOW = 10_000;

export interface SearchContext {
  now: Date;
  gracePeriodDays: number;
  premiumPeriodDays: number;
}

export interface IdPage {
  ids: number[];
  /** Exact up to RESULT_WINDOW; RESULT_WINDOW when more names match (then `capped`). */
  total: number;
  capped: boolean;
}

const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const reversed = (s: string) => [...s].reverse().join('');
const textArray = (items: readonly string[]) => sql`${items as string[]}::text[]`;

/**
 * The WHERE conditions of the filters; each maps onto a column the 0005 indexes cover. With
 * `clubsFromRows`, the clubs condition is one the clubs' GIN index cannot answer (`IS TRUE`), so
 * that it is checked on the rows an ordered index walk reads (see LISTED_WALK_FROM), and `listed`
 * reads `listing_created_at`, which that index holds (with `listing_price_wei`, which it does not,
 * the planner read every listed name's row instead: `clubs[]=10k&listed=true`, 200-760 ms → 0.8 ms).
 */
export function filterConditions(f: SearchFilters, ctx: SearchContext, clubsFromRows = false): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [sql`searchable`];
  const wei = (v: bigint) => sql`${v.toString()}::numeric`;
  if (f.minPrice !== undefined) c.push(sql`listing_price_wei >= ${wei(f.minPrice)}`);
  if (f.maxPrice !== undefined) c.push(sql`listing_price_wei <= ${wei(f.maxPrice)}`);
  if (f.minOffer !== undefined) c.push(sql`highest_offer_wei >= ${wei(f.minOffer)}`);
  if (f.maxOffer !== undefined) c.push(sql`highest_offer_wei <= ${wei(f.maxOffer)}`);
  if (f.minLength !== undefined) c.push(sql`label_length >= ${f.minLength}`);
  if (f.maxLength !== undefined) c.push(sql`label_length <= ${f.maxLength}`);
  // `include` is no constraint: the web app sends it for every class by default.
  const tri = (mode: SearchFilters['digits'], has: RawBuilder<unknown>, only: RawBuilder<unknown>) => {
    if (mode === 'exclude') c.push(sql`NOT ${has}`);
    else if (mode === 'only') c.push(only);
  };
  tri(f.digits, sql`has_numbers`, sql`char_class = 'digits'`);
  tri(f.letters, sql`has_letters`, sql`char_class = 'letters'`);
  tri(f.emoji, sql`has_emoji`, sql`char_class = 'emoji'`);
  tri(f.repeatingChars, sql`(repeating <> 'none')`, sql`repeating = 'all'`);
  if (f.contains !== undefined) c.push(containing(f.contains));
  if (f.startsWith !== undefined) c.push(startsWith(f.startsWith));
  if (f.endsWith !== undefined) c.push(sql`reverse(label) LIKE ${`${like(reversed(f.endsWith))}%`}`);
  // in the listed walk, by the listed index's own key (set and cleared with the price: 0033)
  const listed = clubsFromRows ? sql`listing_created_at` : sql`listing_price_wei`;
  if (f.listed !== undefined) c.push(f.listed ? sql`${listed} IS NOT NULL` : sql`${listed} IS NULL`);
  if (f.hasOffer !== undefined) c.push(f.hasOffer ? sql`highest_offer_wei IS NOT NULL` : sql`highest_offer_wei IS NULL`);
  if (f.hasSales !== undefined) c.push(f.hasSales ? sql`last_sale_date IS NOT NULL` : sql`last_sale_date IS NULL`);
  if (f.clubs) c.push(clubsFromRows ? sql`(clubs && ${textArray(f.clubs)}) IS TRUE` : sql`clubs && ${textArray(f.clubs)}`);
  if (f.excludeClubs) c.push(sql`NOT (clubs && ${textArray(f.excludeClubs)})`);
  if (f.owner !== undefined) {
    c.push(f.owner.startsWith('0x') ? sql`owner_address = ${f.owner}` : sql`owner_address = (SELECT o.owner_address FROM ens_names o WHERE o.name = ${f.owner})`);
  }
  c.push(...extraConditions(f, ctx));
  const now = ctx.now;
  if (f.expiringWithinDays !== undefined) {
    c.push(sql`expiry_date > ${now} AND expiry_date <= ${new Date(now.getTime() + f.expiringWithinDays * DAY)}`);
  }
  return c;
}

const and = (conds: RawBuilder<unknown>[]) => sql.join(conds, sql` AND `);

/** ORDER BY of a sort: its keys (nulls last), then id, all in its direction. */
function orderOf(sort: Sort): RawBuilder<unknown> {
  const dir = sql.raw(sort.order === 'asc' ? 'ASC' : 'DESC');
  return sql.join([...SORT_COLUMNS[sort.by].keys.map((k) => sql`${k} ${dir} NULLS LAST`), sql`id ${dir}`]);
}

/** A label's pairs of consecutive characters as the pair index keys them: byte by byte (0056). */
const PAIRS = sql`(label_bigrams(label) COLLATE "C")`;

/**
 * Labels containing `part`. Three characters or more are looked up by the trigram index; two by
 * the index of each label's pairs of consecutive characters (0029), which the trigram index cannot
 * answer: a label contains two characters exactly when they are one of its pairs, so that condition
 * alone (with LIKE beside it the planner would count the same labels out twice, and took a common
 * pair for a rare one). One character is in too many labels for any index to help.
 */
function containing(part: string): RawBuilder<unknown> {
  return [...part].length === 2 ? sql`${PAIRS} @> ARRAY[${part}::text]` : infixOf(part);
}

/**
 * Labels containing `part` (3 characters or more). pg_trgm reads only a label's words (letters and
 * digits), so in a text with other characters between them (`a-b`, `a🔥b`) the trigram index can
 * only name every label holding its short words: 60,000 at a million names, each row read and
 * rechecked, 100-210 ms a page. Such a text's pairs of characters that hold one of those other
 * characters are looked up in the pair index as well (label_bigrams, 0029): a label containing the
 * text contains its pairs, and the rare pairs name few labels (0.4 ms).
 */
function infixOf(part: string, pairs = separatedPairs(part)): RawBuilder<unknown> {
  const infix = sql`label LIKE ${`%${like(part)}%`}`;
  return pairs.length === 0 ? infix : sql`${infix} AND ${PAIRS} @> ${textArray(pairs)}`;
}

/** The text's pairs of consecutive characters (code points, as label_bigrams counts them) that are not both letters or digits. */
function separatedPairs(text: string): string[] {
  const chars = [...text];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i += 1) {
    if (!WORD_CHAR.test(chars[i]) || !WORD_CHAR.test(chars[i + 1])) pairs.add(chars[i] + chars[i + 1]);
  }
  return [...pairs];
}

/**
 * Labels starting with `prefix`, as a range on the C-collated label index (byte order of UTF-8 is
 * code point order, so the range is [prefix, prefix with its last character incremented)), which
 * the planner can answer from ens_names_s_alpha_idx alone (it carries label_length too, 0016); LIKE keeps it exact.
 */
function startsWith(prefix: string, label: RawBuilder<unknown> = sql`label`): RawBuilder<unknown> {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  const pattern = `${like(prefix)}%`;
  if (last >= 0x10ffff) return sql`${label} LIKE ${pattern}`;
  // The code point after U+D7FF in UTF-8 order is U+E000 (the surrogates are no characters).
  const upper = chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  return sql`(${label} COLLATE "C") >= ${prefix} AND (${label} COLLATE "C") < ${upper} AND ${label} LIKE ${pattern}`;
}

/** Below this many characters a search text matches by exact label and prefix only. */
const SUBSTRING_FROM = 3;
/** From this many characters it also matches similar labels (shorter texts share trigrams with too many). */
const SIMILAR_FROM = 5;
/**
 * The similarity bar is lowered below a bar only while the trigram index named at most this many
 * labels at it (see similarIds): the labels it names are each read from the table and rechecked.
 */
export const SIMILAR_GUARD = 300;
/** Bars tried, from this many shared trigrams above the 0.3 bar down to it. */
const SIMILAR_BARS = 5;
/** pg_trgm indexes only letters and digits: a text without any has no trigram to look a substring up by. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Rows read in one order, one tier after the other: a page takes from a tier only once the ones before it run out. */
interface Tier {
  cond?: RawBuilder<unknown>;
  rank: RawBuilder<unknown>;
  /** Ranked by label_length, then label (C), then id: without filters, read length by length (see byLengthPage). */
  byLength?: boolean;
  /**
   * Without filters, one plan whatever the text: the prefix tier is a range of the label index,
   * read whole and sorted (checked at a million names for common and rare prefixes; planning took
   * 2 ms of its 2.2). Not the substring tier: a common substring is best read from the length index
   * (168 ms), a rare one through the trigram index, where one plan for both took 334 ms.
   */
  samePlan?: boolean;
  /** The filters' conditions for this tier, when not the page's own (see LISTED_WALK_FROM, ClubRows). */
  base?: RawBuilder<unknown>[];
  /** The rows this tier reads, when not the names' (ClubRows). */
  from?: RawBuilder<unknown>;
  /**
   * Its rows are a bounded list of ids, read by primary key whatever the values and filters: one
   * plan for all (planning it per request cost three times its run).
   */
  byIds?: boolean;
  /**
   * One plan whatever its values, with filters: the listed walk when every filter is one the
   * listed-names index holds (see walkPlannedOnce).
   */
  plannedOnce?: boolean;
  /**
   * Its condition and rank name only columns of search_labels (0040: label, label_length, id):
   * without filters it is read from there, where each match the trigram index names is rechecked
   * in a page that stays in the buffer cache (a common 3-letter text's substrings, read from the
   * names' rows, took up to 220 ms, 38 on average when the prefix tier left room).
   */
  inLabels?: boolean;
}

/**
 * Which labels a search text matches (`cond`), and their relevance order as tiers. Under 3
 * characters: the label itself and labels starting with it, shortest first (the exact label is
 * the shortest), then alphabetical: the order of ens_names_s_length_idx. From 3: also labels
 * containing it (pg_trgm GIN index; not for a text without letters or digits, which no index can
 * look up inside labels); from 5 also the labels similar to it that similarIds found. Order: exact,
 * prefix, substring, similar; then more similar, shorter, alphabetical, id.
 *
 * Each tier is read only when the ones before it run out on the page: the prefix tier is a range
 * of ens_names_s_alpha_idx read without the table (similarity is computed from the label in the
 * index), the substring tier rechecks the rows the trigram index names, and the similarity tier
 * reads its (bounded) ids by primary key.
 */
interface TextMatch {
  cond: RawBuilder<unknown>;
  tiers: Tier[];
  /**
   * `cond` is a substring (or similar ids) on `label` and `id` alone, which a trigram index answers:
   * without filters it is counted from search_labels (0040), whose rechecks stay in the buffer
   * cache (a common substring's 10,001 rows read from the names' table were 9 ms a new text).
   */
  inLabels?: boolean;
}

function textMatch(q: string, similar: readonly number[]): TextMatch {
  const length = [...q].length;
  const prefix = sql`(${startsWith(q)})`;
  if (length < SUBSTRING_FROM) return { cond: prefix, tiers: [{ cond: prefix, rank: sql`label_length, (label COLLATE "C"), id`, byLength: true }] };
  const similarOrder = sql`similarity(label, ${q}) DESC, label_length, (label COLLATE "C"), id`;
  const prefixTier: Tier = { cond: prefix, rank: sql`CASE WHEN label = ${q} THEN 0 ELSE 1 END, ${similarOrder}`, samePlan: true };
  if (!WORD_CHAR.test(q)) return { cond: prefix, tiers: [prefixTier] };
  // a text with other characters between its words is looked up by its pairs in the names' own
  // pair index (infixOf), which search_labels does not have
  const pairs = separatedPairs(q);
  const infix = infixOf(q, pairs);
  const inLabels = pairs.length === 0;
  const tiers: Tier[] = [prefixTier, { cond: sql`${infix} AND NOT (label LIKE ${`${like(q)}%`})`, rank: similarOrder, inLabels }];
  if (length < SIMILAR_FROM || similar.length === 0) return { cond: infix, tiers, inLabels };
  const isSimilar = sql`id = ANY(${[...similar]}::bigint[])`;
  return { cond: sql`(${infix} OR ${isSimilar})`, tiers: [...tiers, { cond: sql`${isSimilar} AND NOT (${infix})`, rank: similarOrder, byIds: true }], inLabels };
}

/**
 * The ids of the searchable labels similar to `q`, read bar by bar from the top. A bar is a number
 * m of the text's n trigrams: the trigram index names the labels sharing at least m of them, and
 * the recheck keeps those with a similarity above (m - 1) / n; the lowest bar, the threshold's
 * (0.3: at least 0.3 n shared), keeps similarity 0.3 and up. The bars read the searchable labels
 * alone (search_labels, 0040: a narrow table whose pages stay in the buffer cache). Each label the
 * index names is read from the table and rechecked, so a bar is lowered only while the index named at most
 * SIMILAR_GUARD labels at the current one (PostgreSQL counts the entries an index scan returns in
 * the transaction) and the next bar is not known to name more: the labels starting with the
 * text's first m characters, or ending with its last m + 1, share m of its trigrams (counted up
 * to the guard from the label and suffix indexes). A text whose trigrams are common (`sting`:
 * 40,000 labels share two of its six) thus stops at a raised bar after reading about a thousand
 * rows, while a text whose 0.3 bar names few labels gets every label at least 0.3 similar.
 */
async function similarIds(db: Executor, q: string): Promise<number[]> {
  const chars = [...q];
  const plain = (part: string[], length: number) => part.length === length && part.every((c) => WORD_CHAR.test(c));
  const cap = SIMILAR_GUARD + 1;
  /** Index entries the trigram index returned in this transaction so far. */
  const seen = sql`pg_stat_get_xact_tuples_returned(to_regclass('search_labels_trgm_idx'))::int`;
  /** How many labels bar m is known to name at least (up to the guard): those starting with m characters of the text, or ending with m + 1. */
  const named = (m: number) => {
    const prefix = chars.slice(0, m);
    const suffix = chars.slice(-(m + 1));
    // each a range of an index (the names' labels, the searchable labels reversed: 0040), so one plan serves every text
    const starting = plain(prefix, m) ? sql`(SELECT count(*) FROM (SELECT 1 FROM ens_names WHERE searchable AND ${startsWith(prefix.join(''))} LIMIT ${cap}) x)::int` : sql`0`;
    const ending = plain(suffix, m + 1) ? sql`(SELECT count(*) FROM (SELECT 1 FROM search_labels WHERE ${startsWith(reversed(suffix.join('')), sql`reverse(label)`)} LIMIT ${cap}) x)::int` : sql`0`;
    return sql`greatest(${starting}, ${ending})`;
  };
  const setThreshold = (t: string) => sql`set_config('pg_trgm.similarity_threshold', ${t}, true)`;
  // Every statement below has one plan whatever the text (the bars a scan of the trigram index,
  // with sequential scans off from before the first is planned): each is planned once per
  // connection (GENERIC_PLAN), not per bar; planning them was 3 ms of a new text's 13.
  const run = async (trx: Executor) => {
    const { rows: [text] } = await sql<{ n: number; m0: number; base: string }>`
      SELECT ${GENERIC_PLAN} n, ceil(current_setting('pg_trgm.similarity_threshold')::numeric * n)::int AS m0, current_setting('pg_trgm.similarity_threshold') AS base
      FROM (SELECT coalesce(array_length(show_trgm(${q}), 1), 0) AS n) t`.execute(trx);
    if (!text || text.n === 0 || text.m0 === 0) return [];
    const thresholdOf = (m: number) => (m === text.m0 ? text.base : String((m - 1) / text.n + 0.000001));
    let m = Math.min(text.n, text.m0 + SIMILAR_BARS - 1);
    // Each bar is read through the trigram index, whatever the table's size, so that its count says what the bar cost.
    let before = (await sql<{ seen: number | null }>`SELECT ${GENERIC_PLAN} ${seen} AS seen, ${setThreshold(thresholdOf(m))}, set_config('enable_seqscan', 'off', true)`.execute(trx)).rows[0]?.seen ?? 0;
    let ids: number[];
    for (;;) {
      ids = (await sql<{ id: number }>`SELECT ${GENERIC_PLAN} id FROM search_labels WHERE label % ${q}`.execute(trx)).rows.map((r) => r.id);
      if (m === text.m0) break;
      // What this bar cost, what the next is known to cost at least, and the next bar's threshold (harmless if it is not read).
      const { rows: [cost] } = await sql<{ seen: number | null; next: number }>`SELECT ${GENERIC_PLAN} ${seen} AS seen, ${named(m - 1)} AS next, ${setThreshold(thresholdOf(m - 1))}`.execute(trx);
      const after = cost?.seen ?? 0;
      if (after - before > SIMILAR_GUARD || (cost?.next ?? 0) > SIMILAR_GUARD) break;
      before = after;
      m -= 1;
    }
    if (db.isTransaction) await sql`SELECT ${GENERIC_PLAN} ${setThreshold(text.base)}, set_config('enable_seqscan', 'on', true)`.execute(trx);
    return ids;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Label lengths read one by one before a whole range of labels is sorted by length (see byLengthPage), for pages this deep. */
const SHORT_LENGTHS = 8;
const SHORT_DEPTH = 1_000;

/**
 * The page of a tier ranked by length, then label (C), then id, as one statement: first read
 * length by length up to SHORT_LENGTHS, for each length the range of ens_names_s_length_idx
 * holding `where`'s labels, in index order and only as far as the page needs; only when those
 * short labels do not fill the page (a rare prefix) the whole range of labels is read and sorted.
 * A 2-letter prefix, thousands of labels at a million names that the range scan reads and sorts
 * whole, then costs a few dozen index entries per length. The short labels come first in the
 * order, so when they fill the page it is the page of the whole tier. Only for `where` the index
 * answers alone (no filters).
 */
function byLengthPage(where: RawBuilder<unknown>, rank: RawBuilder<unknown>, skip: number, want: number): RawBuilder<{ id: number }> {
  return sql<{ id: number }>`WITH short AS MATERIALIZED (
      SELECT s.id, s.label_length, s.label FROM generate_series(1, ${SHORT_LENGTHS}) AS lengths(n)
      CROSS JOIN LATERAL (SELECT id, label, label_length FROM ens_names WHERE ${where} AND label_length = lengths.n ORDER BY (label COLLATE "C"), id LIMIT ${skip + want}) s
      ORDER BY s.label_length, (s.label COLLATE "C"), s.id OFFSET ${skip} LIMIT ${want})
    SELECT id FROM (
      SELECT id, label_length, label FROM short WHERE (SELECT count(*) FROM short) = ${want}
      UNION ALL
      (SELECT id, label_length, label FROM ens_names WHERE ${where} AND (SELECT count(*) FROM short) < ${want} ORDER BY ${rank} OFFSET ${skip} LIMIT ${want})
    ) page ORDER BY label_length, (label COLLATE "C"), id`;
}

/**
 * Runs the statement of a page's ids (in their order) and returns its rows: the ids alone, or the
 * rows a caller joins to them in the same statement (the results of global search).
 */
export type PageReader<R extends { id: number }> = (db: Executor, page: RawBuilder<{ id: number }>, plan: 'generic' | 'custom') => Promise<R[]>;

const idRows: PageReader<{ id: number }> = async (db, page) => (await page.execute(db)).rows;

/**
 * A page read across tiers: each tier from where the page starts in it; when a tier ends on the
 * page the next one continues it, and a tier that ends before the page is counted (up to the
 * window) to know how far into the next one the page starts.
 */
async function tieredPage<R extends { id: number }>(
  db: Executor, base: RawBuilder<unknown>[], tiers: Tier[], offset: number, limit: number, reader: PageReader<R>,
): Promise<R[]> {
  // filterConditions always gives `searchable`; anything more is a filter.
  const unfiltered = base.length === 1;
  const page: R[] = [];
  let before = 0;
  for (const tier of tiers) {
    const conds = tier.base ?? base;
    const where = and(tier.cond ? [...conds, tier.cond] : conds);
    const skip = Math.max(0, offset - before);
    const want = limit - page.length;
    const short = tier.byLength && unfiltered && skip + want <= SHORT_DEPTH;
    // A page whose conditions have no values (no text, no filter: the unfiltered sorts) has one best
    // plan, an ordered walk of its sort's index: planned once (GENERIC_PLAN), its size in the text.
    // So has a short text's page read length by length (a range of the length index per length,
    // then of the label index when they run out: checked at a million names for common and rare
    // prefixes and deep pages), which took 1 ms to plan and 0.4-0.9 ms to run, and the prefix tier
    // of a longer one (Tier.samePlan). Only a reader that marks its own statement plans a short
    // page once (it is a WITH, which cannot carry the mark).
    const generic = short || (unfiltered && tier.samePlan === true) || tier.byIds === true || tier.plannedOnce === true || where.compile(db).parameters.length === 0;
    const statement = short
      ? byLengthPage(where, tier.rank, skip, want)
      : sql<{ id: number }>`SELECT ${generic ? GENERIC_PLAN : sql``} id FROM ${tier.from ?? sql`ens_names`} WHERE ${where} ORDER BY ${tier.rank} OFFSET ${skip} LIMIT ${generic ? sql.lit(want) : want}`;
    const found = await reader(db, statement, generic ? 'generic' : 'custom');
    page.push(...found);
    if (page.length === limit) break;
    before += found.length > 0 || skip === 0 ? skip + found.length : (await cappedCount(db, where, tier.from)).total;
  }
  return page;
}

/** How long a capped count of a search is reused for the same normalized text and filters. */
export const SEARCH_COUNT_TTL_SECONDS = 15;
/** How long after that it still answers while it is recounted beside the request (cachedStale). */
export const SEARCH_COUNT_STALE_SECONDS = 45;

/**
 * Counts matching names up to the window: exact when fewer, capped otherwise, never a whole-table
 * count. `from`: the rows read in place of the names' (ClubRows).
 */
function cappedCount(db: Executor, where: RawBuilder<unknown>, from: RawBuilder<unknown> = sql`ens_names`): Promise<{ total: number; capped: boolean }> {
  return cappedRows(db, sql`SELECT 1 FROM ${from} WHERE ${where}`);
}

/** Counts the rows of `rows` (one per name) up to the window. */
async function cappedRows(db: Executor, rows: RawBuilder<unknown>): Promise<{ total: number; capped: boolean }> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${rows} LIMIT ${RESULT_WINDOW + 1}) m`.execute(db);
  const n = r.rows[0]?.n ?? 0;
  return n > RESULT_WINDOW ? { total: RESULT_WINDOW, capped: true } : { total: n, capped: false };
}

/** The filters club_names answers alone (0032, 0034: it carries searchable, label_length, char_class and listing_created_at of each name). */
const CLUB_ROW_FILTERS: ReadonlySet<string> = new Set(['clubs', 'minLength', 'maxLength', 'digits', 'letters', 'emoji'] satisfies FilterName[]);

/**
 * Whether every filter given is one club_names answers alone (a class only as `only`), and with
 * `listedToo` also `listed=true` (the listed-names index holds the same columns and the listing's
 * time).
 */
function onlyClubRowFilters(f: SearchFilters, listedToo = false): boolean {
  return Object.entries(f).every(([name, value]) => value === undefined || (CLUB_ROW_FILTERS.has(name) && value !== 'exclude')
    || (listedToo && name === 'listed' && value === true));
}

/**
 * Rows a search reads (`from`, columns named as the names' own), the filters' conditions on them,
 * the rows of their count (one per name), and whether they are one club's (`one`: `club = $1`, so
 * that its indexes give its rows in their order).
 */
interface ClubRows { from: RawBuilder<unknown>; conds: RawBuilder<unknown>[]; counted: RawBuilder<unknown>; one: boolean; clubs: readonly string[] }

/** The columns of a club's rows, under the names' column names. */
const CLUB_ROW_COLUMNS = sql`ens_name_id AS id, label, label_length, char_class, searchable, listing_created_at`;

/** A club's rows under the names' column names (as ClubRows.from, for one club). */
const clubRowsOfOne = (club: string) => sql`(SELECT ${CLUB_ROW_COLUMNS} FROM club_names WHERE club = ${club}) ens_names`;

/**
 * The clubs' own rows in place of the names', when every filter is one club_names answers alone
 * (clubs, lengths, a class `only`, listed=true: the club pages' filters): each member's id, label,
 * length, class, searchable and listing time under the names' column names, so global search's own
 * conditions (filterConditions, `listed` read from the listing time as in the listed walk) and text
 * tiers read them unchanged; a name in several of the clubs once.
 * A club's count is then a range of club_names_search_idx (the 10k club's 10,000 names: 5 ms,
 * where the clubs' GIN index read a table page per member, 250 ms at a million names), and so are
 * the names of a club starting with a text (every label starting with it, read and checked
 * for the club, before), and one club's page in listing order (0034: a range of its listed names,
 * then of its others by id).
 */
function clubRowsOf(f: SearchFilters, ctx: SearchContext): ClubRows | undefined {
  const clubs = f.clubs;
  if (clubs === undefined || !onlyClubRowFilters(f, true)) return undefined;
  const one = clubs.length === 1;
  const inClubs = one ? sql`club = ${clubs[0]}` : sql`club = ANY(${textArray(clubs)})`;
  const conds = filterConditions({ ...f, clubs: undefined }, ctx, true);
  return {
    from: one ? clubRowsOfOne(clubs[0]!) : sql`(SELECT DISTINCT ${CLUB_ROW_COLUMNS} FROM club_names WHERE ${inClubs}) ens_names`,
    conds,
    // several clubs' rows deduplicated by id alone: by `from`'s every column, three large clubs took 180 ms, by id 6 ms
    counted: one ? sql`SELECT 1 FROM club_names WHERE ${and([inClubs, ...conds])}` : sql`SELECT DISTINCT ens_name_id FROM club_names WHERE ${and([inClubs, ...conds])}`,
    one,
    clubs,
  };
}

/**
 * Several clubs' rows for a page in an order each club's index holds: of each club, its first
 * `depth` rows under the conditions in that order (a range of one of its indexes), together and
 * deduplicated. The page's names are among them: a name among the first `depth` of the union is
 * among the first `depth` of each club it is in. The 100k and 3-letters clubs by length or label
 * read all their 117,000 rows to sort them (92-161 ms at a million names); now two ranges.
 */
function topOfEachClub(rows: ClubRows, orderBy: RawBuilder<unknown>, depth: number): RawBuilder<unknown> {
  const each = rows.clubs.map((club) => sql`(SELECT * FROM ${clubRowsOfOne(club)} WHERE ${and(rows.conds)} ORDER BY ${orderBy} LIMIT ${depth})`);
  return sql`(SELECT DISTINCT * FROM (${sql.join(each, sql` UNION ALL `)}) tops) ens_names`;
}

/**
 * The sorts whose keys the club rows hold, each served by an index of one club's rows: listing
 * time (club_names_listed_idx, then club_names_unlisted_idx by id: 0034), length then label
 * (`ranking`, a club page's rank order, and `character_count`: club_names_length_idx, 0036), label
 * (`alphabetical`: club_names_search_idx) and id (`view_count`: club_names_id_idx, 0039). Through
 * the names' rows, the 100k club's page by rank took 200 ms, the 10k club's alphabetical from the
 * end 210-280 ms (an index of every name walked, each checked for the club), club 999's by id 100 ms.
 */
const CLUB_ROW_SORTS: ReadonlySet<SortKey> = new Set(['listing_date', 'ranking', 'character_count', 'alphabetical', 'view_count',
  // the labels with keyword metrics by them, then the others by id (club_names_id_idx): one club's 10k names
  // through the names' rows walked every name by id, 60-330 ms at a million names
  'google_monthly_searches', 'google_avg_cpc']);

async function ids(db: Executor, query: RawBuilder<{ id: number }>): Promise<number[]> {
  return (await query.execute(db)).rows.map((r) => r.id);
}

/** What a page of global search asks. */
export interface SearchSpec {
  q?: string; filters: SearchFilters; sort: Sort | 'relevance'; offset: number; limit: number; extra?: RawBuilder<unknown>[];
  /**
   * Reuse the capped count for SEARCH_COUNT_TTL_SECONDS (keyed by the text and filters; not with
   * `extra`), then answer it for SEARCH_COUNT_STALE_SECONDS more while one recount runs beside the
   * request (`cachedStale`); concurrent requests of one key in this process share one count.
   */
  counts?: { cache: Cache };
}

/**
 * A page of global search, read by `reader`. With `q` and no explicit sort the order is relevance
 * (exact, prefix, substring, similarity); otherwise the sort key, nulls last in both directions,
 * ties by id. A nullable key is read in two index-ordered steps (rows with a value, then rows
 * without, by id) so each step walks one index instead of sorting the table.
 */
export async function searchPage<R extends { id: number }>(db: Executor, spec: SearchSpec, ctx: SearchContext, reader: PageReader<R>): Promise<{ rows: R[]; total: number; capped: boolean }> {
  const base = [...filterConditions(spec.filters, ctx), ...(spec.extra ?? [])];
  const { counts } = spec;
  const match = spec.q ? textMatch(spec.q, await similarOf(db, spec.q, counts)) : undefined;
  const conds = match ? [...base, match.cond] : base;
  const where = and(conds);
  const { offset, limit } = spec;

  const clubRows = spec.extra ? undefined : clubRowsOf(spec.filters, ctx);
  // filterConditions always gives `searchable` (every row of search_labels is); anything more is a filter
  const unfiltered = base.length === 1;
  const counted = () => (clubRows && !match ? cappedRows(db, clubRows.counted)
    : match?.inLabels && unfiltered ? cappedCount(db, match.cond, sql`search_labels`)
    : cappedCount(db, where));
  const countKey = searchKey('count', { q: spec.q ?? '', f: spec.filters });
  const counting = counts && !spec.extra
    ? cachedStale(counts.cache, countKey, SEARCH_COUNT_TTL_SECONDS, SEARCH_COUNT_STALE_SECONDS, counted)
    : counted();
  let page: Promise<R[]>;
  if (spec.sort === 'relevance' && match) {
    // the prefix tier (a range of labels) from the clubs' rows when they hold every filter
    const [first, ...rest] = match.tiers;
    const tiers = clubRows && first ? [{ ...first, from: clubRows.from, base: clubRows.conds }, ...rest]
      : unfiltered ? match.tiers.map((t) => (t.inLabels ? { ...t, from: sql`search_labels`, base: [] } : t))
      : match.tiers;
    const read = <T extends { id: number }>(r: PageReader<T>) => tieredPage(db, base, tiers, offset, limit, r);
    page = counts && !spec.extra && labelFiltersOnly(spec.filters)
      ? keptPage(db, counts.cache, searchKey('page', { q: spec.q, f: spec.filters, offset, limit }), () => read(idRows), reader)
      : read(reader);
  } else {
    const sort = spec.sort === 'relevance' ? { by: 'listing_date' as const, order: 'desc' as const } : spec.sort;
    if (clubRows && !match && CLUB_ROW_SORTS.has(sort.by) && (clubRows.one || !SORT_COLUMNS[sort.by].nullable)) {
      // one club's page in an order its rows hold: each tier a range of one of the club's indexes, planned
      // once; several clubs' in an order of one tier, each club's first rows (not listing order: the
      // listed walk stops at the page's end; nor the keyword metrics: all their rows by id)
      page = sortedPage(db, conds, sort, offset, limit, reader, { rows: clubRows, filters: spec.filters });
    } else {
      const walk = sort.by === 'listing_date' && spec.filters.clubs !== undefined && await clubMembers(db, spec.filters.clubs, counts) >= LISTED_WALK_FROM;
      const listed = walk ? [...filterConditions(spec.filters, ctx, true), ...(spec.extra ?? []), ...(match ? [match.cond] : [])] : undefined;
      page = sortedPage(db, [...conds, ...inSomeClub(spec.filters, sort)], sort, offset, limit, reader,
        { listed, listedOnce: walk && !match && !spec.extra && walkPlannedOnce(spec.filters), filters: spec.filters });
    }
  }
  const [rows, count] = await Promise.all([page, counting]);
  return { rows, ...count };
}

/** The cache key of a search's `kind` of figure (count, page) for `of` (its text, filters, window). */
const searchKey = (kind: string, of: object) =>
  `search:${kind}:${JSON.stringify(of, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;

/**
 * The filters a name's label (and the clubs it puts the name in) alone decides: the length, the
 * characters, the clubs. Not the market's (price, listed, offers, owner, status, views...).
 */
const LABEL_FILTERS: ReadonlySet<string> = new Set([
  'minLength', 'maxLength', 'digits', 'letters', 'emoji', 'repeatingChars', 'contains', 'startsWith', 'endsWith', 'clubs', 'excludeClubs',
] satisfies FilterName[]);

function labelFiltersOnly(f: SearchFilters): boolean {
  return Object.entries(f).every(([name, value]) => value === undefined || LABEL_FILTERS.has(name));
}

/**
 * A relevance page of a text under label filters only: its order is the labels' alone (exact,
 * prefix, substring, similar; by similarity, length, label), so its ids are reused like the count
 * (SEARCH_COUNT_TTL_SECONDS, then recounted beside the request) and only its rows are read per
 * request, fresh, by id. A longer text's prefix tier ranked every label starting with it by
 * similarity on every request (566 labels for "weigh" at a million names: 0.93 ms of PostgreSQL's
 * time of its 1.0). A name registered meanwhile joins the page when it is recounted, as it joins
 * the count.
 */
async function keptPage<R extends { id: number }>(
  db: Executor, cache: Cache, key: string, read: () => Promise<{ id: number }[]>, reader: PageReader<R>,
): Promise<R[]> {
  const kept = await cachedStale(cache, key, SEARCH_COUNT_TTL_SECONDS, SEARCH_COUNT_STALE_SECONDS, async () => (await read()).map((r) => r.id));
  return kept.length === 0 ? [] : reader(db, sql<{ id: number }>`SELECT ${GENERIC_PLAN} id FROM unnest(${kept}::bigint[]) WITH ORDINALITY AS k(id, o) ORDER BY o`, 'generic');
}

/**
 * By number of clubs, the names of a club filter are in one club at least: said as a condition,
 * the walk of ens_names_s_clubs_count_idx starts at one club, not among the names in none (most
 * of them), each read and refused (the 10k club's first page ascending: 383 ms → 4 ms at a million).
 */
function inSomeClub(f: SearchFilters, sort: Sort): RawBuilder<unknown>[] {
  return sort.by === 'clubs_count' && (f.clubs !== undefined || f.inAnyClub === true) ? [sql`cardinality(clubs) > 0`] : [];
}

/**
 * The similar labels of a search text (similarIds), for texts of SIMILAR_FROM characters or more;
 * reused like the count (they depend on the text alone), concurrent requests sharing one reading.
 */
async function similarOf(db: Executor, q: string, counts: SearchSpec['counts']): Promise<number[]> {
  if ([...q].length < SIMILAR_FROM || !WORD_CHAR.test(q)) return [];
  if (!counts) return similarIds(db, q);
  const key = `search:similar:${q}`;
  return cachedStale(counts.cache, key, SEARCH_COUNT_TTL_SECONDS, SEARCH_COUNT_STALE_SECONDS, () => similarIds(db, q));
}

/** A page of name ids for global search (see searchPage). */
export async function searchIds(db: Executor, spec: SearchSpec, ctx: SearchContext): Promise<IdPage> {
  const { rows, total, capped } = await searchPage(db, spec, ctx, idRows);
  return { ids: rows.map((r) => r.id), total, capped };
}

/**
 * Clubs of at least this many names (all told) are read, among listed names, by walking the
 * listed-names index in listing order (it carries each name's clubs, ens_names_s_listed_idx)
 * instead of through the clubs' GIN index. Left to itself the planner ANDed the two as bitmaps,
 * reading the whole listed index and then the rows: 36 ms for the 1,000 names of club 999 at a
 * million names, where the walk took 2.4 ms; for a club of 100 names the GIN index alone (4 ms)
 * beats a walk that finds few of them (13 ms: every listed name).
 */
const LISTED_WALK_FROM = 300;

/**
 * Whether the listed walk has one plan whatever its values: when every filter is one the
 * listed-names index holds (clubs, lengths, a class `only`, listed=true), the walk reads it alone
 * backwards or forwards; its generic plan is that walk (checked at a million names for clubs
 * 999, 100k and 3-letters, deep pages too), and planning it per request cost 0.35-0.6 ms of
 * PostgreSQL's time, more than most walks take. With other filters the planner may do better
 * with their values (a narrow price range from the price index).
 */
function walkPlannedOnce(f: SearchFilters): boolean {
  return onlyClubRowFilters(f, true);
}

const CLUB_SIZE_TTL_SECONDS = 60;

/** How many names the clubs have all told (clubs.member_count, kept by every name write; reused a minute). */
async function clubMembers(db: Executor, clubs: readonly string[], counts: SearchSpec['counts']): Promise<number> {
  const read = async () => (await sql<{ n: number }>`SELECT coalesce(sum(member_count), 0)::int AS n FROM clubs WHERE name = ANY(${textArray(clubs)})`.execute(db)).rows[0]?.n ?? 0;
  if (!counts) return read();
  const key = `search:club-size:${JSON.stringify(clubs)}`;
  return cached(counts.cache, key, CLUB_SIZE_TTL_SECONDS, read);
}

/**
 * Where a sorted page's tiers read, when not the names' rows under `conds`: `listed`, the
 * conditions of the tier of rows with a value (see LISTED_WALK_FROM), and `listedOnce`, that tier
 * has one plan (walkPlannedOnce); or `rows`, the rows and conditions of both tiers (a club's rows
 * in an order they hold: each tier a range of one of its indexes, one plan whatever the club;
 * several clubs' rows, deduplicated and sorted).
 */
interface SortedSource { listed?: RawBuilder<unknown>[]; listedOnce?: boolean; rows?: ClubRows; filters?: SearchFilters }

function sortedPage<R extends { id: number }>(
  db: Executor, conds: RawBuilder<unknown>[], sort: Sort, offset: number, limit: number, reader: PageReader<R>, source: SortedSource = {},
): Promise<R[]> {
  const column = SORT_COLUMNS[sort.by];
  const dir = sql.raw(sort.order === 'asc' ? 'ASC' : 'DESC');
  const orderBy = sql.join([...column.keys.map((k) => sql`${k} ${dir}`), sql`id ${dir}`]);
  // several clubs' rows are planned with their clubs (generically, `club = ANY` of unknown clubs read the whole table)
  const rows = source.rows;
  const own: Partial<Tier> = rows
    ? { from: rows.one || column.nullable ? rows.from : topOfEachClub(rows, orderBy, offset + limit), base: rows.conds, plannedOnce: rows.one }
    : {};
  if (!column.nullable) return tieredPage(db, conds, [{ rank: orderBy, ...own }], offset, limit, reader);
  // The rows with a value by the key, then the rows without one by id; a tier the filters leave
  // empty is not read (`listed=false` by listing date: the planner read every listed name's row to
  // find none, 85 ms at a million names).
  const key = column.keys[0];
  const present = column.presentWhen === undefined ? undefined : source.filters?.[column.presentWhen];
  return tieredPage(db, conds, [
    ...(present === false ? [] : [{ cond: column.present ?? sql`${key} IS NOT NULL`, rank: orderBy, base: source.listed, plannedOnce: source.listedOnce, ...own }]),
    ...(present === true ? [] : [{ cond: column.present ? sql`NOT (${column.present})` : sql`${key} IS NULL`, rank: sql`id ${dir}`, ...own }]),
  ], offset, limit, reader);
}

/**
 * The names among `labels` that exist and pass the filters, in the given sort, or in the order
 * of `labels` (the model's order) without one. The set is small (one generation), so no paging here.
 */
export async function idsAmongLabels(db: Executor, labels: readonly string[], filters: SearchFilters, sort: Sort | undefined, ctx: SearchContext): Promise<number[]> {
  if (labels.length === 0) return [];
  const where = and([...filterConditions(filters, ctx), sql`label = ANY(${textArray(labels)})`]);
  if (sort) return ids(db, sql<{ id: number }>`SELECT id FROM ens_names WHERE ${where} ORDER BY ${orderOf(sort)}`);
  return ids(db, sql<{ id: number }>`SELECT id FROM ens_names WHERE ${where} ORDER BY array_position(${textArray(labels)}, label), id`);
}

/**
 * Which labels of a term list name searchable names: their ids in the list's order, and the highest
 * name id when that was read. A row's label and `searchable` never change and names are not
 * deleted, so only a name stored since can make it wrong, and every such name takes a higher id.
 */
interface LabelIds {
  ids: number[];
  top: number;
}

/** Term lists resolved, per database handle: at most this many ids in all, each list for TERM_LIST_TTL_MS. */
const MAX_KEPT_IDS = 1_000_000;
/**
 * A name stored by a transaction that took its id before the read and committed after it is below
 * `top` yet missing from the list; a list is resolved again after this long, whatever `top` says.
 */
const TERM_LIST_TTL_MS = 60_000;
const termLists = new WeakMap<object, LRUCache<string, LabelIds>>();

function termListsOf(db: Executor): LRUCache<string, LabelIds> {
  let lists = termLists.get(db);
  if (lists === undefined) termLists.set(db, lists = new LRUCache<string, LabelIds>({ maxSize: MAX_KEPT_IDS, sizeCalculation: (l) => l.ids.length + 1, ttl: TERM_LIST_TTL_MS }));
  return lists;
}

const HIGHEST_NAME_ID = sql`(SELECT coalesce(max(id), 0) FROM ens_names)`;
const idArray = (row: { ids: string[] }) => row.ids.map(Number);

/**
 * The labels' searchable names, with the highest name id read in the same snapshot. A searchable
 * name is its label and `.eth`, so a name is looked up by its label in the C-collated label index
 * (ens_names_s_alpha_idx, from the index alone), whose comparisons are byte comparisons, instead of
 * the name index, whose are by locale: about half the time for 1,000 names.
 */
async function resolveLabels(db: Executor, labels: readonly string[]): Promise<LabelIds> {
  const { rows } = await sql<{ top: number; ids: string[] }>`SELECT ${GENERIC_PLAN} ${HIGHEST_NAME_ID} AS top, ARRAY(
      SELECT n.id FROM unnest(${textArray(labels)}) WITH ORDINALITY AS t(term, pos) JOIN ens_names n ON (n.label COLLATE "C") = t.term
      WHERE n.searchable ORDER BY t.pos) AS ids`.execute(db);
  return { top: rows[0].top, ids: idArray(rows[0]) };
}

/** The names among `found` (ids in the terms' order) that pass the filters, sorted, and the highest name id now. */
async function idsAmongFound(db: Executor, found: readonly number[], filters: SearchFilters, sort: Sort | undefined, ctx: SearchContext): Promise<LabelIds> {
  const conds = and(filterConditions(filters, ctx));
  const page = sort
    ? sql`SELECT id FROM ens_names WHERE ${conds} AND id = ANY(${found as number[]}::int8[]) ORDER BY ${orderOf(sort)}`
    : sql`SELECT ens_names.id FROM unnest(${found as number[]}::int8[]) WITH ORDINALITY AS t(found, pos) JOIN ens_names ON ens_names.id = t.found WHERE ${conds} ORDER BY t.pos`;
  const { rows } = await sql<{ top: number; ids: string[] }>`SELECT ${GENERIC_PLAN} ${HIGHEST_NAME_ID} AS top, ARRAY(${page}) AS ids`.execute(db);
  return { top: rows[0].top, ids: idArray(rows[0]) };
}

/**
 * Bulk search: the names of `labels` (normalized, distinct) that exist and pass the filters, in
 * the given sort or else in the order of `labels`. The terms are resolved to ids once per list
 * (`resolveLabels`, up to 10,000 probes of the label index: 1.2 ms of PostgreSQL for 1,000 terms)
 * and kept: a client pages through a list, or sorts and filters it, by sending the same terms
 * again, and each of those requests reads only the ids found (`idsAmongFound`, the primary key).
 * A kept list is used while no name with a higher id than it saw exists (checked by the page's
 * own statement) and for at most TERM_LIST_TTL_MS; inside a transaction, never.
 * Both statements are planned once (GENERIC_PLAN): planning with a thousand labels' values (a
 * selectivity for each) cost a fifth of PostgreSQL's time for a 1,000-term request.
 */
export async function idsAmongLabelList(db: Executor, labels: readonly string[], filters: SearchFilters, sort: Sort | undefined, ctx: SearchContext): Promise<number[]> {
  if (labels.length === 0) return [];
  const lists = db.isTransaction ? undefined : termListsOf(db);
  const key = createHash('sha1').update(labels.join('\n')).digest('base64');
  const kept = lists?.get(key);
  if (kept !== undefined) {
    const page = await idsAmongFound(db, kept.ids, filters, sort, ctx);
    if (page.top <= kept.top) return page.ids;
  }
  const found = await resolveLabels(db, labels);
  lists?.set(key, found);
  return (await idsAmongFound(db, found.ids, filters, sort, ctx)).ids;
}

/** The id of a searchable name, or undefined. */
export async function findNameId(db: Executor, name: string): Promise<{ id: number; clubs: string[] } | undefined> {
  return db.selectFrom('ens_names').modifyFront(GENERIC_PLAN).select(['id', 'clubs']).where('name', '=', name).where('searchable', '=', true).executeTakeFirst();
}
