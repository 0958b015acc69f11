import { sql, type Kysely } from 'kysely';

/**
 * Profiles. `primary_names` keeps the last primary name (reverse record) read for an address
 * through ETH_RPC_URL, so a profile answers without a chain read while it is fresh, and with the
 * last one seen when the RPC is unset or failing; `name` NULL means the address had none when
 * checked. The club counts of a profile are read from `club_holders` by address, which needs an
 * index of its own (its key leads with the club).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS primary_names (
      address eth_address PRIMARY KEY,
      name text,
      checked_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS club_holders_address_idx ON club_holders (address);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS club_holders_address_idx;
    DROP TABLE IF EXISTS primary_names;
  `.execute(db);
}
