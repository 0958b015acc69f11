import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { DAY } from '../lib/time.js';
import { startOfUtcDay } from './rollups.js';

/**
 * Per-club aggregates (`club_stats`, one row per club plus `*` for names in any club) and holders
 * per club (`club_holders`), rebuilt together by the `clubs.stats` job in one transaction.
 * Member counts stay in `clubs.member_count`, kept by every name write (services/clubs.service.ts).
 *
 * Definitions, with the configured grace and premium periods:
 * - registered: expiry in the future; grace: expired within the grace period; premium: within
 *   the premium auction after it; available: later, or never registered (no expiry known);
 * - holders: distinct owners of registered and grace names; listings: names with an active listing;
 *   floor: the active listing of a member with the lowest value in ETH (its price and currency);
 * - sales and registrations windows (1w, 1mo, 1y, all time) come from the daily rollups; sales
 *   volumes add ETH and WETH sales only.
 */
export interface ClubStatsRow {
  club: string;
  registered_count: number;
  grace_count: number;
  premium_count: number;
  available_count: number;
  listings_count: number;
  offers_count: number;
  holders_count: number;
  floor_price_wei: string | null;
  floor_price_currency: string | null;
  total_sales_count: number;
  total_sales_volume_wei: string;
  sales_count_1w: number;
  sales_count_1mo: number;
  sales_count_1y: number;
  sales_volume_wei_1w: string;
  sales_volume_wei_1mo: string;
  sales_volume_wei_1y: string;
  total_reg_count: number;
  total_reg_volume_wei: string;
  reg_count_1w: number;
  reg_count_1mo: number;
  reg_count_1y: number;
  reg_volume_wei_1w: string;
  reg_volume_wei_1mo: string;
  reg_volume_wei_1y: string;
  last_floor_update: Date | null;
  last_sales_update: Date | null;
  updated_at: Date;
}

/** The pseudo-club of names in at least one club. */
export const ANY_CLUB = '*';

export interface ClubStatsParams {
  gracePeriodDays: number;
  premiumPeriodDays: number;
}

const LOCK_KEY = 'clubs.stats';

export async function refreshClubStats(db: Db, params: ClubStatsParams, now: Date = new Date()): Promise<{ clubs: number; holders: number }> {
  const graceStart = new Date(now.getTime() - params.gracePeriodDays * DAY);
  const premiumStart = new Date(graceStart.getTime() - params.premiumPeriodDays * DAY);
  const today = startOfUtcDay(now);
  const since = (days: number) => new Date(today.getTime() - (days - 1) * DAY);
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = '15min'`.execute(trx);
    await sql`SET LOCAL jit = off`.execute(trx);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${LOCK_KEY}))`.execute(trx);
    // Each member row once per club it is in, and once more under '*'.
    const members = sql`
      SELECT c.club, n.id, n.owner_address, n.expiry_date, n.listing_price_wei, n.listing_currency
      FROM ens_names n CROSS JOIN LATERAL unnest(n.clubs || ${ANY_CLUB}::text) AS c(club)
      WHERE n.clubs <> '{}'`;
    await sql`DELETE FROM club_stats`.execute(trx);
    await sql`
      INSERT INTO club_stats (club, registered_count, grace_count, premium_count, available_count, listings_count, holders_count,
                              floor_price_wei, floor_price_currency, last_floor_update, updated_at)
      SELECT m.club,
             count(*) FILTER (WHERE m.expiry_date > ${now}),
             count(*) FILTER (WHERE m.expiry_date <= ${now} AND m.expiry_date > ${graceStart}),
             count(*) FILTER (WHERE m.expiry_date <= ${graceStart} AND m.expiry_date > ${premiumStart}),
             count(*) FILTER (WHERE m.expiry_date IS NULL OR m.expiry_date <= ${premiumStart}),
             count(*) FILTER (WHERE m.listing_price_wei IS NOT NULL),
             count(DISTINCT m.owner_address) FILTER (WHERE m.expiry_date > ${graceStart}),
             (array_agg(m.listing_price_wei ORDER BY eth_value_wei(m.listing_price_wei, m.listing_currency) NULLS LAST, m.id) FILTER (WHERE m.listing_price_wei IS NOT NULL))[1],
             (array_agg(m.listing_currency ORDER BY eth_value_wei(m.listing_price_wei, m.listing_currency) NULLS LAST, m.id) FILTER (WHERE m.listing_price_wei IS NOT NULL))[1],
             ${now}, ${now}
      FROM (${members}) m
      GROUP BY m.club
    `.execute(trx);
    await sql`
      UPDATE club_stats s SET offers_count = x.n
      FROM (
        SELECT c.club, count(*)::int AS n
        FROM offers o JOIN ens_names n ON n.id = o.ens_name_id CROSS JOIN LATERAL unnest(n.clubs || ${ANY_CLUB}::text) AS c(club)
        WHERE o.status = 'pending' AND (o.expires_at IS NULL OR o.expires_at > ${now}) AND n.clubs <> '{}'
        GROUP BY c.club
      ) x WHERE s.club = x.club
    `.execute(trx);
    const window = (kind: 'sale' | 'registration', days: number | null) => sql`
      SELECT c.club, sum(r.count)::int AS n, sum(r.volume_wei) AS v
      FROM market_rollups r CROSS JOIN LATERAL unnest(r.clubs || ${ANY_CLUB}::text) AS c(club)
      WHERE r.grain = 'day' AND r.kind = ${kind} AND r.clubs <> '{}' ${days === null ? sql`` : sql`AND r.bucket >= ${since(days)}`}
      GROUP BY c.club`;
    const windows = [['1w', 7], ['1mo', 30], ['1y', 365], ['total', null]] as const;
    for (const [suffix, days] of windows) {
      const [salesCount, salesVolume, regCount, regVolume] = suffix === 'total'
        ? ['total_sales_count', 'total_sales_volume_wei', 'total_reg_count', 'total_reg_volume_wei']
        : [`sales_count_${suffix}`, `sales_volume_wei_${suffix}`, `reg_count_${suffix}`, `reg_volume_wei_${suffix}`];
      await sql`UPDATE club_stats s SET ${sql.ref(salesCount)} = x.n, ${sql.ref(salesVolume)} = x.v, last_sales_update = ${now}
                FROM (${window('sale', days)}) x WHERE s.club = x.club`.execute(trx);
      await sql`UPDATE club_stats s SET ${sql.ref(regCount)} = x.n, ${sql.ref(regVolume)} = x.v
                FROM (${window('registration', days)}) x WHERE s.club = x.club`.execute(trx);
    }
    await sql`DELETE FROM club_holders`.execute(trx);
    const holders = await sql`
      INSERT INTO club_holders (club, address, name_count)
      SELECT m.club, m.owner_address, count(*)
      FROM (${members}) m
      WHERE m.owner_address IS NOT NULL AND m.expiry_date > ${graceStart}
      GROUP BY m.club, m.owner_address
    `.execute(trx);
    const clubs = await trx.selectFrom('club_stats').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { clubs: Number(clubs.n), holders: Number(holders.numAffectedRows ?? 0) };
  });
}
