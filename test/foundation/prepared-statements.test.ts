import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createDb, createPool, type Db } from '../../src/db/client.js';
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
    // statements without parameters (scripts, SET, BEGIN) are not prepared
    await sql`SELECT count(*) FROM prep_probe`.execute(conn);
    const all = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(conn);
    assert.equal(all.rows[0].n, 1);
  });
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
