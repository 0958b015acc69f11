import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { cached } from '../infra/cache.js';
import { normalizeAddress } from '../lib/address.js';
import { iso } from '../lib/time.js';

/**
 * Legends: an address's early mints. A mint is the first registration of a name (later
 * registrations of the same name after it lapsed are not mints); its minter is that
 * registration's registrant. A legend type is a row of `legend_types` (time window
 * [starts_at, ends_at)); a mint counts for every type whose window holds its block time, so a
 * 2017 mint is both `prepunk` and `OG`. Read per request from the minter's mints (name_mints,
 * bounded by the latest legend end) and cached 15 seconds.
 */
export const LEGENDS_CACHE_SECONDS = 15;

export interface LegendSummaryEntry {
  qualified: boolean;
  count: number;
  firstMint: string;
  lastMint: string;
}

export interface LegendMint {
  name: string;
  txHash: string;
  blockNumber: number;
  blockTime: string;
  labelhash: string;
  namehash: string;
}

export interface LegendDetailsEntry {
  qualified: boolean;
  count: number;
  mints: LegendMint[];
}

interface MintRow {
  type: string;
  name: string;
  tx_hash: string;
  block_number: number;
  block_time: Date;
  labelhash: string;
  namehash: string;
}

export class LegendsService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'cache'>) {}

  /** Only the types the address qualifies for appear; no mints gives `legends: {}`. */
  async summary(rawAddress: string): Promise<{ address: string; legends: Record<string, LegendSummaryEntry> }> {
    const address = normalizeAddress(rawAddress);
    return cached(this.deps.cache, `legends:summary:${address}`, LEGENDS_CACHE_SECONDS, async () => {
      const rows = await sql<{ type: string; count: number; first_mint: Date; last_mint: Date }>`
        SELECT m.type, count(*)::int AS count, min(m.block_time) AS first_mint, max(m.block_time) AS last_mint
        FROM (${mintsOf(address, false)}) m
        GROUP BY m.type
        ORDER BY min(m.block_time), m.type
      `.execute(this.deps.db);
      const legends: Record<string, LegendSummaryEntry> = {};
      for (const r of rows.rows) legends[r.type] = { qualified: r.count > 0, count: r.count, firstMint: iso(r.first_mint), lastMint: iso(r.last_mint) };
      return { address, legends };
    });
  }

  /** Every mint per type, oldest first; `type` (any case) keeps one type. */
  async details(rawAddress: string, type?: string): Promise<{ address: string; legends: Record<string, LegendDetailsEntry> }> {
    const address = normalizeAddress(rawAddress);
    const only = type?.toLowerCase();
    return cached(this.deps.cache, `legends:details:${address}:${only ?? '*'}`, LEGENDS_CACHE_SECONDS, async () => {
      const rows = await sql<MintRow>`
        SELECT m.type, m.name, m.tx_hash, m.block_number, m.block_time, m.labelhash, m.namehash
        FROM (${mintsOf(address, true)}) m
        ${only === undefined ? sql`` : sql`WHERE lower(m.type) = ${only}`}
        ORDER BY m.block_time, m.block_number, m.log_index, m.type
      `.execute(this.deps.db);
      const legends: Record<string, LegendDetailsEntry> = {};
      for (const r of rows.rows) {
        const entry = (legends[r.type] ??= { qualified: true, count: 0, mints: [] });
        entry.count += 1;
        entry.mints.push({
          name: r.name,
          txHash: r.tx_hash,
          blockNumber: r.block_number,
          blockTime: iso(r.block_time),
          labelhash: r.labelhash,
          namehash: r.namehash,
        });
      }
      return { address, legends };
    });
  }
}

/**
 * The address's mints that fall in a legend window, one row per (mint, type): one range of the
 * mints' minter index (name_mints, migration 0044: each name's first registration, kept by the
 * registrations' writers). `withNames` joins the registration and the name for the details; the
 * summary needs only times.
 */
function mintsOf(address: string, withNames: boolean) {
  return sql`
    SELECT lt.type, m.block_number, m.block_time, m.log_index
      ${withNames ? sql`, r.tx_hash, n.name, n.labelhash, n.namehash` : sql``}
    FROM name_mints m
    JOIN legend_types lt ON m.block_time < lt.ends_at AND (lt.starts_at IS NULL OR m.block_time >= lt.starts_at)
    ${withNames ? sql`JOIN registrations r ON r.id = m.registration_id JOIN ens_names n ON n.id = m.ens_name_id` : sql``}
    WHERE m.actor_address = ${address} AND m.block_time < (SELECT max(ends_at) FROM legend_types)
  `;
}
