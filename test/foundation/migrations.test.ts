import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import * as byteOrderKeys from '../../src/db/migrations/0041_byte_order_keys.js';
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
      // the tables a migration rewrote are vacuumed once it is committed (index-only scans need the visibility map)
      const vacuumed = await sql<{ relname: string }>`SELECT relname FROM pg_stat_user_tables WHERE relname IN ('listings', 'offers') AND last_vacuum IS NOT NULL ORDER BY relname`.execute(db);
      assert.deepEqual(vacuumed.rows.map((r) => r.relname), ['listings', 'offers']);
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
  it('address and hash checks accept and refuse what the hex regexes did', async () => {
    const database = await createTestDatabase();
    const db = createDb(createPool(database.url, { max: 1 }));
    const hex = (n: number) => 'a0b1c2d3e4f56789'.repeat(8).slice(0, n);
    // good values, then near misses: a digit short or over, upper case, no 0x, a non-hex letter, a line end, a non-ASCII digit
    const values = (n: number) => [`0x${hex(n)}`, `0x${'0'.repeat(n)}`, `0x${hex(n - 1)}`, `0x${hex(n + 1)}`, `0x${hex(n - 1)}A`, `0X${hex(n)}`, `00${hex(n)}`,
      `0x${hex(n - 1)}g`, `0x${hex(n)}\n`, `0x${hex(n - 1)}\n`, `\n0x${hex(n - 2)}`, `0x${hex(n - 1)}٣`, ''];
    const matches = async (value: string, digits: number) =>
      (await sql.raw<{ ok: boolean }>(`SELECT '${value}' ~ '^0x[0-9a-f]{${digits}}$' AS ok`).execute(db)).rows[0].ok;
    // in a transaction rolled back either way
    const accepted = new Error('accepted');
    const accepts = async (query: string, value: string) => {
      try {
        await db.transaction().execute(async (trx) => {
          await sql.raw(query.replace('$v', `'${value}'`)).execute(trx);
          throw accepted;
        });
      } catch (err) {
        if (err === accepted) return true;
        assert.equal((err as { code?: string }).code, '23514', String(err));
      }
      return false;
    };
    try {
      // the checks are the unbounded regexes (a bounded one costs about ten times as much per value)
      const bounded = await sql<{ def: string }>`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'c' AND strpos(pg_get_constraintdef(oid), '0-9a-f]{') > 0`.execute(db);
      assert.deepEqual(bounded.rows, []);
      assert.deepEqual([await accepts(`SELECT $v::eth_address`, `0x${hex(40)}`), await accepts(`SELECT $v::eth_address`, `0x${hex(40)}A`)], [true, false]);
      for (const v of values(40)) {
        assert.equal(await accepts(`SELECT $v::eth_address`, v), await matches(v, 40), JSON.stringify(v));
      }
      for (const v of values(64)) {
        const insert = `INSERT INTO ens_names (name, label, labelhash, namehash, token_id) VALUES ('x.eth', 'x', $v, '0x${'1'.repeat(64)}', 1)`;
        assert.equal(await accepts(insert, v), await matches(v, 64), JSON.stringify(v));
      }
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
  it('addresses and hashes compare byte by byte, and moving them back and forth keeps rows, checks and triggers', async () => {
    const database = await createTestDatabase();
    const db = createDb(createPool(database.url, { max: 1 }));
    const collations = async () => (await sql<{ column: string; collation: string }>`
      SELECT a.attrelid::regclass::text || '.' || a.attname AS column, coalesce(c.collname, '') AS collation
      FROM pg_attribute a JOIN pg_class r ON r.oid = a.attrelid AND r.relkind = 'r' AND r.relnamespace = 'public'::regnamespace
      LEFT JOIN pg_collation c ON c.oid = a.attcollation
      WHERE a.attnum > 0 AND NOT a.attisdropped
        AND (a.atttypid = 'eth_address'::regtype OR a.attname IN ('labelhash', 'namehash', 'order_hash', 'tx_hash', 'transaction_hash', 'viewer'))
      ORDER BY 1`.execute(db)).rows;
    const triggers = async () => (await sql<{ def: string }>`
      SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgrelid::regclass::text, tgname`.execute(db)).rows.map((r) => r.def);
    try {
      const moved = await collations();
      assert.ok(moved.length >= 30, `${moved.length} columns`);
      assert.deepEqual(moved.filter((c) => c.collation !== 'C'), []);
      const before = await triggers();
      const owner = `0x${'ab'.repeat(20)}`;
      await sql`INSERT INTO ens_names (name, label, labelhash, namehash, token_id, owner_address) VALUES ('x.eth', 'x', ${`0x${'1'.repeat(64)}`}, ${`0x${'2'.repeat(64)}`}, 1, ${owner})`.execute(db);

      await db.transaction().execute((trx) => byteOrderKeys.down(trx as unknown as Kysely<unknown>));
      assert.deepEqual((await collations()).filter((c) => c.collation === 'C'), []);
      assert.deepEqual(await triggers(), before);
      await db.transaction().execute((trx) => byteOrderKeys.up(trx as unknown as Kysely<unknown>));

      assert.deepEqual(await collations(), moved);
      assert.deepEqual(await triggers(), before);
      const row = await sql<{ owner_address: string }>`SELECT owner_address FROM ens_names WHERE owner_address = ${owner}`.execute(db);
      assert.deepEqual(row.rows, [{ owner_address: owner }]);
      // the address check came back with the domain
      await assert.rejects(sql`UPDATE ens_names SET owner_address = ${owner.toUpperCase().replace('0X', '0x')}`.execute(db), { code: '23514' });
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
