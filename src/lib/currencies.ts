/**
 * The currencies whose symbol, decimals and value the service knows (mainnet addresses, lower-case).
 * `currencyFields` is the one mapping every order shown in a response goes through.
 */
export interface KnownCurrency {
  address: string;
  symbol: string;
  decimals: number;
  /** What its value follows: ETH (1:1) or the US dollar (valued at the latest ETH/USD price). */
  peg: 'eth' | 'usd';
}

export const ETH_CURRENCY: KnownCurrency = { address: '0x0000000000000000000000000000000000000000', symbol: 'ETH', decimals: 18, peg: 'eth' };
export const WETH_CURRENCY: KnownCurrency = { address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', symbol: 'WETH', decimals: 18, peg: 'eth' };
export const USDC_CURRENCY: KnownCurrency = { address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', decimals: 6, peg: 'usd' };

export const KNOWN_CURRENCIES: readonly KnownCurrency[] = [ETH_CURRENCY, WETH_CURRENCY, USDC_CURRENCY];

const BY_ADDRESS = new Map(KNOWN_CURRENCIES.map((c) => [c.address, c]));

/** The known currency at `address` (any case), or undefined. */
export function knownCurrency(address: string): KnownCurrency | undefined {
  return BY_ADDRESS.get(address.toLowerCase());
}

/** `currency_symbol` and `currency_decimals` of an order's currency (null for a currency the service does not know). */
export function currencyFields(address: string): { currency_symbol: string | null; currency_decimals: number | null } {
  const c = knownCurrency(address);
  return { currency_symbol: c?.symbol ?? null, currency_decimals: c?.decimals ?? null };
}
