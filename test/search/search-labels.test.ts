import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { insertLabels, searchNames } from '../helpers/search.js';

/**
 * A search text's similar labels and its count are read from the searchable labels alone
 * (search_labels, migration 0040), which a trigger on the names keeps: a name added, renamed into
 * or out of the searchable ones, or removed is found, or no longer found, by its similar texts at
 * once, and the count says the same.
 */
describe('GET /api/v1/search?q: similar labels follow the names as they change', () => {
  let t: TestContext;
  const search = (q: string) => searchNames(t.app, `q=${q}&limit=100`);
  const insert = (labels: string[], name?: (l: string) => string) => insertLabels(t.container.db, labels, name);
  /** The searchable names against the labels the trigger keeps: none missing, none extra. */
  const inStep = async () => {
    const { rows: [r] } = await sql<{ missing: number; extra: number }>`
      WITH want AS (SELECT id, label FROM ens_names WHERE searchable), have AS (SELECT id, label FROM search_labels)
      SELECT (SELECT count(*)::int FROM (SELECT * FROM want EXCEPT SELECT * FROM have) x) AS missing,
        (SELECT count(*)::int FROM (SELECT * FROM have EXCEPT SELECT * FROM want) x) AS extra`.execute(t.container.db);
    assert.deepEqual(r, { missing: 0, extra: 0 });
  };

  before(async () => {
    t = await createTestApp();
  });
  after(async () => { await t?.close(); });

  it('finds a name added since by a similar text, and counts it', async () => {
    // (another text than the one below: a text's similar labels are reused for a few seconds)
    assert.deepEqual((await search('quokkaa')).names, []);
    await insert(['quokka', 'wombat']);
    const got = await search('quokkas');
    assert.deepEqual(got.names, ['quokka.eth'], 'quokka is only similar to quokkas: no prefix or substring of it');
    assert.equal(got.total, 1);
    await inStep();
  });

  it('keeps names that are not searchable out, and follows a name renamed into or out of the searchable ones', async () => {
    // upper case and a subname's label are not searchable names (ens_names.searchable)
    await insert(['Numbats', 'numbatz'], (l) => (l === 'numbatz' ? 'numbatz.sub.eth' : `${l}.eth`));
    assert.deepEqual((await search('numbat')).names, []);
    await inStep();
    await sql`UPDATE ens_names SET label = 'numbats', name = 'numbats.eth' WHERE label = 'Numbats'`.execute(t.container.db);
    assert.deepEqual((await search('numbatss')).names, ['numbats.eth']);
    await sql`UPDATE ens_names SET name = 'numbats.sub.eth' WHERE label = 'numbats'`.execute(t.container.db);
    assert.deepEqual((await search('numbatsz')).names, []);
    await inStep();
  });

  it('forgets a name removed', async () => {
    await sql`DELETE FROM ens_names WHERE label = 'quokka'`.execute(t.container.db);
    // a new text: the similar labels of one asked before are reused for a few seconds
    assert.deepEqual((await search('quokkaz')).names, []);
    await inStep();
  });
});
