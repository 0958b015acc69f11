import { sql } from 'kysely';
import { formatUnits, type PublicClient } from 'viem';
import type { Executor } from '../db/client.js';
import { chainlinkAggregatorAbi } from '../providers/rpc/abis.js';

/**
 * The daily ETH/USD price table (`eth_usd_prices`), used for `base_cost_eth`. Loaded from a CSV
 * (`day,price_usd`) and, with ETH_RPC_URL, from the Chainlink ETH/USD feed (today's row, written
 * again each hour so the day ends with its last price).
 */
export interface DailyPrice {
  /** YYYY-MM-DD (UTC) */
  day: string;
  /** decimal string, stored with 8 decimals */
  priceUsd: string;
}

export interface CsvProblem {
  line: number;
  problem: string;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const PRICE_RE = /^\d{1,12}(\.\d+)?$/;

function validDay(day: string): boolean {
  if (!DAY_RE.test(day)) return false;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}

/**
 * Parses `day,price_usd` lines (a header line is optional; quotes and blank lines allowed).
 * Returns every valid row and every problem; a later row for the same day wins.
 */
export function parsePricesCsv(text: string): { rows: DailyPrice[]; problems: CsvProblem[] } {
  const byDay = new Map<string, DailyPrice>();
  const problems: CsvProblem[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const cells = line.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim());
    if (i === 0 && !validDay(cells[0] ?? '') && /day/i.test(cells[0] ?? '')) return; // header
    if (cells.length !== 2) return problems.push({ line: i + 1, problem: `expected 2 columns (day,price_usd), got ${cells.length}` });
    const [day, price] = cells;
    if (!validDay(day)) return problems.push({ line: i + 1, problem: `"${day}" is not a date (YYYY-MM-DD)` });
    if (!PRICE_RE.test(price) || Number(price) <= 0) return problems.push({ line: i + 1, problem: `"${price}" is not a positive price` });
    byDay.set(day, { day, priceUsd: price });
  });
  return { rows: [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1)), problems };
}

/** Inserts or replaces the given days; returns how many rows were written. */
export async function upsertPrices(db: Executor, rows: readonly DailyPrice[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += 5000) {
    const batch = rows.slice(i, i + 5000);
    const result = await db
      .insertInto('eth_usd_prices')
      .values(batch.map((r) => ({ day: r.day, price_usd: r.priceUsd })))
      .onConflict((oc) => oc.column('day').doUpdateSet({ price_usd: sql`excluded.price_usd` }))
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

/** The feed's latest answer as the price of the UTC day it was updated. */
export async function readChainlinkPrice(client: PublicClient, feed: `0x${string}`): Promise<DailyPrice & { updatedAt: Date }> {
  const [decimals, round] = await Promise.all([
    client.readContract({ address: feed, abi: chainlinkAggregatorAbi, functionName: 'decimals' }),
    client.readContract({ address: feed, abi: chainlinkAggregatorAbi, functionName: 'latestRoundData' }),
  ]);
  const [, answer, , updatedAt] = round;
  if (answer <= 0n) throw new Error(`Chainlink feed ${feed} answered ${answer}`);
  const at = new Date(Number(updatedAt) * 1000);
  if (Number.isNaN(at.getTime()) || updatedAt === 0n) throw new Error(`Chainlink feed ${feed} has no update time`);
  return { day: at.toISOString().slice(0, 10), priceUsd: formatUnits(answer, decimals), updatedAt: at };
}
