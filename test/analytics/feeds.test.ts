import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql, type RawBuilder } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { refreshRollups } from '../../src/analytics/index.js';
import { windowOf } from '../../src/analytics/periods.js';
import { importClub } from '../../src/services/clubs.service.js';
import { seedDemoData, seedOptionsFrom } from '../../src/seed/seed.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { insertListing, ONE_ETH } from '../helpers/marketplace.js';

type Kind = 'listings' | 'offers' | 'sales';
const PERIODS = ['24h', '7d', '30d', '90d', '1y', 'all'] as const;
const STATUSES = {
  listings: ['active', 'sold', 'cancelled', 'expired', 'unfunded'],
  offers: ['pending', 'accepted', 'rejected', 'expired', 'unfunded'],
  sales: [],
} as const;

/**
 * The analytics feeds of listings, offers and sales (their pages walk covering indexes, each row
 * carrying its name's clubs: migration 0048) against their definition: the rows of the period
 * passing the status as users see it, the source and the club filter on the name's own clubs, in
 * the sort's order, paged.
 */
describe('analytics feeds equal their definition', () => {
  let t: TestContext;

  before(async () => {
    t = await createTestApp();
    const { db, pool } = t.container;
    await seedDemoData(db, { ...seedOptionsFrom(t.config), pool, names: 1500 });
    // open orders past their end (expired to users before the expiry job runs), and names that join a
    // list club after their orders were written: their rows follow them into it
    await sql`UPDATE listings SET expires_at = now() - interval '1 hour' WHERE id IN (SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 5)`.execute(db);
    await sql`UPDATE offers SET expires_at = now() - interval '1 hour' WHERE id IN (SELECT id FROM offers WHERE status = 'pending' ORDER BY id LIMIT 5)`.execute(db);
    const traded = await sql<{ label: string }>`SELECT n.label FROM ens_names n WHERE EXISTS (SELECT FROM listings l WHERE l.ens_name_id = n.id)
      AND EXISTS (SELECT FROM offers o WHERE o.ens_name_id = n.id) ORDER BY n.id LIMIT 40`.execute(db);
    await importClub(db, 'traders', traded.rows.map((r) => r.label));
    await refreshRollups(db, { wethAddress: t.config.wethAddress }, { full: true });
  });
  after(async () => { await t?.close(); });

  /** The definition, straight from the rows and their names. */
  async function expected(kind: Kind, q: { period: (typeof PERIODS)[number]; status?: string; source?: string; clubs?: string; sortBy: 'date' | 'price'; sortOrder: 'asc' | 'desc'; page: number; limit: number }) {
    const time = kind === 'sales' ? 'sold_at' : 'created_at';
    const price = kind === 'offers' ? 'offer_amount_wei' : 'price_wei';
    const open = kind === 'listings' ? 'active' : 'pending';
    const status = q.status === undefined ? sql`true`
      : q.status === open ? sql`s.status = ${open} AND (s.expires_at IS NULL OR s.expires_at > now())`
        : q.status === 'expired' ? sql`(s.status = 'expired' OR (s.status = ${open} AND s.expires_at <= now()))`
          : sql`s.status = ${q.status}`;
    const clubs: RawBuilder<unknown> = q.clubs === undefined ? sql`true` : q.clubs === 'any' ? sql`n.clubs <> '{}'` : q.clubs === 'none' ? sql`n.clubs = '{}'`
      : sql`n.clubs && ${q.clubs.split(',')}::text[]`;
    const start = windowOf(q.period).start ?? new Date(0);
    const key = sql.ref(`s.${q.sortBy === 'price' ? price : time}`);
    const dir = sql.raw(q.sortOrder);
    const where = sql`s.${sql.ref(time)} >= ${start} AND ${status} AND ${q.source === undefined ? sql`true` : sql`s.source = ${q.source}`} AND ${clubs}`;
    const { rows } = await sql<{ id: number }>`SELECT s.id FROM ${sql.table(kind)} s JOIN ens_names n ON n.id = s.ens_name_id WHERE ${where}
      ORDER BY ${key} ${dir}, s.id ${dir} OFFSET ${(q.page - 1) * q.limit} LIMIT ${q.limit}`.execute(t.container.db);
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(kind)} s JOIN ens_names n ON n.id = s.ens_name_id WHERE ${where}`.execute(t.container.db);
    return { ids: rows.map((r) => r.id), total: count.rows[0].n };
  }

  it('for any period, status, source, club filter, sort and page', async () => {
    const query = fc.constantFrom<Kind>('listings', 'offers', 'sales').chain((kind) => fc.record({
      kind: fc.constant(kind),
      period: fc.constantFrom(...PERIODS),
      status: kind === 'sales' ? fc.constant(undefined) : fc.option(fc.constantFrom<string>(...STATUSES[kind]), { nil: undefined }),
      source: fc.option(fc.constantFrom('grails', 'opensea'), { nil: undefined }),
      clubs: fc.option(fc.constantFrom('999', '10k', '3-letters', '999,3-letters', 'traders', 'any', 'none'), { nil: undefined }),
      sortBy: fc.constantFrom<'date' | 'price'>('date', 'price'),
      sortOrder: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      page: fc.integer({ min: 1, max: 4 }),
      limit: fc.constantFrom(1, 7, 25),
    }));
    await fc.assert(fc.asyncProperty(query, async ({ kind, ...q }) => {
      const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${kind}?${params}` });
      assert.equal(res.statusCode, 200, show(res));
      const want = await expected(kind, q);
      const data = body(res).data;
      assert.deepEqual((data.results as { id: number }[]).map((r) => r.id), want.ids, `${kind}?${params}`);
      // the total is counted for a status, and the rollups' otherwise
      assert.equal(data.pagination.total, want.total, `${kind}?${params}: total`);
    }), { numRuns: 150 });
  });

  it('registrations by date, cost or length, for any period, club filter and page', async () => {
    const query = fc.record({
      period: fc.constantFrom(...PERIODS),
      clubs: fc.option(fc.constantFrom('999', '10k', '3-letters', '999,3-letters', 'traders', 'any', 'none'), { nil: undefined }),
      sortBy: fc.constantFrom<'date' | 'cost' | 'length'>('date', 'cost', 'length'),
      sortOrder: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      page: fc.integer({ min: 1, max: 4 }),
      limit: fc.constantFrom(1, 7, 25),
    });
    await fc.assert(fc.asyncProperty(query, async (q) => {
      const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/analytics/registrations?${params}` });
      assert.equal(res.statusCode, 200, show(res));
      const clubs: RawBuilder<unknown> = q.clubs === undefined ? sql`true` : q.clubs === 'any' ? sql`n.clubs <> '{}'` : q.clubs === 'none' ? sql`n.clubs = '{}'`
        : sql`n.clubs && ${q.clubs.split(',')}::text[]`;
      const key = q.sortBy === 'cost' ? sql`r.cost_wei` : q.sortBy === 'length' ? sql`n.label_length` : sql`r.block_time`;
      const dir = sql.raw(q.sortOrder);
      const want = await sql<{ id: number }>`SELECT r.id FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id
        WHERE r.kind = 'registration' AND r.block_time >= ${windowOf(q.period).start ?? new Date(0)} AND ${clubs}
        ORDER BY ${key} ${dir}, r.id ${dir} OFFSET ${(q.page - 1) * q.limit} LIMIT ${q.limit}`.execute(t.container.db);
      assert.deepEqual((body(res).data.results as { id: number }[]).map((r) => r.id), want.rows.map((r) => r.id), `registrations?${params}`);
    }), { numRuns: 80 });
  });

  it('the registrations feed follows every write of registrations: insert, update, delete', async () => {
    const { db } = t.container;
    const drift = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (
      (SELECT r.id, r.block_time, r.cost_wei, n.label, n.clubs FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id WHERE r.kind = 'registration'
        EXCEPT SELECT registration_id, block_time, cost_wei, label, clubs FROM registration_feed)
      UNION ALL (SELECT registration_id, block_time, cost_wei, label, clubs FROM registration_feed
        EXCEPT SELECT r.id, r.block_time, r.cost_wei, n.label, n.clubs FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id WHERE r.kind = 'registration')) d`
      .execute(db)).rows[0].n;
    const [name] = (await sql<{ id: number }>`SELECT id FROM ens_names WHERE clubs <> '{}' ORDER BY id LIMIT 1`.execute(db)).rows;
    const { rows: [added] } = await sql<{ id: number }>`INSERT INTO registrations (ens_name_id, kind, actor_address, tx_hash, log_index, block_number, block_time, duration_seconds, cost_wei)
      VALUES (${name.id}, 'registration', '0x000000000000000000000000000000000000beef', ${`0x${'ab'.repeat(32)}`}, 1, 1, now(), 31536000, 5) RETURNING id`.execute(db);
    assert.equal(await drift(), 0, 'after an insert');
    const cheapest = body(await t.app.inject({ method: 'GET', url: '/api/v1/analytics/registrations?period=24h&sortBy=cost&sortOrder=asc&limit=2' })).data.results; // a limit the property above never asks (its pages are kept 2 s)
    assert.equal(cheapest[0]?.id, added.id, JSON.stringify(cheapest));
    await sql`UPDATE registrations SET cost_wei = 7, kind = 'renewal' WHERE id = ${added.id}`.execute(db);
    assert.equal(await drift(), 0, 'after an update to a renewal');
    await sql`UPDATE registrations SET kind = 'registration' WHERE id = ${added.id}`.execute(db);
    assert.equal(await drift(), 0, 'after an update back');
    await sql`DELETE FROM registrations WHERE id = ${added.id}`.execute(db);
    assert.equal(await drift(), 0, 'after a delete');
  });

  it('a kept page of listings or offers follows every write of either table at once, whoever writes it', async () => {
    const { db } = t.container;
    const ids = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, show(res));
      return (body(res).data.results as { id: number }[]).map((r) => r.id);
    };
    // limits the property above never asks, so that these pages are this test's own
    const active = '/api/v1/analytics/listings?period=all&status=active&limit=4';
    const [first] = await ids(active);
    // a write outside the service (another worker, the sync): the next request sees it
    await sql`UPDATE listings SET status = 'cancelled' WHERE id = ${first}`.execute(db);
    assert.equal((await ids(active)).includes(first), false, 'a cancelled listing left the active page');
    assert.deepEqual(await ids(active), (await expected('listings', { period: 'all', status: 'active', sortBy: 'date', sortOrder: 'desc', page: 1, limit: 4 })).ids);
    const dearest = '/api/v1/analytics/offers?period=all&sortBy=price&limit=3';
    const before = await ids(dearest);
    const [cheap] = (await sql<{ id: number }>`SELECT id FROM offers WHERE NOT (id = ANY(${before})) ORDER BY id LIMIT 1`.execute(db)).rows;
    await sql`UPDATE offers SET offer_amount_wei = 10::numeric ^ 30 WHERE id = ${cheap.id}`.execute(db);
    assert.equal((await ids(dearest))[0], cheap.id, 'a raised offer tops the page sorted by price');
    // a change that no trigger saw (triggers off for the session) is in the page at most a second later: the page is kept until then
    const conn = await t.container.pool.connect();
    try {
      await conn.query(`SET session_replication_role = replica`);
      await conn.query(`UPDATE offers SET offer_amount_wei = 1 WHERE id = $1`, [cheap.id]);
    } finally {
      await conn.query(`RESET session_replication_role`);
      conn.release();
    }
    assert.equal((await ids(dearest))[0], cheap.id, 'kept');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.notEqual((await ids(dearest))[0], cheap.id, 'at most a second old');
    await sql`UPDATE listings SET status = 'active' WHERE id = ${first}`.execute(db);
  });

  it('a name\'s orders, sales and registrations follow it into a club and out of it', async () => {
    const { db } = t.container;
    const [row] = (await sql<{ label: string; id: number }>`SELECT n.label, n.id FROM ens_names n WHERE n.clubs = '{}' AND EXISTS (SELECT FROM sales s WHERE s.ens_name_id = n.id)
      AND EXISTS (SELECT FROM listings l WHERE l.ens_name_id = n.id) ORDER BY n.id LIMIT 1`.execute(db)).rows;
    const inClub = async () => sql<{ n: number }>`SELECT (SELECT count(*) FROM listings WHERE ens_name_id = ${row.id} AND 'movers' = ANY(clubs))
      + (SELECT count(*) FROM sales WHERE ens_name_id = ${row.id} AND 'movers' = ANY(clubs))
      + (SELECT count(*) FROM registration_feed f JOIN registrations r ON r.id = f.registration_id WHERE r.ens_name_id = ${row.id} AND 'movers' = ANY(f.clubs))
      + (SELECT count(*) FROM offers WHERE ens_name_id = ${row.id} AND 'movers' = ANY(clubs)) AS n`.execute(db);
    await importClub(db, 'movers', [row.label]);
    assert.ok(Number((await inClub()).rows[0].n) >= 3);
    const listings = body(await t.app.inject({ method: 'GET', url: '/api/v1/analytics/listings?period=all&clubs=movers' })).data;
    assert.ok(listings.results.length > 0 && listings.results.every((r: { name: string }) => r.name === `${row.label}.eth`), JSON.stringify(listings));
    await importClub(db, 'movers', []);
    assert.equal(Number((await inClub()).rows[0].n), 0);
  });
});

describe('a kept page of listings on a database that never had one', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('shows the first listing ever written (the change counter moves on its first use too)', async () => {
    const { db } = t.container;
    const page = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/analytics/listings?period=all' });
      assert.equal(res.statusCode, 200, show(res));
      return (body(res).data.results as { name: string }[]).map((r) => r.name);
    };
    assert.deepEqual(await page(), []);
    const name = await createName(db, 'first.eth', { owner: addressOf(1) });
    await insertListing(db, 1, name.id, 'first.eth', ONE_ETH);
    assert.deepEqual(await page(), ['first.eth']);
  });
});
