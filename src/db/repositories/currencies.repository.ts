import { sql } from 'kysely';
import { MAINNET, type Config } from '../../config.js';
import { ZERO_ADDRESS } from '../../lib/address.js';
import type { Executor } from '../client.js';

export interface CurrenciesTable {
  address: string;
  symbol: string;
  decimals: number;
  peg: 'eth' | 'usd';
}

/** The currencies whose value the service knows: ETH, the configured WETH, and USDC (pegged to USD). */
export function knownCurrencies(config: Pick<Config, 'wethAddress'>): CurrenciesTable[] {
  return [
    { address: ZERO_ADDRESS, symbol: 'ETH', decimals: 18, peg: 'eth' },
    { address: config.wethAddress, symbol: 'WETH', decimals: 18, peg: 'eth' },
    { address: MAINNET.usdc, symbol: 'USDC', decimals: 6, peg: 'usd' },
  ];
}

/** Writes the known currencies (start-up), so `eth_value_wei()` in SQL ranks amounts by value. */
export async function syncCurrencies(db: Executor, config: Pick<Config, 'wethAddress'>): Promise<void> {
  await db
    .insertInto('currencies')
    .values(knownCurrencies(config))
    .onConflict((oc) => oc.column('address').doUpdateSet({ symbol: sql`excluded.symbol`, decimals: sql`excluded.decimals`, peg: sql`excluded.peg` }))
    .execute();
}
