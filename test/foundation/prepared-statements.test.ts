import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql, type RawBuilder } from 'kysely';
import { createDb, createPool, GENERIC_PLAN, type Db } from '../../src/db/client.js';
import { brokerNameIds, countBrokerNames } from '../../src/orders/brokered.repository.js';
import { countListings, listListings } from '../../src/orders/listings.repository.js';
import { countOffers, listOffers } from '../../src/orders/offers.repository.js';
import { searchIds, searchPage } from '../../src/search/query.js';
import { ResultReader } from '../../src/search/results.js';
import { CommentService } from '../../src/services/comments.service.js';
import { NamesService } from '../../src/history/index.js';
import { createName } from '../helpers/factories.js';
import type { Config } from '../../src/config.js';
import { createTestDatabase } from '../helpers/app.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

before(async () => {
  database = await createTestDatabase();
  // start-up options in the URL are kept, and ours join them (the URL's win where both set one)
  const url = new URL(database.url);
  url.searchParams.set('options', '-c work_mem=5MB -c jit_above_cost=5000');
  db = createDb(createPool(url.toString(), { max: 2 }));
  await sql`CREATE TABLE prep_probe (id int PRIMARY KEY, label text NOT NULL)`.execute(db);
  await sql`INSERT INTO prep_probe SELECT g, 'l' || g FROM generate_series(1, 50) g`.execute(db);
});

/**
 * The statements prepared on a pool of one connection per plan mode (`max: 1`): its session
 * connection's (read by an unmarked statement) and its generic one's (a marked one).
 */
async function preparedOn(single: Db, where: RawBuilder<unknown>): Promise<{ statement: string; generic_plans: string }[]> {
  const read = (mark: RawBuilder<unknown>) => sql<{ statement: string; generic_plans: string }>`SELECT ${mark} statement, generic_plans FROM pg_prepared_statements WHERE ${where}`.execute(single);
  const [session, generic] = await Promise.all([read(sql``), read(GENERIC_PLAN)]);
  return [...session.rows, ...generic.rows];
}

/** Forgets the statements prepared on both connections of such a pool. */
async function deallocateOn(single: Db): Promise<void> {
  await Promise.all([sql`DEALLOCATE ALL`.execute(single), sql`SELECT ${GENERIC_PLAN} 1; DEALLOCATE ALL`.execute(single)]);
}

after(async () => {
  await db.destroy();
  await database.drop();
});

