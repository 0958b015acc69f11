import { sql, type Kysely } from 'kysely';

/**
 * Addresses, hashes and viewer keys compared byte by byte (`COLLATE "C"`) instead of through the
 * database's collation. They are lowercase hex or ASCII keys, so the order is the same under any
 * collation PostgreSQL offers for them, but a libc collation (`C.UTF-8`, `en_US.UTF-8`: any but
 * "C" and "POSIX") compares each pair through `strcoll` and sorts without abbreviated keys. At a
 * million names every index keyed by one of them built in 0.54× the time (registrations by actor
 * 7.96 → 4.29 s; their transaction key 7.82 → 4.16 s), and each look-up, join and sort on them is
 * a `memcmp`. A "C" column compared with one of the database's collation takes "C"; the result is
 * the same (they are ASCII).
 *
 * The domain cannot change its collation, so a new one takes its place (its check added back and
 * validated after the columns move, which then need no rewrite; each table's indexes are rebuilt
 * once). Every column of the domain moves, whatever table it is in.
 */
const TEXT_KEYS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['ens_names', 'labelhash'],
  ['ens_names', 'namehash'],
  ['registrations', 'tx_hash'],
  ['registrations', 'referrer'],
  ['listings', 'order_hash'],
  ['offers', 'order_hash'],
  ['sales', 'order_hash'],
  ['sales', 'tx_hash'],
  ['activity_events', 'transaction_hash'],
  ['name_views_daily', 'viewer'],
  ['name_viewer_latest', 'viewer'],
];

const CHECK = `length(VALUE) = 42 AND VALUE ~ '^0x[0-9a-f]*$'`;

async function move(db: Kysely<unknown>, collation: 'C' | 'default'): Promise<void> {
  // each table's indexes on the moved columns are built again
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(db);
  const collate = collation === 'C' ? ' COLLATE "C"' : '';
  await sql.raw(`CREATE DOMAIN eth_address_moved AS text${collate}`).execute(db);
  const addresses = await sql<{ table: string; column: string }>`
    SELECT a.attrelid::regclass::text AS table, a.attname AS column
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    WHERE format_type(a.atttypid, NULL) = 'eth_address' AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p')
    ORDER BY 1, 2`.execute(db);
  const changes = new Map<string, string[]>();
  const add = (table: string, change: string) => changes.set(table, [...(changes.get(table) ?? []), change]);
  for (const { table, column } of addresses.rows) add(table, `ALTER COLUMN ${column} TYPE eth_address_moved`);
  for (const [table, column] of TEXT_KEYS) add(table, `ALTER COLUMN ${column} TYPE text${collate}`);
  // a trigger whose column list or condition names a moved column is taken off while it moves (the
  // domain by name, not as a regtype constant: a prepared plan would keep the dropped domain's oid)
  const triggers = await sql<{ table: string; name: string; definition: string }>`
    SELECT DISTINCT t.tgrelid::regclass::text AS table, t.tgname AS name, pg_get_triggerdef(t.oid) AS definition
    FROM pg_trigger t JOIN pg_depend d ON d.classid = 'pg_trigger'::regclass AND d.objid = t.oid AND d.refclassid = 'pg_class'::regclass
    JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
    WHERE NOT t.tgisinternal
      AND (format_type(a.atttypid, NULL) = 'eth_address' OR (a.attrelid::regclass::text, a.attname::text) IN (${sql.join(TEXT_KEYS.map(([t, c]) => sql`(${t}, ${c})`))}))`.execute(db);
  for (const t of triggers.rows) await sql.raw(`DROP TRIGGER ${t.name} ON ${t.table}`).execute(db);
  for (const [table, list] of changes) await sql.raw(`ALTER TABLE ${table} ${list.join(', ')}`).execute(db);
  for (const t of triggers.rows) await sql.raw(t.definition).execute(db);
  await sql`DROP DOMAIN eth_address`.execute(db);
  await sql`ALTER DOMAIN eth_address_moved RENAME TO eth_address`.execute(db);
  await sql.raw(`ALTER DOMAIN eth_address ADD CONSTRAINT eth_address_check CHECK (${CHECK})`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await move(db, 'C');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await move(db, 'default');
}
