import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import fc from 'fast-check';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { insertLabels, searchNames } from '../helpers/search.js';

/**
 * Search with a text reads its relevance order in two tiers (labels holding the text, then similar
 * ones) and counts matches once per 15 s per text and filters. The pages must be exactly those of
 * the one-statement order it replaced: exact, prefix, substring, similar; then similarity, length,
 * label, id. Labels are words with their misspellings, so every text has both tiers.
 */
const WORDS = ['apple', 'grape', 'lemon', 'melon', 'mango', 'peach', 'berry', 'olive', 'cherry', 'banana'];

function variants(word: string): string[] {
  const out = new Set<string>([word]);
  for (let i = 0; i < word.length; i++) {
    out.add(word.slice(0, i) + word.slice(i + 1)); // a letter dropped
    out.add(word.slice(0, i) + 'x' + word.slice(i + 1)); // a letter changed
  }
  for (const affix of ['s', 'pie', 'tree', 'jam', '1', 'dao']) {
    out.add(word + affix);
    out.add(affix + word);
  }
  return [...out].filter((l) => l.length >= 3);
}

describe('GET /api/v1/search?q: relevance in two tiers equals the single ordering', () => {
  let t: TestContext;
  const reference = async (q: string) => (await sql<{ name: string }>`
    SELECT name FROM ens_names WHERE searchable AND (label LIKE ${`%${q}%`} OR label % ${q})
    ORDER BY CASE WHEN label = ${q} THEN 0 WHEN label LIKE ${`${q}%`} THEN 1 WHEN label LIKE ${`%${q}%`} THEN 2 ELSE 3 END,
      similarity(label, ${q}) DESC, label_length, (label COLLATE "C"), id`.execute(t.container.db)).rows.map((r) => r.name);
  const page = (q: string, pageNo: number, limit: number) => searchNames(t.app, `q=${q}&page=${pageNo}&limit=${limit}`);

  before(async () => {
    t = await createTestApp();
    const labels = [...new Set(WORDS.flatMap(variants))];
    await insertLabels(t.container.db, labels);
  });
  after(async () => { await t?.close(); });

  it('every page of every word and page size, across the tier boundary, and the total', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...WORDS), fc.integer({ min: 1, max: 9 }), async (q, limit) => {
      const expected = await reference(q);
      assert.ok(expected.some((n) => !n.includes(q)), `${q} has similar labels that do not hold it`);
      const got: string[] = [];
      let total = 0;
      for (let p = 1; (p - 1) * limit < expected.length + limit; p++) {
        const r = await page(q, p, limit);
        got.push(...r.names);
        total = r.total;
      }
      assert.deepEqual(got, expected, `q=${q} limit=${limit}`);
      assert.equal(total, expected.length);
    }), { numRuns: 12, seed: 15 });
  });
});

/**
 * A text with characters other than letters and digits between its words (`d-f`, an emoji) is
 * looked up by its pairs of characters (the trigram index cannot look inside such a text): the
 * same matches in the same order, alone, with a market filter and as a `contains` filter.
 */
describe('GET /api/v1/search?q: texts with other characters than letters and digits', () => {
  let t: TestContext;
  const LABELS = ['red-fox', 'big-red-fox', 'red-foxes', 'redfox', 'fox-red', 'red-f', 'd-f', 'ad-fa', 'zd-fz', 'a🦊b', 'xa🦊by', 'a🦊', '🦊b', 'ab', 'rad-fix'];
  const reference = async (q: string, where = sql`true`) => (await sql<{ name: string }>`
    SELECT name FROM ens_names WHERE searchable AND (label LIKE ${`%${q}%`} OR (char_length(${q}) >= 5 AND label % ${q})) AND ${where}
    ORDER BY CASE WHEN label = ${q} THEN 0 WHEN label LIKE ${`${q}%`} THEN 1 WHEN label LIKE ${`%${q}%`} THEN 2 ELSE 3 END,
      similarity(label, ${q}) DESC, label_length, (label COLLATE "C"), id`.execute(t.container.db)).rows.map((r) => r.name);

  before(async () => {
    t = await createTestApp();
    await insertLabels(t.container.db, LABELS);
    // every other label listed
    await sql`UPDATE ens_names SET listing_price_wei = 1000 + id, listing_created_at = now() - make_interval(mins => id::int) WHERE id % 2 = 0`.execute(t.container.db);
  });
  after(async () => { await t?.close(); });

  for (const q of ['d-f', 'red-fox', 'a🦊b', 'd-fo']) {
    it(`q=${q}: alone, among listed names, and as contains`, async () => {
      const all = await reference(q);
      assert.ok(all.length >= 2, `${q}: ${all.join(' ')}`);
      const text = encodeURIComponent(q);
      assert.deepEqual((await searchNames(t.app, `q=${text}&limit=50`)).names, all);
      const listed = await reference(q, sql`listing_price_wei IS NOT NULL`);
      assert.ok(listed.length >= 1 && listed.length < all.length, `${q} listed: ${listed.join(' ')}`);
      assert.deepEqual((await searchNames(t.app, `q=${text}&filters[listed]=true&limit=50`)).names, listed);
      const holding = (await sql<{ name: string }>`SELECT name FROM ens_names WHERE label LIKE ${`%${q}%`} ORDER BY listing_price_wei, id`.execute(t.container.db)).rows.map((r) => r.name);
      const contains = await searchNames(t.app, `filters[contains]=${text}&sortBy=price&limit=50`);
      assert.deepEqual(contains.names, holding);
      assert.equal(contains.total, holding.length);
    });
  }
});
