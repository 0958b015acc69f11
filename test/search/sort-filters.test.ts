import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, PostgresDialect, sql, type CompiledQuery, type RawBuilder } from 'kysely';
import pg from 'pg';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { bulkNames } from '../helpers/search.js';
import { recountClubs } from '../../src/services/clubs.service.js';
import type { Database } from '../../src/db/schema.js';
import { searchIds, type Sort } from '../../src/search/query.js';
import type { SearchFilters } from '../../src/search/filters.js';

/**
 * A sort with a filter its index does not order by (migration 0038 and `inSomeClub` in query.ts):
 * the listed or offered names by expiry date, a club's names by their number of clubs, the
 * classes and lengths by the market's keys. Each must give, page after page and in both
 * directions, the order a direct ordering of the matching names gives.
 */
describe('search sorted by one key and filtered by another', () => {
  let t: TestContext;

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    await bulkNames(db, 'sfa', 120);
    await bulkNames(db, 'sfbb', 40); // a character longer
    await sql`INSERT INTO clubs (name) VALUES ('sfclub'), ('sfx'), ('sfy'), ('sfz') ON CONFLICT DO NOTHING`.execute(db);
    // Expiry dates out of id order; clubs 0 to 3 (sfclub's members in one, two or three);
    // every fourth name listed, every fifth offered on, every sixth sold.
    await sql`UPDATE ens_names SET
        expiry_date = now() + make_interval(days => ((id * 7919) % 700)::int - 200),
        clubs = CASE id % 3 WHEN 0 THEN ARRAY['sfclub'] WHEN 2 THEN ARRAY['sfclub', 'sfx'] ELSE CASE WHEN id % 2 = 0 THEN ARRAY['sfz'] ELSE '{}' END END
          || CASE WHEN id % 9 = 0 THEN ARRAY['sfx', 'sfy'] ELSE '{}' END,
        listing_price_wei = CASE WHEN id % 4 = 0 THEN 1000 + (id * 31) % 97 END,
        listing_created_at = CASE WHEN id % 4 = 0 THEN now() - make_interval(mins => id::int) END,
        highest_offer_wei = CASE WHEN id % 5 = 0 THEN 500 + (id * 17) % 89 END,
        last_sale_date = CASE WHEN id % 6 = 0 THEN now() - make_interval(hours => ((id * 13) % 500)::int) END,
        last_sale_price_wei = CASE WHEN id % 6 = 0 THEN 700 + (id * 7) % 53 END
      WHERE label LIKE 'sf%'`.execute(db);
    await recountClubs(db, ['sfclub', 'sfx', 'sfy', 'sfz']);
  });
  after(async () => { await t?.close(); });

  async function direct(where: RawBuilder<unknown>, key: RawBuilder<unknown>, order: 'asc' | 'desc'): Promise<number[]> {
    const dir = sql.raw(order);
    const { rows } = await sql<{ id: number }>`SELECT id FROM ens_names WHERE searchable AND label LIKE 'sf%' AND ${where}
      ORDER BY ${key} IS NULL, ${key} ${dir}, id ${dir}`.execute(t.container.db);
    return rows.map((r) => Number(r.id));
  }

  async function allPages(query: string, limit: number): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page += 1) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/search?startsWith=sf&${query}&limit=${limit}&page=${page}` });
      assert.equal(res.statusCode, 200, show(res));
      const { results, pagination } = body(res).data;
      ids.push(...results.map((r: { id: number }) => r.id));
      if (!pagination.hasNext) return ids;
    }
  }

  for (const order of ['asc', 'desc'] as const) {
    it(`listed and offered names by expiry date (${order})`, async () => {
      const listed = await direct(sql`listing_price_wei IS NOT NULL`, sql`expiry_date`, order);
      assert.equal(listed.length, 40);
      assert.deepEqual(await allPages(`filters[listed]=true&sortBy=expiry_date&sortOrder=${order}`, 7), listed);
      const offered = await direct(sql`highest_offer_wei IS NOT NULL`, sql`expiry_date`, order);
      assert.equal(offered.length, 32);
      assert.deepEqual(await allPages(`filters[hasOffer]=true&sortBy=expiry_date&sortOrder=${order}`, 7), offered);
    });

    it(`a club's names by their number of clubs (${order})`, async () => {
      const members = await direct(sql`clubs && '{sfclub}'`, sql`cardinality(clubs)`, order);
      assert.ok(members.length > 100);
      assert.deepEqual(new Set((await sql<{ n: number }>`SELECT DISTINCT cardinality(clubs) AS n FROM ens_names WHERE clubs && '{sfclub}'`.execute(t.container.db)).rows.map((r) => r.n)),
        new Set([1, 2, 3]));
      assert.deepEqual(await allPages(`filters[clubs][]=sfclub&sortBy=clubs_count&sortOrder=${order}`, 9), members);
      const several = await direct(sql`clubs && '{sfy,sfz}'`, sql`cardinality(clubs)`, order);
      assert.deepEqual(await allPages(`filters[clubs][]=sfy&filters[clubs][]=sfz&sortBy=clubs_count&sortOrder=${order}`, 9), several);
      const inAny = await direct(sql`clubs <> '{}'`, sql`cardinality(clubs)`, order);
      assert.deepEqual(await allPages(`filters[inAnyClub]=true&sortBy=clubs_count&sortOrder=${order}`, 25), inAny);
      // and the names in none, which the condition of a club filter leaves out
      const none = await direct(sql`clubs = '{}'`, sql`cardinality(clubs)`, order);
      assert.ok(none.length > 0);
      assert.deepEqual(await allPages(`filters[inAnyClub]=false&sortBy=clubs_count&sortOrder=${order}`, 25), none);
    });

    it(`lengths and prices with the sorts of the market (${order})`, async () => {
      for (const [sortBy, key] of [['price', sql`listing_price_wei`], ['offer', sql`highest_offer_wei`], ['registration_date', sql`registration_date`], ['expiry_date', sql`expiry_date`]] as const) {
        const want = await direct(sql`label_length <= 8 AND clubs && '{sfx}'`, key, order);
        assert.ok(want.length > 10, sortBy);
        assert.deepEqual(await allPages(`filters[maxLength]=8&filters[clubs][]=sfx&sortBy=${sortBy}&sortOrder=${order}`, 6), want, sortBy);
      }
    });

    it(`names both listed and offered on, in the sorts of the market (${order})`, async () => {
      const sorts = [['price', sql`listing_price_wei`], ['offer', sql`highest_offer_wei`], ['listing_date', sql`listing_created_at`],
        ['expiry_date', sql`expiry_date`], ['alphabetical', sql`(label COLLATE "C")`], ['last_sale_date', sql`last_sale_date`]] as const;
      for (const [sortBy, key] of sorts) {
        const want = await direct(sql`listing_price_wei IS NOT NULL AND highest_offer_wei IS NOT NULL`, key, order);
        assert.equal(want.length, 8, sortBy);
        assert.deepEqual(await allPages(`filters[listed]=true&filters[hasOffer]=true&sortBy=${sortBy}&sortOrder=${order}`, 3), want, sortBy);
      }
    });

    it(`a sort by a key the filters leave every name without, or every name with (${order})`, async () => {
      const cases = [
        ['filters[listed]=false', sql`listing_price_wei IS NULL`, 'price', sql`listing_price_wei`],
        ['filters[listed]=false', sql`listing_price_wei IS NULL`, 'listing_date', sql`listing_created_at`],
        ['filters[listed]=false', sql`listing_price_wei IS NULL`, 'listing_expiry', sql`listing_expires_at`],
        ['filters[listed]=true', sql`listing_price_wei IS NOT NULL`, 'listing_date', sql`listing_created_at`],
        ['filters[hasOffer]=false', sql`highest_offer_wei IS NULL`, 'offer', sql`highest_offer_wei`],
        ['filters[hasOffer]=true', sql`highest_offer_wei IS NOT NULL`, 'offer', sql`highest_offer_wei`],
        ['filters[hasSales]=false', sql`last_sale_date IS NULL`, 'last_sale_date', sql`last_sale_date`],
        ['filters[hasSales]=true', sql`last_sale_date IS NOT NULL`, 'last_sale_date', sql`last_sale_date`],
      ] as const;
      for (const [filter, where, sortBy, key] of cases) {
        const want = await direct(where, key, order);
        assert.ok(want.length > 10, `${filter} ${sortBy}`);
        assert.deepEqual(await allPages(`${filter}&sortBy=${sortBy}&sortOrder=${order}`, 11), want, `${filter} ${sortBy}`);
      }
    });
  }

  it('reads only the tier of a sort that the filters leave names in', async () => {
    // the ids statements searchIds runs, on a handle of its own that records them
    const statements: CompiledQuery[] = [];
    const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 1 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (e) => { if (e.level === 'query') statements.push(e.query); } });
    try {
      const ctx = { now: new Date(), gracePeriodDays: 90, premiumPeriodDays: 21 };
      const read = async (filters: SearchFilters, sort: Sort, offset: number) => {
        statements.length = 0;
        const page = await searchIds(db, { filters: { ...filters, startsWith: 'sf' }, sort, offset, limit: 10 }, ctx);
        return { page, texts: statements.map((q) => q.sql).filter((text) => /ORDER BY/.test(text)) };
      };
      // unlisted names by listing date: only the names without a listing, by id
      const unlisted = await read({ listed: false }, { by: 'listing_date', order: 'desc' }, 20);
      assert.deepEqual(unlisted.page.ids.map(Number), (await direct(sql`listing_price_wei IS NULL`, sql`id`, 'desc')).slice(20, 30));
      assert.equal(unlisted.texts.length, 1, unlisted.texts.join('\n'));
      assert.match(unlisted.texts[0], /listing_created_at IS NULL/);
      // listed names by listing date, on their last page: the names without one are not read
      const listed = await read({ listed: true }, { by: 'listing_date', order: 'asc' }, 35);
      assert.deepEqual(listed.page.ids.map(Number), (await direct(sql`listing_price_wei IS NOT NULL`, sql`listing_created_at`, 'asc')).slice(35));
      assert.equal(listed.texts.length, 1, listed.texts.join('\n'));
      assert.match(listed.texts[0], /listing_created_at IS NOT NULL/);
    } finally {
      await db.destroy();
    }
  });
});
