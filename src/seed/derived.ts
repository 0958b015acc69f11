import type { Db } from '../db/client.js';
import { DEFAULT_REFERRER } from '../config.js';
import { refreshAwardsLeaderboard } from '../services/awards.service.js';
import { refreshClubs } from '../services/clubs.service.js';
import { refreshAllMarketSummaries } from '../orders/index.js';
import { refreshClubStats, refreshRollups, refreshSnapshots } from '../analytics/index.js';
import { MAINNET } from '../config.js';
import { DEFAULT_HOLDER_PARAMS, refreshHolderLeaderboard } from '../services/leaderboard.service.js';
import { rebuildTrends } from '../trends/index.js';

/**
 * Set-based refreshes of derived data (aggregates, memberships, summaries) that the seed and the
 * bulk loaders run after writing base rows. Each feature adds its refresh here, one line each.
 */
export const derivedRefreshes: ReadonlyArray<{ name: string; run(db: Db): Promise<void> }> = [
  { name: 'club member counts', run: refreshClubs },
  { name: 'highest offers and listing summaries', run: refreshAllMarketSummaries },
  // default grace period, WETH and referrer code; the scheduled jobs refresh with the configured ones
  { name: 'holder leaderboard', run: async (db) => void (await refreshHolderLeaderboard(db, DEFAULT_HOLDER_PARAMS)) },
  { name: 'trend counters', run: (db) => rebuildTrends(db) },
  { name: 'market rollups', run: async (db) => void (await refreshRollups(db, { wethAddress: MAINNET.weth }, { full: true })) },
  { name: 'analytics snapshots', run: async (db) => void (await refreshSnapshots(db, { force: true })) },
  { name: 'club stats', run: async (db) => void (await refreshClubStats(db, { gracePeriodDays: 90, premiumPeriodDays: 21 })) },
  { name: 'awards leaderboard', run: async (db) => void (await refreshAwardsLeaderboard(db, { referrerCode: DEFAULT_REFERRER })) },
];

/** Runs every refresh in order; `onStep` hears each one's name as it finishes. */
export async function refreshDerived(db: Db, onStep?: (name: string) => void): Promise<void> {
  for (const r of derivedRefreshes) {
    await r.run(db);
    onStep?.(r.name);
  }
}
