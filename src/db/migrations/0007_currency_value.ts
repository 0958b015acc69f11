import { sql, type Kysely } from 'kysely';

/**
 * Orders come in several currencies (ETH, WETH, USDC…), so "highest offer" and "listing price"
 * rank by value in ETH, not by raw amount: 1,000 USDC (1e9 units) must not lose to 0.01 WETH.
 * `currencies` is written from configuration at start-up; `eth_value_wei` converts an amount to
 * wei of ETH (USD-pegged tokens at the latest daily ETH/USD price; NULL when the currency is
 * unknown or no price is known yet).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE currencies (
      address eth_address PRIMARY KEY,
      symbol text NOT NULL,
      decimals integer NOT NULL CHECK (decimals BETWEEN 0 AND 36),
      peg text NOT NULL CHECK (peg IN ('eth', 'usd'))
    );

    CREATE FUNCTION eth_value_wei(amount numeric, currency text) RETURNS numeric LANGUAGE sql STABLE AS $$
      SELECT CASE c.peg
        WHEN 'eth' THEN amount * power(10::numeric, 18 - c.decimals)
        WHEN 'usd' THEN trunc(amount * power(10::numeric, 18 - c.decimals) / (SELECT price_usd FROM eth_usd_prices ORDER BY day DESC LIMIT 1))
      END
      FROM currencies c WHERE c.address = currency
    $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS eth_value_wei(numeric, text); DROP TABLE IF EXISTS currencies;`.execute(db);
}
