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
