import { sql } from 'kysely';
import type { Config } from '../../config.js';
import { ETH_CURRENCY, USDC_CURRENCY, WETH_CURRENCY } from '../../lib/currencies.js';
import type { Executor } from '../client.js';

export interface CurrenciesTable {
  address: string;
  symbol: string;
  decimals: number;
  peg: 'eth' | 'usd';
}

/** The currencies whose value the service knows: ETH, the configured WETH, and USDC (pegged to USD). */
export function knownCurrencies(config: Pick<Config, 'wethAddress'>): CurrenciesTable[] {
  return [ETH_CURRENCY, { ...WETH_CURRENCY, address: config.wethAddress }, USDC_CURRENCY];
}

/** Writes the known currencies (start-up), so `eth_value_wei()` in SQL ranks amounts by value. */
export async function syncCurrencies(db: Executor, config: Pick<Config, 'wethAddress'>): Promise<void> {
  await db
    .insertInto('currencies')
    .values(knownCurrencies(config))
    .onConflict((oc) => oc.column('address').doUpdateSet({ symbol: sql`excluded.symbol`, decimals: sql`excluded.decimals`, peg: sql`excluded.peg` }))
    .execute();
}