test('a parameterized query is prepared once per connection and planned with its values each time', async () => {
  await db.connection().execute(async (conn) => {
    for (const id of [3, 4, 5, 6, 7, 8, 9]) {
      const row = await conn.selectFrom('prep_probe' as never).select(sql<string>`label`.as('label')).where(sql.ref('id'), '=', id).executeTakeFirst();
      assert.deepEqual(row, { label: `l${id}` });
    }
    const prepared = await sql<{ statement: string; custom_plans: number; generic_plans: number }>`
      SELECT statement, custom_plans, generic_plans FROM pg_prepared_statements WHERE statement LIKE '%prep_probe%'`.execute(conn);
    assert.equal(prepared.rows.length, 1, JSON.stringify(prepared.rows));
    // seven executions, each with a plan for its own value (plan_cache_mode = force_custom_plan)
    assert.equal(prepared.rows[0].custom_plans, 7);
    assert.equal(prepared.rows[0].generic_plans, 0);
    const settings = await sql<{ mode: string; jit: string; app: string; above: string }>`
      SELECT current_setting('plan_cache_mode') AS mode, current_setting('jit') AS jit, current_setting('work_mem') AS app, current_setting('jit_above_cost') AS above`.execute(conn);
    // no JIT: compiling costs more than any statement of ours runs
    assert.deepEqual(settings.rows[0], { mode: 'force_custom_plan', jit: 'off', app: '5MB', above: '5000' });
    // nor parallel workers, even where the planner would find them cheap (starting two cost 40 ms)
    await sql`SET parallel_setup_cost = 0`.execute(conn);
    await sql`SET parallel_tuple_cost = 0`.execute(conn);
    await sql`SET min_parallel_table_scan_size = 0`.execute(conn);
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT count(*) FROM prep_probe`.execute(conn);
    for (const s of ['parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size']) await sql`RESET ${sql.raw(s)}`.execute(conn);
    assert.equal(plan.rows.some((r) => r['QUERY PLAN'].includes('Gather')), false, JSON.stringify(plan.rows));
    // statements without parameters (scripts, SET, BEGIN) are not prepared
    await sql`SELECT count(*) FROM prep_probe`.execute(conn);
    const all = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(conn);
    assert.equal(all.rows[0].n, 1);
  });
});

test('a statement marked GENERIC_PLAN is planned once per connection; unmarked ones stay planned per execution, also after a rollback', async () => {
  await db.connection().execute(async (conn) => {
    const marked = (id: number) => conn.selectFrom('prep_probe' as never).modifyFront(GENERIC_PLAN).select(sql<string>`label`.as('label')).where(sql.ref('id'), '=', id).executeTakeFirst();
    const unmarked = (id: number) => conn.selectFrom('prep_probe' as never).select(sql<string>`label || '!'`.as('label')).where(sql.ref('id'), '=', id).executeTakeFirst();
    const plans = async () => {
      const { rows } = await sql<{ statement: string; custom_plans: number; generic_plans: number }>`
        SELECT statement, custom_plans, generic_plans FROM pg_prepared_statements WHERE statement LIKE '%prep_probe%'`.execute(conn);
      const of = (m: boolean) => rows.find((r) => r.statement.includes('generic plan') === m);
      return { marked: of(true) && { custom: of(true)!.custom_plans, generic: of(true)!.generic_plans }, unmarked: of(false) && { custom: of(false)!.custom_plans, generic: of(false)!.generic_plans } };
    };
    for (const id of [1, 2, 3]) assert.deepEqual(await marked(id), { label: `l${id}` });
    // (PostgreSQL counts the executions that used each kind of plan)
    assert.deepEqual((await plans()).marked, { custom: 0, generic: 3 });
    // back to the connection's own mode for an unmarked statement, and to generic for a marked one
    for (const id of [4, 5]) assert.deepEqual(await unmarked(id), { label: `l${id}!` });
    assert.deepEqual(await marked(6), { label: 'l6' });
    assert.deepEqual(await plans(), { marked: { custom: 0, generic: 4 }, unmarked: { custom: 2, generic: 0 } });
    // a rollback undoes the mode set inside its transaction: the next marked statement sets it again
    await sql`BEGIN`.execute(conn);
    assert.deepEqual(await marked(7), { label: 'l7' });
    await sql`ROLLBACK`.execute(conn);
    assert.deepEqual(await marked(8), { label: 'l8' });
    assert.deepEqual(await unmarked(9), { label: 'l9!' });
    assert.deepEqual(await plans(), { marked: { custom: 0, generic: 6 }, unmarked: { custom: 3, generic: 0 } });
    // Kysely writes a select's front modifiers after DISTINCT ON: the mark counts there too
    const distinct = await conn.selectFrom('prep_probe' as never).distinctOn(sql.ref('label')).modifyFront(GENERIC_PLAN).select(sql<number>`id`.as('id'))
      .where(sql.ref('id'), '=', 10).orderBy(sql.ref('label')).execute();
    assert.deepEqual(distinct, [{ id: 10 }]);
    const { rows } = await sql<{ generic_plans: number }>`SELECT generic_plans FROM pg_prepared_statements WHERE statement LIKE '%distinct on%'`.execute(conn);
    assert.deepEqual(rows, [{ generic_plans: 1 }]);
    const mode = await sql<{ mode: string }>`SELECT current_setting('plan_cache_mode') AS mode`.execute(conn);
    assert.equal(mode.rows[0].mode, 'force_custom_plan'); // (this statement is unmarked)
  });
});

test('list pages are planned once where their plan cannot depend on the values, per request where it can', async () => {
  await db.connection().execute(async (conn) => {
    const seller = `0x${'a'.repeat(40)}`;
    const statement = async (run: () => Promise<unknown>) => {
      await sql`DEALLOCATE ALL`.execute(conn);
      await run();
      const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%from "listings"%' OR statement LIKE '%from "offers"%'`.execute(conn);
      assert.equal(rows.length, 1, JSON.stringify(rows));
      return rows[0].statement;
    };
    const generic = (text: string) => /^select \/\* generic plan \*\//.test(text);
    const active = { status: 'active', graceDays: 90 } as const;
    // a status, a seller: ordered ranges of their indexes, whatever the values
    for (const f of [active, { ...active, seller }]) {
      const text = await statement(() => listListings(conn, f, 'created', 'desc', 20, 40));
      assert.ok(generic(text), text);
      // the page's size is in the text: a parameter's LIMIT is planned as a tenth of the table
      assert.match(text, /limit 20 offset \$\d+\) as "pg"/);
      assert.ok(generic(await statement(() => countListings(conn, f, 1000))));
    }
    // a price range under the price sort is one range of that sort's index; under another sort, the
    // best plan depends on how narrow the range is
    assert.ok(generic(await statement(() => listListings(conn, { ...active, minPrice: '5' }, 'price', 'asc', 20, 0))));
    assert.ok(!generic(await statement(() => listListings(conn, { ...active, minPrice: '5' }, 'created', 'desc', 20, 0))));
    assert.ok(!generic(await statement(() => listListings(conn, { ...active, maxPrice: '5' }, 'expiry', 'asc', 20, 0))));
    // ... unless the range was counted first: up to 1,000 it is read whole by price under one plan
    assert.ok(generic(await statement(() => listListings(conn, { ...active, minPrice: '5' }, 'created', 'desc', 20, 0, 1000))));
    assert.ok(!generic(await statement(() => listListings(conn, { ...active, minPrice: '5' }, 'name', 'asc', 20, 0, 1001))));
    assert.ok(!generic(await statement(() => listListings(conn, { ...active, seller, minPrice: '5' }, 'created', 'desc', 20, 0, 3))));
    // offers: a buyer's, an owner's (copied onto the offers), a status's are each one index range
    assert.ok(generic(await statement(() => listOffers(conn, { buyer: seller }, 'created', 'desc', 20, 0))));
    assert.ok(generic(await statement(() => countOffers(conn, { status: 'pending' }, 1000))));
    // a broker's listings: one range of the broker's partial index
    assert.ok(generic(await statement(() => brokerNameIds(conn, seller, 'active', 20, 0))));
    assert.ok(generic(await statement(() => countBrokerNames(conn, seller, undefined, 1000))));
    assert.ok(generic(await statement(() => listOffers(conn, { owner: seller }, 'amount', 'desc', 20, 0))));
  });
});

