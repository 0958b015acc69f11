import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { insertLabels, searchNames } from '../helpers/search.js';

/**
 * The similar tier of a search text is read at a raised bar when its trigrams are common: here
 * 400 labels share four of the six trigrams of `sting` (st…ing) without being similar enough, so
 * the trigram index would name them at every bar up to four shared trigrams. The search then stops
 * at that bar (similarity above 0.5) instead of rechecking them all, and `total` counts what it shows.
 */
describe('GET /api/v1/search?q: the similar tier of a text with common trigrams is bounded', () => {
  let t: TestContext;
  const search = (q: string) => searchNames(t.app, `q=${q}&limit=100`);
  /** The single relevance ordering of every label at least 0.3 similar, optionally only those above `bar`. */
  const reference = async (q: string, bar = 0) => (await sql<{ name: string }>`
    SELECT name FROM ens_names WHERE searchable AND (label LIKE ${`%${q}%`} OR (label % ${q} AND similarity(label, ${q}) > ${bar}))
    ORDER BY CASE WHEN label = ${q} THEN 0 WHEN label LIKE ${`${q}%`} THEN 1 WHEN label LIKE ${`%${q}%`} THEN 2 ELSE 3 END,
      similarity(label, ${q}) DESC, label_length, (label COLLATE "C"), id`.execute(t.container.db)).rows.map((r) => r.name);

  before(async () => {
    t = await createTestApp();
    const labels = ['sting', 'stings', 'lasting', 'stin', 'string', 'stinky', 'plumb', 'plumbs', 'plum', 'plumber', 'plumbum', '🧠🦅🎲', '🧠🦅🎲🎲', 'x🧠🦅🎲'];
    const decoys = Array.from({ length: 400 }, (_, i) => `st${String(i).padStart(6, '0')}ing`);
    await insertLabels(t.container.db, [...labels, ...decoys]);
  });
  after(async () => { await t?.close(); });

  it('shows every label at least 0.3 similar to a text whose trigrams are rare, in the single ordering', async () => {
    const got = await search('plumb');
    assert.deepEqual(got.names, await reference('plumb'));
    assert.ok(got.names.includes('plum.eth'), 'plum is 0.57 similar');
    assert.equal(got.total, got.names.length);
  });

  it('shows only the labels above the raised bar for a text whose trigrams the decoys share, and counts them', async () => {
    const got = await search('sting');
    const all = await reference('sting');
    assert.ok(all.includes('string.eth') && all.includes('stinky.eth'), 'both are 0.44 similar: the 0.3 tier holds them');
    assert.deepEqual(got.names, await reference('sting', 0.5), 'exact, prefix, substring, then the labels more than 0.5 similar');
    assert.deepEqual(got.names, ['sting.eth', 'stings.eth', 'lasting.eth', 'stin.eth']);
    assert.equal(got.total, 4);
  });

  it('matches a text without letters or digits by exact label and prefix only (no index finds it inside labels)', async () => {
    const got = await search(encodeURIComponent('🧠🦅🎲'));
    assert.deepEqual(got.names, ['🧠🦅🎲.eth', '🧠🦅🎲🎲.eth']);
    assert.equal(got.total, 2);
  });
});
