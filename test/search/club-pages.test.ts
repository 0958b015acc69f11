import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type RawBuilder } from 'kysely';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { bulkNames } from '../helpers/search.js';
import { recountClubs } from '../../src/services/clubs.service.js';

/**
 * The default order without a text (listed names, newest listing first, then the others by id)
 * inside a club filter: one club's page is read from the club's own rows (query.ts, ClubRows),
 * several large clubs' listed names by walking the listed-names index, with other filters through
 * the clubs' index (LISTED_WALK_FROM). All must give the order a user expects, page after page,
 * whatever the other filters.
 */
describe('search pages inside a club', () => {
  let t: TestContext;
  const CLUBS = { bigclub: ['cpbig', 420], smallclub: ['cpsmall', 45] } as const;

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    for (const [club, [prefix, count]] of Object.entries(CLUBS)) {
      await bulkNames(db, prefix, count);
      await sql`INSERT INTO clubs (name) VALUES (${club}) ON CONFLICT DO NOTHING`.execute(db);
      // every third name listed, listing times out of id order (so the two orders differ)
      await sql`UPDATE ens_names SET clubs = ARRAY[${club}]::text[],
          listing_price_wei = CASE WHEN id % 3 = 0 THEN 1000000 + id END,
          listing_created_at = CASE WHEN id % 3 = 0 THEN now() - make_interval(mins => ((id * 7919) % 1000)::int) END
        WHERE label LIKE ${`${prefix}%`}`.execute(db);
    }
    await recountClubs(db, Object.keys(CLUBS));
  });
  after(async () => { await t?.close(); });

  async function expected(club: string, extra = sql`true`): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`SELECT id FROM ens_names WHERE searchable AND clubs && ARRAY[${club}]::text[] AND ${extra}
      ORDER BY listing_created_at IS NULL, listing_created_at DESC, id DESC`.execute(t.container.db);
    return rows.map((r) => Number(r.id));
  }

  async function allPages(query: string, limit: number): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page += 1) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/search?${query}&limit=${limit}&page=${page}` });
      assert.equal(res.statusCode, 200, show(res));
      const { results, pagination } = body(res).data;
      ids.push(...results.map((r: { id: number }) => r.id));
      if (!pagination.hasNext) return ids;
    }
  }

  it('a large club: listed names newest first, then the rest by id, across pages', async () => {
    const want = await expected('bigclub');
    assert.equal(want.length, 420);
    assert.deepEqual(await allPages('filters[clubs][]=bigclub', 37), want);
    assert.deepEqual(await allPages('filters[clubs][]=bigclub&filters[listed]=true', 50), want.slice(0, 140));
    assert.deepEqual(await allPages('filters[clubs][]=bigclub&filters[listed]=false', 50), want.slice(140));
  });

  it("one club's page in either direction follows its listings as they are made and cancelled", async () => {
    const db = t.container.db;
    const ascending = async () => {
      const { rows } = await sql<{ id: number }>`SELECT id FROM ens_names WHERE searchable AND clubs && '{bigclub}'
        ORDER BY listing_created_at IS NULL, listing_created_at, id`.execute(db);
      return rows.map((r) => Number(r.id));
    };
    const listedTotal = async () => body(await t.app.inject({ method: 'GET', url: '/api/v1/search?filters[clubs][]=bigclub&filters[listed]=true&limit=1' })).data.pagination.total;
    assert.deepEqual(await allPages('filters[clubs][]=bigclub&sortBy=listing_date&sortOrder=asc', 45), await ascending());
    assert.equal(await listedTotal(), 140);

    // a name listed now (newest first), a listed one cancelled (among the others by id), as the listing moves write them
    await sql`UPDATE ens_names SET listing_price_wei = 5, listing_created_at = now() + interval '1 minute' WHERE label = 'cpbig00100'`.execute(db);
    await sql`UPDATE ens_names SET listing_price_wei = NULL, listing_created_at = NULL
      WHERE id = (SELECT min(id) FROM ens_names WHERE clubs && '{bigclub}' AND listing_created_at IS NOT NULL)`.execute(db);
    await t.container.cache.delPrefix('aging:search:');
    const want = await expected('bigclub');
    assert.equal(want[0], Number((await sql<{ id: number }>`SELECT id FROM ens_names WHERE label = 'cpbig00100'`.execute(db)).rows[0]!.id));
    assert.deepEqual(await allPages('filters[clubs][]=bigclub', 37), want);
    assert.deepEqual(await allPages('filters[clubs][]=bigclub&filters[listed]=true&filters[minLength]=10', 25), want.slice(0, 140));
    assert.deepEqual(await allPages('filters[clubs][]=bigclub&sortBy=listing_date&sortOrder=asc', 45), await ascending());
    assert.equal(await listedTotal(), 140);
  });

  it('a small club, and both clubs together, in the same order', async () => {
    assert.deepEqual(await allPages('filters[clubs][]=smallclub', 20), await expected('smallclub'));
    const both = await sql<{ id: number }>`SELECT id FROM ens_names WHERE clubs && ARRAY['bigclub', 'smallclub'] ORDER BY listing_created_at IS NULL, listing_created_at DESC, id DESC`.execute(t.container.db);
    assert.deepEqual(await allPages('filters[clubs][]=bigclub&filters[clubs][]=smallclub', 100), both.rows.map((r) => Number(r.id)));
  });

  it('other filters beside the club keep the order', async () => {
    const want = await expected('bigclub', sql`label LIKE 'cpbig001%'`);
    assert.equal(want.length, 100);
    assert.deepEqual(await allPages('filters[clubs][]=bigclub&filters[startsWith]=cpbig001&filters[minLength]=10', 30), want);
  });

  it("a club's total counts its names as the filters say, and follows the names' changes", async () => {
    const db = t.container.db;
    // lengths 2-6, digits, letters and mixed; two names also in bigclub; one subname (never searched)
    const labels = ['cq', 'cqz', 'cqzx', 'cqzxw', 'cqzxwv', 'cq1', 'cq12', '90', '901', '9012', '90123', '901234'];
    for (const [i, label] of labels.entries()) {
      const hex = Buffer.from(label).toString('hex');
      await sql`INSERT INTO ens_names (name, label, labelhash, namehash, token_id, expiry_date, clubs)
        VALUES (${`${label}.eth`}, ${label}, ${`0x${hex.padStart(64, 'a')}`}, ${`0x${hex.padStart(64, 'b')}`}, ${9000 + i}, now() + interval '100 days', ARRAY['countclub'])`.execute(db);
    }
    await sql`INSERT INTO ens_names (name, label, labelhash, namehash, token_id, expiry_date, clubs)
      VALUES ('cqsub.cq.eth', 'cqsub', ${`0x${'d'.repeat(64)}`}, ${`0x${'e'.repeat(64)}`}, 77, now() + interval '100 days', ARRAY['countclub'])`.execute(db);
    await sql`UPDATE ens_names SET clubs = ARRAY['bigclub', 'countclub'] WHERE label IN ('cpbig00001', 'cpbig00002')`.execute(db);
    await sql`INSERT INTO clubs (name) VALUES ('countclub') ON CONFLICT DO NOTHING`.execute(db);
    await recountClubs(db, ['countclub', 'bigclub']);

    const queries: Array<[string, RawBuilder<unknown>]> = [
      ['filters[clubs][]=countclub', sql`clubs && '{countclub}'`],
      ['filters[clubs][]=countclub&filters[minLength]=4', sql`clubs && '{countclub}' AND label_length >= 4`],
      ['filters[clubs][]=countclub&filters[maxLength]=3&filters[minLength]=3', sql`clubs && '{countclub}' AND label_length = 3`],
      ['filters[clubs][]=countclub&filters[digits]=only', sql`clubs && '{countclub}' AND char_class = 'digits'`],
      ['filters[clubs][]=countclub&filters[letters]=only&filters[minLength]=4', sql`clubs && '{countclub}' AND char_class = 'letters' AND label_length >= 4`],
      ['filters[clubs][]=countclub&filters[digits]=exclude', sql`clubs && '{countclub}' AND NOT has_numbers`],
      ['filters[clubs][]=countclub&filters[clubs][]=bigclub', sql`clubs && '{countclub,bigclub}'`],
      ['filters[clubs][]=countclub&filters[clubs][]=bigclub&filters[maxLength]=10', sql`clubs && '{countclub,bigclub}' AND label_length <= 10`],
    ];
    const check = async (when: string) => {
      await t.container.cache.delPrefix('aging:search:');
      for (const [query, cond] of queries) {
        const want = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ens_names WHERE searchable AND ${cond}`.execute(db)).rows[0]!.n;
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/search?${query}&limit=1` });
        assert.equal(res.statusCode, 200, show(res));
        assert.equal(body(res).data.pagination.total, want, `${when}: ${query}`);
      }
    };
    await check('as loaded');
    assert.equal(body(await t.app.inject({ method: 'GET', url: '/api/v1/search?filters[clubs][]=countclub&filters[digits]=only&limit=1' })).data.pagination.total, 5);

    // a name leaves the club, another becomes a subname (not searchable), one joins it, one is renamed
    await sql`UPDATE ens_names SET clubs = '{}' WHERE label = 'cqz'`.execute(db);
    await sql`UPDATE ens_names SET name = 'cqzx.cq.eth' WHERE label = 'cqzx'`.execute(db);
    await sql`UPDATE ens_names SET clubs = ARRAY['countclub'] WHERE label = 'cpsmall00001'`.execute(db);
    await sql`UPDATE ens_names SET label = '9', name = '9.eth' WHERE label = '90'`.execute(db);
    await check('after the changes');
  });

  it("a club's page by rank, length, label, id or keyword metrics: from the clubs' rows, page after page, as the names' rows give them", async () => {
    const db = t.container.db;
    // lengths 2 to 10 in one club (countclub, and two of bigclub's names since the test above)
    const viaNames = (query: string) => `${query}&filters[minWatchersCount]=0`;
    const cases = [
      'filters[clubs][]=countclub&sortBy=ranking', 'filters[clubs][]=countclub&sortBy=character_count&sortOrder=desc',
      'filters[clubs][]=countclub&sortBy=alphabetical', 'filters[clubs][]=countclub&sortBy=alphabetical&sortOrder=desc&filters[maxLength]=5',
      'filters[clubs][]=countclub&sortBy=ranking&filters[digits]=only', 'filters[clubs][]=bigclub&sortBy=ranking&filters[minLength]=3',
      'filters[clubs][]=smallclub&sortBy=alphabetical&sortOrder=desc&filters[listed]=true',
      // several clubs: each club's first rows to the page's end, together and deduplicated (two of bigclub's names are in countclub too)
      'filters[clubs][]=countclub&filters[clubs][]=bigclub&sortBy=character_count&filters[maxLength]=10',
      'filters[clubs][]=countclub&filters[clubs][]=smallclub&sortBy=alphabetical&sortOrder=desc',
      // by id (view_count), one club and several
      'filters[clubs][]=bigclub&sortBy=view_count&sortOrder=asc&filters[minLength]=3', 'filters[clubs][]=countclub&sortBy=view_count',
      'filters[clubs][]=countclub&filters[clubs][]=bigclub&sortBy=view_count&sortOrder=asc',
      // by keyword metrics (some of the labels have them), then by id
      'filters[clubs][]=bigclub&sortBy=google_monthly_searches', 'filters[clubs][]=bigclub&sortBy=google_avg_cpc&sortOrder=asc&filters[minLength]=3',
      'filters[clubs][]=countclub&filters[clubs][]=bigclub&sortBy=google_monthly_searches&sortOrder=asc',
    ];
    // metrics for a few of bigclub's labels (ties among them too) and one name outside the clubs
    await sql`INSERT INTO keyword_metrics (label, metrics, expires_at)
      SELECT label, jsonb_build_object('avgMonthlySearches', (id * 37) % 5 * 100, 'avgCpc', ((id * 13) % 7) / 4.0), now() + interval '1 day'
      FROM ens_names WHERE (clubs && '{bigclub}' AND id % 7 = 0) OR label = 'cpsmall00001' ON CONFLICT DO NOTHING`.execute(db);
    for (const query of cases) assert.deepEqual(await allPages(query, 4), await allPages(viaNames(query), 4), query);
    const { rows } = await sql<{ id: number }>`SELECT id FROM ens_names WHERE searchable AND clubs && '{countclub}'
      ORDER BY label_length, label COLLATE "C", id`.execute(db);
    assert.ok(rows.length >= 10);
    assert.deepEqual(await allPages('filters[clubs][]=countclub&sortBy=ranking', 3), rows.map((r) => Number(r.id)));
  });

  it("a text inside a club: the club's names from its own rows, page after page, as the names' rows give them", async () => {
    // `filters[minWatchersCount]=0` changes no result but is not a filter the clubs' rows hold:
    // the same search read from the names' rows, as every search was read before
    const viaNames = (query: string) => `${query}&filters[minWatchersCount]=0`;
    const cases = [
      'q=cp&filters[clubs][]=bigclub', 'q=cpbig001&filters[clubs][]=bigclub', 'q=big0&filters[clubs][]=bigclub',
      'q=cpbig0&filters[clubs][]=bigclub&filters[clubs][]=smallclub', 'q=cps&filters[clubs][]=bigclub&filters[clubs][]=smallclub&filters[minLength]=12',
      'q=cq&filters[clubs][]=countclub&filters[minLength]=3', 'q=90&filters[clubs][]=countclub&filters[digits]=only',
    ];
    for (const query of cases) {
      const got = await allPages(query, 37);
      assert.deepEqual(got, await allPages(viaNames(query), 37), query);
      const total = async (q: string) => body(await t.app.inject({ method: 'GET', url: `/api/v1/search?${q}&limit=1` })).data.pagination.total;
      assert.equal(await total(query), got.length, query);
    }
    // and a 2-letter text's order itself: shortest first, then alphabetical (C), then id
    const { rows } = await sql<{ id: number }>`SELECT id FROM ens_names WHERE searchable AND clubs && '{bigclub}' AND label LIKE 'cp%'
      ORDER BY label_length, label COLLATE "C", id`.execute(t.container.db);
    assert.equal(rows.length, 420);
    assert.deepEqual(await allPages('q=cp&filters[clubs][]=bigclub', 50), rows.map((r) => Number(r.id)));
  });
});
