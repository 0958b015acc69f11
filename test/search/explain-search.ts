/**
 * EXPLAIN ANALYZE of the global-search queries on a big database (not a test; run by hand):
 *
 *   npm run seed -- --names 1000000            (into a database of its own)
 *   npx tsx test/search/explain-search.ts postgres://postgres@127.0.0.1:5432/ensm_big [case filter]
 *
 * For each case: the wall time of one page of ids with its capped count (warm), then the
 * execution time and the top plan nodes of each statement. A case filter prints whole plans.
 */
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/db/schema.js';
import { searchIds, type Sort } from '../../src/search/query.js';
import type { SearchFilters } from '../../src/search/filters.js';

const url = process.argv[2];
if (!url) throw new Error('usage: tsx test/search/explain-search.ts <database url> [case filter]');
const pool = new pg.Pool({ connectionString: url, max: 4 });
let captured: LogEvent['query'][] = [];
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (e) => { if (e.level === 'query') captured.push(e.query); } });
const ctx = { now: new Date(), gracePeriodDays: 90, premiumPeriodDays: 21 };
const owner = (await pool.query(`SELECT owner_address FROM ens_names WHERE owner_address IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`)).rows[0].owner_address;
const cases: Array<[string, { q?: string; filters?: SearchFilters; sort?: Sort | 'relevance'; page?: number; limit?: number }]> = [
  ['default (listing_date desc)', { sort: { by: 'listing_date', order: 'desc' } }],
  ['expiry_date asc', { sort: { by: 'expiry_date', order: 'asc' } }],
  ['alphabetical asc', { sort: { by: 'alphabetical', order: 'asc' } }],
  ['alphabetical page 500', { sort: { by: 'alphabetical', order: 'asc' }, page: 500 }],
  ['character_count asc', { sort: { by: 'character_count', order: 'asc' } }],
  ['votes desc', { sort: { by: 'votes', order: 'desc' } }],
  ['price asc', { sort: { by: 'price', order: 'asc' } }],
  ['price desc', { sort: { by: 'price', order: 'desc' } }],
  ['price asc, offset 9995', { sort: { by: 'price', order: 'asc' }, page: 2000, limit: 5 }],
  ['registration_date desc', { sort: { by: 'registration_date', order: 'desc' } }],
  ['last_sale_price desc', { sort: { by: 'last_sale_price', order: 'desc' } }],
  ['q=apple relevance', { q: 'apple', sort: 'relevance' }],
  ['q=coin relevance', { q: 'coin', sort: 'relevance' }],
  ['q=ab relevance', { q: 'ab', sort: 'relevance' }],
  ['q=a relevance', { q: 'a', sort: 'relevance' }],
  ['q=apple sort price', { q: 'apple', sort: { by: 'price', order: 'asc' } }],
  ['clubs 999 sort price', { filters: { clubs: ['999'] }, sort: { by: 'price', order: 'asc' } }],
  ['digits only len 4', { filters: { digits: 'only', minLength: 4, maxLength: 4 }, sort: { by: 'listing_date', order: 'desc' } }],
  ['letters only maxLength 5, price asc', { filters: { letters: 'only', maxLength: 5 }, sort: { by: 'price', order: 'asc' } }],
  ['contains ab (2 chars)', { filters: { contains: 'ab' }, sort: { by: 'listing_date', order: 'desc' } }],
  ['contains zq (rare 2 chars, no index)', { filters: { contains: 'zq' }, sort: { by: 'listing_date', order: 'desc' } }],
  ['contains apple', { filters: { contains: 'apple' }, sort: { by: 'expiry_date', order: 'asc' } }],
  ['startsWith app', { filters: { startsWith: 'app' }, sort: { by: 'alphabetical', order: 'asc' } }],
  ['endsWith ing', { filters: { endsWith: 'ing' }, sort: { by: 'listing_date', order: 'desc' } }],
  ['endsWith qq (rare)', { filters: { endsWith: 'qq' }, sort: { by: 'listing_date', order: 'desc' } }],
  ['status grace', { filters: { status: ['grace'] }, sort: { by: 'expiry_date', order: 'asc' } }],
  ['expiringWithinDays 30', { filters: { expiringWithinDays: 30 }, sort: { by: 'expiry_date', order: 'asc' } }],
  ['owner (largest holder)', { filters: { owner }, sort: { by: 'expiry_date', order: 'asc' } }],
  ['owner (largest holder) registration_date desc', { filters: { owner }, sort: { by: 'registration_date', order: 'desc' } }],
  ['owner (largest holder) registration_date desc, page 50', { filters: { owner }, sort: { by: 'registration_date', order: 'desc' }, page: 50 }],
  ['price 0.1-1 ETH', { filters: { minPrice: 10n ** 17n, maxPrice: 10n ** 18n }, sort: { by: 'price', order: 'asc' } }],
  ['listed + hasOffer, offer desc', { filters: { listed: true, hasOffer: true }, sort: { by: 'offer', order: 'desc' } }],
  // both sets large, their overlap small: from its own index (0043)
  ['listed + hasOffer, price asc', { filters: { listed: true, hasOffer: true }, sort: { by: 'price', order: 'asc' } }],
  ['listed + hasOffer, last_sale_date desc', { filters: { listed: true, hasOffer: true }, sort: { by: 'last_sale_date', order: 'desc' } }],
  // a text among the market's names: from their indexes, which carry the label (0046)
  ['q=a listed', { q: 'a', filters: { listed: true }, sort: 'relevance' }],
  ['q=a price asc', { q: 'a', sort: { by: 'price', order: 'asc' } }],
  ['emoji only, listed (by listing time)', { filters: { emoji: 'only', listed: true }, sort: { by: 'listing_date', order: 'desc' } }],
  // a text with a hyphen: its pairs from the pair index (the trigram index cannot look inside it)
  ['q=a-b listed', { q: 'a-b', filters: { listed: true }, sort: 'relevance' }],
  // a sort's tier the filter leaves empty is not read
  ['listed=false, listing_date desc', { filters: { listed: false }, sort: { by: 'listing_date', order: 'desc' } }],
  ['emoji only', { filters: { emoji: 'only' }, sort: { by: 'listing_date', order: 'desc' } }],
  ['repeatingChars only', { filters: { repeatingChars: 'only' }, sort: { by: 'listing_date', order: 'desc' } }],
  // a club's pages from its own rows (0034, 0036), and a class by label or length (0037)
  ['club 999 default', { filters: { clubs: ['999'], minLength: 3, maxLength: 5 }, sort: 'relevance' }],
  ['club 100k by rank, page 50', { filters: { clubs: ['100k'] }, sort: { by: 'ranking', order: 'asc' }, page: 50 }],
  ['club 10k alphabetical desc', { filters: { clubs: ['10k'] }, sort: { by: 'alphabetical', order: 'desc' } }],
  ['clubs 100k + 3-letters by length', { filters: { clubs: ['100k', '3-letters'] }, sort: { by: 'character_count', order: 'asc' } }],
  ['clubs 100k + 3-letters alphabetical desc, page 40', { filters: { clubs: ['100k', '3-letters'] }, sort: { by: 'alphabetical', order: 'desc' }, page: 40 }],
  ['digits only alphabetical desc', { filters: { digits: 'only' }, sort: { by: 'alphabetical', order: 'desc' } }],
  ['emoji only alphabetical', { filters: { emoji: 'only' }, sort: { by: 'alphabetical', order: 'asc' } }],
  ['digits only by length desc', { filters: { digits: 'only' }, sort: { by: 'character_count', order: 'desc' } }],
  // a filter its sort's index carries, or a small index of its own (0038)
  ['listed by expiry', { filters: { listed: true }, sort: { by: 'expiry_date', order: 'asc' } }],
  ['hasOffer by expiry, page 40', { filters: { hasOffer: true }, sort: { by: 'expiry_date', order: 'asc' }, page: 40 }],
  ['club 10k by clubs_count asc', { filters: { clubs: ['10k'] }, sort: { by: 'clubs_count', order: 'asc' } }],
  ['emoji only by registration asc', { filters: { emoji: 'only' }, sort: { by: 'registration_date', order: 'asc' } }],
  ['letters maxLength 5, listing_expiry page 40', { filters: { letters: 'only', maxLength: 5 }, sort: { by: 'listing_expiry', order: 'asc' }, page: 40 }],
];
const verbose = process.argv[3];
for (const [label, c] of cases) {
  const limit = c.limit ?? 20;
  const spec = { q: c.q, filters: c.filters ?? {}, sort: c.sort ?? 'relevance', offset: ((c.page ?? 1) - 1) * limit, limit };
  await searchIds(db, spec, ctx); // warm
  captured = [];
  const t0 = performance.now();
  const r = await searchIds(db, spec, ctx);
  const ms = performance.now() - t0;
  const plans: string[] = [];
  // statements only (a text's similar labels are read in a transaction: its BEGIN and COMMIT are not explained)
  for (const q of captured.filter((x) => /^\s*(\/\*.*?\*\/\s*)?(select|with)\b/is.test(x.sql))) {
    const e = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.parameters as unknown[]);
    const lines = e.rows.map((x) => x['QUERY PLAN'] as string);
    const exec = lines.find((l) => l.startsWith('Execution Time'));
    const nodes = lines.filter((l) => /Scan|Sort|Limit/.test(l)).slice(0, 3).map((l) => l.trim().replace(/\s+\(cost.*?\)/, '').slice(0, 80));
    plans.push(`${exec} | ${nodes.join(' ; ')}`);
    if (verbose && label.includes(verbose)) console.log(lines.join('\n'));
  }
  console.log(`${label.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms  ids=${r.ids.length} total=${r.total}${r.capped ? '+' : ''}`);
  for (const p of plans) console.log('      ', p);
}
await db.destroy();
