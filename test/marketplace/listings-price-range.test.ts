import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';

/**
 * A price range under another sort than price is read by how many listings it holds: a range of
 * at most 1,000 whole by price and sorted, a wider one in the sort's order. Both must give the
 * pages a plain query over every listing gives, whichever side of the line a range falls.
 */
describe('GET /api/v1/listings, price ranges under other sorts', () => {
  let t: TestContext;
  const COUNT = 1_300;
  const MILLI = 10n ** 15n;

  before(async () => {
    t = await createTestApp();
    const { db } = t.container;
    // names and active listings: prices 1..1,300 milli-ETH in a scrambled order, created times and
    // ends scrambled apart from it (a few ties and listings without an end)
    await sql`
      INSERT INTO ens_names (name, label, labelhash, namehash, token_id, owner_address, registrant_address, registration_date, expiry_date)
      SELECT 'r' || i || '.eth', 'r' || i, '0x' || md5('l' || i) || md5('m' || i), '0x' || md5('n' || i) || md5('o' || i), i,
             '0x' || lpad(to_hex(i % 7 + 1), 40, '0'), '0x' || lpad(to_hex(i % 7 + 1), 40, '0'), now() - interval '30 days', now() + interval '1 year'
      FROM generate_series(1, ${COUNT}) AS i`.execute(db);
    await sql`
      INSERT INTO listings (ens_name_id, seller_address, price_wei, currency_address, order_hash, order_data, status, source, created_at, expires_at)
      SELECT n.id, n.owner_address, ((n.token_id * 7919) % ${COUNT} + 1) * ${MILLI.toString()}::numeric, '0x0000000000000000000000000000000000000000',
             '0x' || md5('h' || n.token_id) || md5('i' || n.token_id), '{}'::jsonb, 'active', 'grails',
             now() - make_interval(mins => ((n.token_id * 104729) % 997)::int),
             CASE WHEN n.token_id % 11 = 0 THEN NULL ELSE now() + make_interval(hours => 1 + ((n.token_id * 31) % 500)::int) END
      FROM ens_names n WHERE n.name LIKE 'r%.eth'`.execute(db);
  });
  after(async () => { await t?.close(); });

  /** The ids a plain query gives: every active listing in the range, in the sort's order, ties by id. */
  async function expected(min: bigint | undefined, max: bigint | undefined, column: 'created_at' | 'expires_at' | 'ens_name', order: 'asc' | 'desc') {
    const { rows } = await sql<{ id: number }>`
      SELECT l.id FROM listings l JOIN ens_names n ON n.id = l.ens_name_id
      WHERE l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now())
        AND (${min?.toString() ?? null}::numeric IS NULL OR l.price_wei >= ${min?.toString() ?? null}::numeric)
        AND (${max?.toString() ?? null}::numeric IS NULL OR l.price_wei <= ${max?.toString() ?? null}::numeric)
      ORDER BY ${sql.ref(`l.${column}`)} ${sql.raw(order)}, l.id ${sql.raw(order)}`.execute(t.container.db);
    return rows.map((r) => r.id);
  }

  const SORTS = [['created', 'created_at'], ['expiry', 'expires_at'], ['name', 'ens_name']] as const;

  it('narrow and wide ranges, every other sort, both directions: the same pages and totals as a plain query', async () => {
    const ranges: Array<[bigint | undefined, bigint | undefined]> = [
      [1_200n * MILLI, undefined], // 101: read whole by price
      [undefined, 40n * MILLI], // 40
      [300n * MILLI, 1_299n * MILLI], // 1,000: still whole
      [200n * MILLI, undefined], // 1,101: in the sort's order
      [1n, undefined], // all 1,300
      [5_000n * MILLI, undefined], // none
    ];
    for (const [min, max] of ranges) {
      for (const [sort, column] of SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          const all = await expected(min, max, column, order);
          const range = `${min === undefined ? '' : `&minPrice=${min}`}${max === undefined ? '' : `&maxPrice=${max}`}`;
          const lastPage = Math.max(1, Math.ceil(all.length / 20));
          for (const page of new Set([1, 2, lastPage])) {
            const res = await t.app.inject({ method: 'GET', url: `/api/v1/listings?sort=${sort}&order=${order}&page=${page}${range}` });
            assert.equal(res.statusCode, 200, show(res));
            const data = body(res).data;
            const what = `${sort} ${order} page ${page}${range}`;
            assert.deepEqual(data.listings.map((l: { id: number }) => l.id), all.slice((page - 1) * 20, page * 20), what);
            assert.equal(data.pagination.total, all.length, what);
          }
        }
      }
    }
  });
});