test('a search page without text or filters is planned once; with either, per request', async () => {
  await db.connection().execute(async (conn) => {
    const ctx = { now: new Date(), gracePeriodDays: 90, premiumPeriodDays: 21 };
    const pages = async (spec: Parameters<typeof searchIds>[1]) => {
      await sql`DEALLOCATE ALL`.execute(conn);
      await searchIds(conn, spec, ctx);
      const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement ~ '^SELECT .*id FROM ens_names WHERE'`.execute(conn);
      assert.ok(rows.length > 0);
      return rows.map((r) => r.statement.startsWith('SELECT /* generic plan */ id') && / LIMIT 20$/.test(r.statement));
    };
    const sort = { by: 'listing_date', order: 'desc' } as const;
    // (a nullable sort key is two tiers, each a statement: the names with a listing, then the others)
    assert.deepEqual(await pages({ filters: {}, sort, offset: 0, limit: 20 }), [true, true]);
    assert.deepEqual(await pages({ filters: { minLength: 3 }, sort, offset: 0, limit: 20 }), [false, false]);
    assert.deepEqual(await pages({ q: 'abc', filters: {}, sort: { by: 'alphabetical', order: 'asc' }, offset: 0, limit: 20 }), [false]);
    // a longer text's relevance page: its prefix tier planned once, its substring tier per request
    // (without filters from the searchable labels, 0040); with a filter, both per request, both from the names
    const tiers = async (spec: Parameters<typeof searchIds>[1]) => {
      const single = createDb(createPool(database.url, { max: 1 }));
      try {
        await searchIds(single, spec, ctx);
        const rows = await preparedOn(single, sql`statement ~ '^SELECT .*id FROM (ens_names|search_labels) WHERE'`);
        return rows.map((r) => `${/^SELECT \/\* generic plan \*\/ id/.test(r.statement) ? 'once' : 'per request'} ${/ FROM search_labels /.test(r.statement) ? 'labels' : 'names'}`).sort();
      } finally {
        await single.destroy();
      }
    };
    assert.deepEqual(await tiers({ q: 'abc', filters: {}, sort: 'relevance', offset: 0, limit: 20 }), ['once names', 'per request labels']);
    assert.deepEqual(await tiers({ q: 'abc', filters: { minLength: 3 }, sort: 'relevance', offset: 0, limit: 20 }), ['per request names', 'per request names']);
    // a short text's relevance page, read length by length, is planned once with its results; with
    // a filter, its ids are planned per request and their results, read by id, once
    for (const label of ['abacus', 'abbey', 'abc']) await createName(db, `${label}.eth`);
    const short = async (filters: Parameters<typeof searchIds>[1]['filters']) => {
      await sql`DEALLOCATE ALL`.execute(conn);
      const page = await searchPage(conn, { q: 'ab', filters, sort: 'relevance', offset: 0, limit: 20 }, ctx, new ResultReader().read);
      const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%ens_names%' AND statement NOT LIKE '%count(*)::int AS n%'`.execute(conn);
      const statements = rows.map((r) => `${r.statement.includes('unnest(') ? 'results' : 'ids'} ${r.statement.startsWith('SELECT /* generic plan */') ? 'once' : 'per request'}`);
      return { statements: statements.sort(), names: page.rows.map((r) => r.name) };
    };
    const unfiltered = await short({});
    assert.deepEqual(unfiltered.statements, ['results once']);
    const filtered = await short({ minLength: 3 });
    assert.deepEqual(filtered.statements, ['ids per request', 'results once']);
    // (the same names either way: the labels here are all at least 3 characters long)
    assert.deepEqual(unfiltered.names, ['abc.eth', 'abbey.eth', 'abacus.eth']);
    assert.deepEqual(filtered.names, unfiltered.names);
  });
});

