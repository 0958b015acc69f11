import type { Db } from '../db/client.js';

/**
 * Set-based refreshes of derived data (aggregates, memberships, summaries) that the seed and the
 * bulk loaders run after writing base rows. Each feature adds its refresh here, one line each.
 */
export const derivedRefreshes: ReadonlyArray<{ name: string; run(db: Db): Promise<void> }> = [];

export async function refreshDerived(db: Db): Promise<void> {
  for (const r of derivedRefreshes) await r.run(db);
}
