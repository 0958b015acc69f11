import { DAY } from '../lib/time.js';

/**
 * Chain-shaped facts for the demo data: dates of ENS history, a synthetic but plausible daily
 * ETH/USD curve, block numbers for times, and registration prices.
 */
export const ENS_LAUNCH = Date.UTC(2017, 4, 4);
export const PUNKS_LAUNCH = Date.UTC(2017, 5, 23);
export const PERMANENT_REGISTRAR = Date.UTC(2019, 4, 4);
/** Auction-era names were migrated to the permanent registrar with this expiry. */
export const MIGRATION_EXPIRY = Date.UTC(2020, 4, 4);
export const AIRDROP_CUTOFF = Date.UTC(2021, 10, 1);
export const PRICES_FROM = Date.UTC(2017, 4, 1);
export const YEAR = 365 * DAY;

/** Rough shape of the real market (day, USD), interpolated log-linearly; flat-ish after the last point. */
const ANCHORS: ReadonlyArray<readonly [string, number]> = [
  ['2017-05-01', 80], ['2017-06-12', 390], ['2017-12-31', 740], ['2018-01-13', 1390],
  ['2018-04-06', 380], ['2018-12-15', 85], ['2019-06-26', 330], ['2019-12-31', 130],
  ['2020-03-13', 110], ['2020-12-31', 740], ['2021-05-12', 4150], ['2021-07-20', 1800],
  ['2021-11-09', 4800], ['2022-06-18', 1000], ['2022-12-31', 1200], ['2023-12-31', 2300],
  ['2024-03-12', 4000], ['2024-08-05', 2300], ['2024-12-16', 4000], ['2025-04-08', 1500],
  ['2025-08-24', 4900], ['2026-01-15', 3100], ['2026-06-30', 2700], ['2026-12-31', 3300],
  ['2028-01-01', 3600],
];
const ANCHOR_DAYS = ANCHORS.map(([d, p]) => [Date.parse(`${d}T00:00:00Z`) / DAY, Math.log(p)] as const);

/** ETH/USD on a day (days since the epoch), with deterministic day-to-day wiggle. */
export function ethUsdOnDay(day: number): number {
  let i = 0;
  while (i < ANCHOR_DAYS.length - 2 && ANCHOR_DAYS[i + 1][0] <= day) i++;
  const [d0, p0] = ANCHOR_DAYS[i];
  const [d1, p1] = ANCHOR_DAYS[i + 1];
  const t = Math.min(1, Math.max(0, (day - d0) / (d1 - d0)));
  const wiggle = 0.04 * Math.sin(day * 0.9) + 0.03 * Math.sin(day * 0.23 + 1) + 0.05 * Math.sin(day * 0.051 + 2);
  return Math.round(Math.exp(p0 + (p1 - p0) * t + wiggle) * 100) / 100;
}

export function ethUsdAt(ms: number): number {
  return ethUsdOnDay(Math.floor(ms / DAY));
}

/** Yearly registration price in USD by length in code points (the controller's `strlen`). */
export function usdPerYear(label: string): number {
  const len = [...label].length;
  return len <= 3 ? 640 : len === 4 ? 160 : 5;
}

/** Price of `seconds` of registration at time `ms`, in whole gwei, through that day's ETH/USD. */
export function registrationCostGwei(label: string, seconds: number, ms: number): number {
  return Math.round(((usdPerYear(label) * seconds) / (YEAR / 1000) / ethUsdAt(ms)) * 1e9);
}

/** Mainnet block at a time: ~14.2 s blocks before the merge, 12 s after. */
const MERGE_TIME = 1_663_224_162_000;
const MERGE_BLOCK = 15_537_394;
export function blockAt(ms: number): number {
  return ms >= MERGE_TIME
    ? MERGE_BLOCK + Math.floor((ms - MERGE_TIME) / 12_000)
    : MERGE_BLOCK - Math.ceil((MERGE_TIME - ms) / 14_230);
}

/** An amount of ETH as wei, kept to three significant digits as people price things. */
export function ethToWei(eth: number): bigint {
  const milli = Math.max(1, eth * 1000);
  const digits = Math.floor(Math.log10(milli)) + 1;
  const scale = 10 ** Math.max(0, digits - 3);
  return BigInt(Math.round(milli / scale) * scale) * 1_000_000_000_000_000n;
}

/** The same value in USDC units (6 decimals) at a time, to whole dollars. */
export function ethToUsdc(eth: number, ms: number): bigint {
  return BigInt(Math.max(1, Math.round(eth * ethUsdAt(ms)))) * 1_000_000n;
}

export interface Currencies { eth: string; weth: string; usdc: string }

export type Currency = keyof Currencies;

/** An amount in the currency's smallest unit: wei for ETH and WETH, micro-dollars for USDC. */
export function priceOf(eth: number, currency: Currency, at: number): bigint {
  return currency === 'usdc' ? ethToUsdc(eth, at) : ethToWei(eth);
}
