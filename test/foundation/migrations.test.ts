import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createDb, createPool, migrateToLatest } from '../../src/db/client.js';
import { createTestDatabase } from '../helpers/app.js';

describe('migrations', () => {
  it('apply to an empty database, and a second run finds nothing to do', async () => {
    const admin = new URL(process.env.TEST_ADMIN_URL!);
    const pg = await import('pg');
    const name = `ensm_mig_${process.pid}`;
    const client = new pg.default.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
    await client.query(`CREATE DATABASE ${name}`);
    admin.pathname = `/${name}`;
    const db = createDb(createPool(admin.toString(), { max: 2 }));
    try {
      const first = await migrateToLatest(db);
      assert.ok(first.length >= 1, 'first run applies migrations');
      const second = await migrateToLatest(db);
      assert.deepEqual(second, [], 'second run applies nothing');
      const tables = await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('ens_names', 'listings', 'offers', 'votes', 'notifications', 'users', 'cart_items')`.execute(db);
      assert.equal(tables.rows[0].n, 7);
    } finally {
      await db.destroy();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    }
  });

  it('money columns refuse negative and fractional amounts', async () => {
    const database = await createTestDatabase();
    const db = createDb(createPool(database.url, { max: 1 }));
    try {
      await assert.rejects(sql`SELECT (-1)::wei`.execute(db));
      const r = await sql<{ v: string }>`SELECT '115792089237316195423570985008687907853269984665640564039457584007913129639935'::wei AS v`.execute(db);
      assert.equal(r.rows[0].v, '115792089237316195423570985008687907853269984665640564039457584007913129639935');
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
