import { sql, type Kysely } from 'kysely';

/**
 * The checks of addresses (the `eth_address` domain) and 32-byte hashes as a length and a hex
 * regex without a bound: `length(v) = 42 AND v ~ '^0x[0-9a-f]*$'` accepts and refuses exactly
 * what `v ~ '^0x[0-9a-f]{40}$'` does (PostgreSQL's `$` is the end of the text, and ranges are
 * code points), but PostgreSQL builds the matcher of a bounded repetition anew for each value:
 * 8-13 µs a value instead of about 1. Every row written carries several (an activity event up to
 * four), so a million-name seed checked about 25 million values: COPY of the activity log or the
 * registrations costs a third of the database CPU it did. The constraints keep their names and
 * are added back validated: existing rows are checked again.
 */
const HASHES: ReadonlyArray<readonly [table: string, column: string]> = [
  ['ens_names', 'labelhash'],
  ['ens_names', 'namehash'],
  ['registrations', 'tx_hash'],
  ['registrations', 'referrer'],
  ['listings', 'order_hash'],
  ['offers', 'order_hash'],
  ['activity_events', 'transaction_hash'],
];

async function replace(db: Kysely<unknown>, check: (column: string, digits: number) => string): Promise<void> {
  // every row of the tables that hold an address or a hash is checked again
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`ALTER DOMAIN eth_address DROP CONSTRAINT eth_address_check`.execute(db);
  await sql.raw(`ALTER DOMAIN eth_address ADD CONSTRAINT eth_address_check CHECK (${check('VALUE', 40)})`).execute(db);
  const tables = [...new Set(HASHES.map(([t]) => t))];
  for (const table of tables) {
    const changes = HASHES.filter(([t]) => t === table)
      .map(([, c]) => `DROP CONSTRAINT ${table}_${c}_check, ADD CONSTRAINT ${table}_${c}_check CHECK (${check(c, 64)})`);
    await sql.raw(`ALTER TABLE ${table} ${changes.join(', ')}`).execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replace(db, (column, digits) => `length(${column}) = ${digits + 2} AND ${column} ~ '^0x[0-9a-f]*$'`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replace(db, (column, digits) => `${column} ~ '^0x[0-9a-f]{${digits}}$'`);
}
