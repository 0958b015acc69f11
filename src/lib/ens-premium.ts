/**
 * The temporary premium of a released .eth name, exactly as ENS's ExponentialPremiumPriceOracle
 * computes it on chain (ensdomains/ens-contracts, ethregistrar/ExponentialPremiumPriceOracle.sol):
 * after expiry + grace the premium starts at `startPremium` and halves every day, by whole-day
 * shifts and a 16-bit fractional day through fixed constants 0.5^(2^i/65536) × 1e18; the value it
 * would have after `totalDays` (startPremium >> totalDays) is subtracted so it reaches 0 then.
 * Amounts are in attoUSD (USD × 1e18); `attoUsdToWei` converts with an 8-decimal ETH/USD price as
 * the oracle does.
 */
const PRECISION = 10n ** 18n;
const DAY_SECONDS = 86_400n;
const FRACTION_BITS = [
  999989423469314432n, 999978847050491904n, 999957694548431104n, 999915390886613504n,
  999830788931929088n, 999661606496243712n, 999323327502650752n, 998647112890970240n,
  997296056085470080n, 994599423483633152n, 989228013193975424n, 978572062087700096n,
  957603280698573696n, 917004043204671232n, 840896415253714560n, 707106781186547584n,
] as const;

export const ATTO = PRECISION;

/** startPremium decayed by `elapsedSeconds` since the premium began (before the subtraction). */
export function decayedPremium(startPremium: bigint, elapsedSeconds: bigint): bigint {
  const daysPast = (elapsedSeconds * PRECISION) / DAY_SECONDS;
  const intDays = daysPast / PRECISION;
  let premium = startPremium >> intDays;
  const partDay = daysPast - intDays * PRECISION;
  const fraction = (partDay * 65_536n) / PRECISION;
  for (let i = 0; i < 16; i++) {
    if ((fraction & (1n << BigInt(i))) !== 0n) premium = (premium * FRACTION_BITS[i]) / PRECISION;
  }
  return premium;
}

/**
 * The premium in attoUSD `elapsedSeconds` after the premium period began (expiry + grace): 0
 * before it and from `totalDays` on.
 */
export function premiumAttoUsd(startPremiumAttoUsd: bigint, totalDays: number, elapsedSeconds: bigint): bigint {
  if (elapsedSeconds < 0n) return 0n;
  const endValue = startPremiumAttoUsd >> BigInt(totalDays);
  const premium = decayedPremium(startPremiumAttoUsd, elapsedSeconds);
  return premium >= endValue ? premium - endValue : 0n;
}

/** attoUSD → wei at an ETH/USD price with 8 decimals (Chainlink's, and `eth_usd_prices.price_usd`). */
export function attoUsdToWei(attoUsd: bigint, ethUsdPrice8: bigint): bigint {
  if (ethUsdPrice8 <= 0n) throw new RangeError('ETH/USD price must be positive');
  return (attoUsd * 100_000_000n) / ethUsdPrice8;
}

/** A decimal price string with up to 8 decimals ("2000", "1234.5") as an 8-decimal integer. */
export function price8(decimal: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,8}))?$/.exec(decimal.trim());
  if (!m) throw new RangeError(`not a price: ${decimal}`);
  return BigInt(m[1]) * 100_000_000n + BigInt((m[2] ?? '').padEnd(8, '0'));
}
