import { sql, type Kysely } from 'kysely';

/**
 * A listing's price valued in wei of ETH (`value_wei`: WETH 1:1, USDC at the latest ETH/USD price,
 * `eth_value_wei` of 0007), so GET /listings sorts and filters by value across currencies as search
 * does, over an index: 1,000 USDC no longer ranks below 0.01 ETH. A trigger sets it on every write of
 * a price or currency, whoever writes (the orders, the seed's COPY, tests); `revalueListings` (the
 * price sync, after a new ETH/USD price) moves the USD-priced live listings. NULL while a currency's
 * value is unknown (USDC before any ETH/USD price): such a listing sorts as the dearest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The backfill touches every listing: longer than the API's statement timeout on a big database.
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`ALTER TABLE listings ADD COLUMN IF NOT EXISTS value_wei numeric(78,0)`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION listings_value_in_eth() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.value_wei := trunc(eth_value_wei(NEW.price_wei, NEW.currency_address));
      RETURN NEW;
    END $$`.execute(db);
  await sql`DROP TRIGGER IF EXISTS listings_value_in_eth ON listings`.execute(db);
  await sql`
    CREATE TRIGGER listings_value_in_eth BEFORE INSERT OR UPDATE OF price_wei, currency_address ON listings
    FOR EACH ROW EXECUTE FUNCTION listings_value_in_eth()`.execute(db);
  await sql`UPDATE listings SET value_wei = trunc(eth_value_wei(price_wei, currency_address)) WHERE value_wei IS DISTINCT FROM trunc(eth_value_wei(price_wei, currency_address))`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS listings_status_value_idx ON listings (status, value_wei, id) INCLUDE (expires_at, name_expiry_date)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS listings_status_value_idx`.execute(db);
  await sql`DROP TRIGGER IF EXISTS listings_value_in_eth ON listings`.execute(db);
  await sql`DROP FUNCTION IF EXISTS listings_value_in_eth()`.execute(db);
  await sql`ALTER TABLE listings DROP COLUMN IF EXISTS value_wei`.execute(db);
}
