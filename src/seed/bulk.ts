import type pg from 'pg';

/**
 * Schema steps around a bulk load (PostgreSQL's "Populating a Database" advice): a table's
 * secondary indexes and unique constraints are dropped before loading and built again afterwards,
 * which is many times faster than inserting into two dozen indexes (four of them unique on
 * random hashes) row by row. Definitions are read from the catalog, so what other migrations add
 * is handled the same way. Primary keys and unique keys that a foreign key refers to stay.
 * Foreign keys can be parked too, and added again when the rows are in.
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

/**
 * A table's foreign keys. Each checks its rows one by one as they are inserted (an index probe
 * and a row lock on the referenced row, about as much as the insert itself), where adding the key
 * afterwards checks all rows in one join.
 */
export async function foreignKeys(client: pg.ClientBase, table: string): Promise<SchemaItem[]> {
  const { rows } = await client.query<SchemaItem>(`
    SELECT 'constraint' AS kind, $1::text AS table, quote_ident(k.conname) AS name, pg_get_constraintdef(k.oid) AS def
    FROM pg_constraint k WHERE k.conrelid = $1::regclass AND k.contype = 'f' ORDER BY 3`, [table]);
  return rows;
}

export async function dropAll(client: pg.ClientBase, items: readonly SchemaItem[]): Promise<void> {
  for (const i of items) {
    await client.query(i.kind === 'index' ? `DROP INDEX ${i.name}` : `ALTER TABLE ${i.table} DROP CONSTRAINT ${i.name}`);
  }
}

/** A plain unique constraint's columns, `(a, b)`, when it can be built as an index first and attached after. */
const PLAIN_UNIQUE = /^UNIQUE (\([^()]*\))$/;

/**
 * Builds the items again; with `ifMissing`, skips those that exist (healing after a crash), but
 * validates a foreign key that exists unchecked (NOT VALID). A
 * missing plain unique constraint whose index is there (built under its name before the crash)
 * is attached to it (`ADD CONSTRAINT ... USING INDEX`, no second build).
 */
export async function createAll(client: pg.ClientBase, items: readonly SchemaItem[], ifMissing = false): Promise<void> {
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  for (const i of items) {
    if (i.kind === 'index') {
      await client.query(ifMissing ? i.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS ') : i.def);
      continue;
    }
    if (ifMissing) {
      const existing = await constraintOf(client, i);
      if (existing) {
        // a foreign key added unchecked (attachParked) by a seed that died before it was validated
        if (!existing.convalidated) await client.query(`ALTER TABLE ${i.table} VALIDATE CONSTRAINT ${i.name}`);
        continue;
      }
      if (PLAIN_UNIQUE.test(i.def)) {
        const { rowCount: built } = await client.query(`SELECT 1 FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
          WHERE x.indrelid = $1::regclass AND quote_ident(c.relname) = $2 AND x.indisunique AND x.indisvalid`, [i.table, i.name]);
        if (built) {
          await client.query(`ALTER TABLE ${i.table} ADD CONSTRAINT ${i.name} UNIQUE USING INDEX ${i.name}`);
          continue;
        }
      }
    }
    await client.query(`ALTER TABLE ${i.table} ADD CONSTRAINT ${i.name} ${i.def}`);
  }
}

/** Where parked definitions wait, so that an interrupted seed can be healed. */
const PARKED = 'seed.parked_indexes';

/**
 * Drops a table's rebuildable indexes and constraints, or its foreign keys, for a load that spans
 * several transactions (other connections must see its rows before it is complete). The
 * definitions are kept in sync_state in the same transaction; `restoreParked` builds them again.
 */
export async function park(pool: pg.Pool, table: string, which: 'indexes' | 'foreign keys' = 'indexes'): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const items = which === 'indexes' ? await rebuildable(client, table) : await foreignKeys(client, table);
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
 * them. Does nothing when none are parked; after a seed that died half-way it restores what was
 * dropped.
 */
export async function restoreParked(client: pg.ClientBase): Promise<void> {
  const items = await parked(client);
  if (items.length === 0) return;
  await createAll(client, items, true);
  await client.query(`DELETE FROM sync_state WHERE key = $1`, [PARKED]);
}

/**
 * Adds the parked foreign keys NOT VALID: without checking the rows, so it takes a moment (see
 * attachParked in tail.ts). They stay parked: `restoreParked` validates them if they are still
 * unchecked, so a seed that dies before they are validated is healed. The keys, to validate.
 */
export async function addParkedKeysUnchecked(client: pg.ClientBase): Promise<SchemaItem[]> {
  const keys = (await parked(client)).filter((i) => i.kind === 'constraint' && i.def.startsWith('FOREIGN KEY'));
  for (const k of keys) {
    if (!(await constraintOf(client, k))) await client.query(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.name} ${k.def} NOT VALID`);
  }
  return keys;
}

/** The constraint of that table and name, if it exists. */
async function constraintOf(client: pg.ClientBase, item: SchemaItem): Promise<{ convalidated: boolean } | undefined> {
  const { rows } = await client.query<{ convalidated: boolean }>(`SELECT convalidated FROM pg_constraint WHERE conrelid = $1::regclass AND quote_ident(conname) = $2`,
    [item.table, item.name]);
  return rows[0];
}

/** The parked items, their row locked until the client's transaction ends (one restore at a time). */
async function parked(client: pg.ClientBase): Promise<SchemaItem[]> {
  const { rows } = await client.query<{ value: SchemaItem[] }>(`SELECT value FROM sync_state WHERE key = $1 FOR UPDATE`, [PARKED]);
  return rows[0]?.value ?? [];
}
