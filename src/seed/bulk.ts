import type pg from 'pg';

/**
 * Schema steps around a bulk load (PostgreSQL's "Populating a Database" advice): indexes and
 * foreign keys are dropped before loading and created again afterwards, which is several times
 * faster than maintaining two dozen indexes and a foreign-key check per row. Definitions are read
 * from the catalog, so indexes and keys that other migrations add are handled the same way.
 */
export interface Rebuild {
  drop: string[];
  create: string[];
}

/** The indexes of a table that back no constraint (primary keys and unique constraints stay). */
export async function secondaryIndexes(client: pg.ClientBase, table: string): Promise<Rebuild> {
  const { rows } = await client.query<{ name: string; def: string }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
    ORDER BY c.relname`, [table]);
  return { drop: rows.map((r) => `DROP INDEX ${r.name}`), create: rows.map((r) => r.def) };
}

/**
 * The foreign keys of a table. Dropping one locks the referenced table against other key changes
 * until commit, so only one concurrent loader per referenced table should use this.
 */
export async function foreignKeys(client: pg.ClientBase, table: string): Promise<Rebuild> {
  const { rows } = await client.query<{ name: string; def: string }>(`
    SELECT quote_ident(conname) AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = $1::regclass AND contype = 'f' ORDER BY conname`, [table]);
  return {
    drop: rows.map((r) => `ALTER TABLE ${table} DROP CONSTRAINT ${r.name}`),
    create: rows.map((r) => `ALTER TABLE ${table} ADD CONSTRAINT ${r.name} ${r.def}`),
  };
}

export async function run(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  for (const s of statements) await client.query(s);
}

/** Where parked index definitions wait, so that an interrupted seed can be healed. */
const PARKED = 'seed.parked_indexes';

/**
 * Drops a table's secondary indexes for a load that spans several transactions (other
 * connections must see its rows before it is complete). The definitions are kept in sync_state
 * in the same transaction; `restoreParkedIndexes` builds them again.
 */
export async function parkIndexes(pool: pg.Pool, table: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { drop, create } = await secondaryIndexes(client, table);
    await client.query(`
      INSERT INTO sync_state (key, value, updated_at) VALUES ($1, $2::jsonb, now())
      ON CONFLICT (key) DO UPDATE SET value = sync_state.value || EXCLUDED.value, updated_at = now()`, [PARKED, JSON.stringify(create)]);
    await run(client, drop);
    await client.query('COMMIT');
    client.release();
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
}

/**
 * Builds the parked indexes again (within the client's transaction, if any) and forgets them.
 * Does nothing when none are parked; after a seed that died half-way it restores what was dropped.
 */
export async function restoreParkedIndexes(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ value: string[] }>(`SELECT value FROM sync_state WHERE key = $1`, [PARKED]);
  if (rows.length === 0) return;
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  await run(client, rows[0].value.map((def) => def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS ')));
  await client.query(`DELETE FROM sync_state WHERE key = $1`, [PARKED]);
}
