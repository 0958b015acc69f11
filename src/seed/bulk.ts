import type pg from 'pg';

/**
 * Schema steps around a bulk load (PostgreSQL's "Populating a Database" advice): a table's
 * secondary indexes and unique constraints are dropped before loading and built again afterwards,
 * which is many times faster than inserting into two dozen indexes (four of them unique on
 * random hashes) row by row. Definitions are read from the catalog, so what other migrations add
 * is handled the same way. Primary keys and unique keys that a foreign key refers to stay.
 */
export interface SchemaItem {
  kind: 'index' | 'constraint';
  table: string;
  /** quoted identifier (schema-qualified for an index) */
  name: string;
  /** CREATE INDEX statement, or the constraint's definition */
  def: string;
}

export async function rebuildable(client: pg.ClientBase, table: string): Promise<SchemaItem[]> {
  const { rows } = await client.query<SchemaItem>(`
    SELECT 'index' AS kind, $1 AS table, format('%I.%I', n.nspname, c.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)
    UNION ALL
    SELECT 'constraint', $1, quote_ident(k.conname), pg_get_constraintdef(k.oid)
    FROM pg_constraint k
    WHERE k.conrelid = $1::regclass AND k.contype IN ('u', 'x')
      AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = k.conindid)
    ORDER BY 1, 3`, [table]);
  return rows;
}

export async function dropAll(client: pg.ClientBase, items: readonly SchemaItem[]): Promise<void> {
  for (const i of items) {
    await client.query(i.kind === 'index' ? `DROP INDEX ${i.name}` : `ALTER TABLE ${i.table} DROP CONSTRAINT ${i.name}`);
  }
}

/** Builds the items again; with `ifMissing`, skips those that exist (healing after a crash). */
export async function createAll(client: pg.ClientBase, items: readonly SchemaItem[], ifMissing = false): Promise<void> {
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  for (const i of items) {
    if (i.kind === 'index') {
      await client.query(ifMissing ? i.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS ') : i.def);
      continue;
    }
    if (ifMissing) {
      const { rowCount } = await client.query(`SELECT 1 FROM pg_constraint WHERE conrelid = $1::regclass AND quote_ident(conname) = $2`, [i.table, i.name]);
      if (rowCount) continue;
    }
    await client.query(`ALTER TABLE ${i.table} ADD CONSTRAINT ${i.name} ${i.def}`);
  }
}

/** Where parked definitions wait, so that an interrupted seed can be healed. */
const PARKED = 'seed.parked_indexes';

/**
 * Drops a table's rebuildable indexes and constraints for a load that spans several transactions
 * (other connections must see its rows before it is complete). The definitions are kept in
 * sync_state in the same transaction; `restoreParked` builds them again.
 */
export async function park(pool: pg.Pool, table: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const items = await rebuildable(client, table);
    await client.query(`
      INSERT INTO sync_state (key, value, updated_at) VALUES ($1, $2::jsonb, now())
      ON CONFLICT (key) DO UPDATE SET value = sync_state.value || EXCLUDED.value, updated_at = now()`, [PARKED, JSON.stringify(items)]);
    await dropAll(client, items);
    await client.query('COMMIT');
    client.release();
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
}

/**
 * Builds the parked indexes and constraints again (within the client's transaction) and forgets
 * them. Does nothing when none are parked; after a seed that died half-way it restores what was dropped.
 */
export async function restoreParked(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ value: SchemaItem[] }>(`SELECT value FROM sync_state WHERE key = $1`, [PARKED]);
  if (rows.length === 0) return;
  await createAll(client, rows[0].value, true);
  await client.query(`DELETE FROM sync_state WHERE key = $1`, [PARKED]);
}
