import type { Db } from '../db/client.js';
import { DEFAULT_REFERRER } from '../config.js';
import { refreshAwardsLeaderboard } from '../services/awards.service.js';
import { refreshClubs } from '../services/clubs.service.js';
import { refreshAllMarketSummaries } from '../orders/index.js';
import { refreshClubStats, refreshRollups, refreshSnapshots } from '../analytics/index.js';
import { MAINNET } from '../config.js';
import { DEFAULT_HOLDER_PARAMS, refreshHolderLeaderboard } from '../services/leaderboard.service.js';
import { rebuildTrends } from '../trends/index.js';
import { rebuildViewerCounts } from '../history/index.js';

/**
 * Set-based refreshes of derived data (aggregates, memberships, summaries) that the seed and the
 * bulk loaders run after writing base rows. Each feature adds its refresh here, one line each, in
 * the lane after what it reads: the two lanes run side by side on connections of their own (a
 * refresh is one PostgreSQL backend, and the machine has more than one core).
 */
export const derivedRefreshes: ReadonlyArray<ReadonlyArray<{ name: string; run(db: Db): Promise<void> }>> = [
  [
    { name: 'club member counts', run: refreshClubs },
    { name: 'market rollups', run: async (db) => void (await refreshRollups(db, { wethAddress: MAINNET.weth }, { full: true })) },
    // the rollups' club sets and the clubs' members
    { name: 'club stats', run: async (db) => void (await refreshClubStats(db, { gracePeriodDays: 90, premiumPeriodDays: 21 })) },
    // default grace period, WETH and referrer code; the scheduled jobs refresh with the configured ones
    { name: 'holder leaderboard', run: async (db) => void (await refreshHolderLeaderboard(db, DEFAULT_HOLDER_PARAMS)) },
  ],
  [
    { name: 'highest offers and listing summaries', run: refreshAllMarketSummaries },
    { name: 'trend counters', run: (db) => rebuildTrends(db) },
    { name: 'distinct viewers', run: rebuildViewerCounts },
    { name: 'analytics snapshots', run: async (db) => void (await refreshSnapshots(db, { force: true })) },
    { name: 'awards leaderboard', run: async (db) => void (await refreshAwardsLeaderboard(db, { referrerCode: DEFAULT_REFERRER })) },
  ],
];

/**
 * Runs every lane (each in order); `onStep` hears each refresh's name as it finishes. `before`
 * runs work of the caller's just before the refresh of that name, in its lane (base rows the
 * refresh reads, such as the seed's view counters).
 */
export async function refreshDerived(db: Db, onStep?: (name: string) => void, before: Readonly<Record<string, (db: Db) => Promise<void>>> = {}): Promise<void> {
  const results = await Promise.allSettled(derivedRefreshes.map(async (lane) => {
    for (const r of lane) {
      await before[r.name]?.(db);
      await r.run(db);
      onStep?.(r.name);
    }
  }));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