test('comment pages and counts are planned once, except an owner\'s', async () => {
  // one connection, so that its prepared statements are all of the service's
  const single = createDb(createPool(database.url, { max: 1 }));
  try {
    const comments = new CommentService({ db: single, config: {} as Config });
    const marks = async (q: Parameters<CommentService['feed']>[0]) => {
      await deallocateOn(single);
      await comments.feed(q);
      const rows = await preparedOn(single, sql`statement LIKE '%FROM comments c%'`);
      return rows.map((r) => r.statement.startsWith('SELECT /* generic plan */')).sort();
    };
    // the page and its count
    assert.deepEqual(await marks({ page: 1, limit: 20 }), [true, true]);
    assert.deepEqual(await marks({ page: 2, limit: 20, author_address: `0x${'b'.repeat(40)}` }), [true, true]);
    assert.deepEqual(await marks({ page: 1, limit: 20, owner: `0x${'b'.repeat(40)}` }), [false, false]);
  } finally {
    await single.destroy();
  }
});

test('an anonymous name page is one statement, planned once; a signed-in one adds the caller\'s votes and watches', async () => {
  await createName(db, 'onestatement.eth');
  const config = { gracePeriodDays: 90, premiumPeriodDays: 21 } as Config;
  /** The statements a name page prepared on a connection of its own, and whether each was planned once (generic). */
  const statements = async (user: { id: number } | null) => {
    const single = createDb(createPool(database.url, { max: 1 }));
    try {
      const names = new NamesService({ db: single, config, logger: undefined as never, cache: undefined as never });
      assert.equal((await names.detail('OneStatement.eth', user)).name, 'onestatement.eth');
      const rows = await preparedOn(single, sql`true`);
      return rows.map((r) => /^select \/\* generic plan \*\//i.test(r.statement) && Number(r.generic_plans) === 1);
    } finally {
      await single.destroy();
    }
  };
  assert.deepEqual(await statements(null), [true]);
  // the page, the caller's votes and watches (one statement: results.ts viewerState) and their watchlist entries
  assert.equal((await statements({ id: 1 })).length, 3);
});

test('a table changed under a prepared statement fails that query once, then the pool recovers', async () => {
  const read = () => db.selectFrom('prep_probe' as never).selectAll().where(sql.ref('id'), '=', 1).executeTakeFirst();
  // prepare on both connections of the pool
  await Promise.all([read(), read(), read(), read()]);
  await sql`ALTER TABLE prep_probe ADD COLUMN extra int NOT NULL DEFAULT 7`.execute(db);
  const results = await Promise.allSettled([read(), read(), read(), read()]);
  for (const r of results) {
    if (r.status === 'rejected') assert.equal((r.reason as { code?: string }).code, '0A000', String(r.reason));
  }
  // every connection that held the stale statement was dropped: later reads see the new column
  for (let i = 0; i < 4; i++) assert.deepEqual(await read(), { id: 1, label: 'l1', extra: 7 });
});

test('a checkout takes its connection from the pool of its first statement\'s plan mode, so a marked statement needs no SET', async () => {
  const url = new URL(database.url);
  url.searchParams.set('options', '-c work_mem=5MB -c plan_cache_mode=auto');
  const pooled = createDb(createPool(url.toString(), { max: 2 }));
  // (source: `client` for a start-up option, `session` for a SET)
  const setting = (mark: RawBuilder<unknown>) => sql<{ mode: string; source: string; work_mem: string; jit: string }>`
    SELECT ${mark} setting AS mode, source, current_setting('work_mem') AS work_mem, current_setting('jit') AS jit FROM pg_settings WHERE name = 'plan_cache_mode'`;
  const generic = { mode: 'force_generic_plan', work_mem: '5MB', jit: 'off' };
  const session = { mode: 'auto', work_mem: '5MB', jit: 'off' }; // the URL's mode wins in the main pool
  try {
    // each statement outside a transaction has a checkout of its own, in its own mode from start-up
    const [marked, unmarked] = await Promise.all([setting(GENERIC_PLAN).execute(pooled), setting(sql``).execute(pooled)]);
    assert.deepEqual(marked.rows, [{ ...generic, source: 'client' }]);
    assert.deepEqual(unmarked.rows, [{ ...session, source: 'client' }]);
    // a checkout that starts with a marked statement keeps that connection: an unmarked statement
    // sets the main pool's mode on it, and a rollback leaves it there
    await pooled.connection().execute(async (conn) => {
      assert.deepEqual((await setting(GENERIC_PLAN).execute(conn)).rows, [{ ...generic, source: 'client' }]);
      assert.deepEqual((await setting(sql``).execute(conn)).rows, [{ ...session, source: 'session' }]);
      await sql`BEGIN`.execute(conn);
      assert.deepEqual((await setting(GENERIC_PLAN).execute(conn)).rows, [{ ...generic, source: 'client' }]); // (RESET)
      await sql`ROLLBACK`.execute(conn);
      assert.deepEqual((await setting(sql``).execute(conn)).rows, [{ ...session, source: 'session' }]);
      assert.deepEqual((await setting(GENERIC_PLAN).execute(conn)).rows.map((r) => r.mode), ['force_generic_plan']);
    });
    // transactions start with BEGIN: the main pool's connections
    await pooled.transaction().execute(async (trx) => {
      assert.deepEqual((await setting(sql``).execute(trx)).rows, [{ ...session, source: 'client' }]);
    });
  } finally {
    await pooled.destroy();
  }
});
