import { defineJob } from '../registry.js';
import { refreshAwardsLeaderboard } from '../../services/awards.service.js';

/** Every 5 minutes, the length of the awards leaderboard's cache. */
export const awardsRefreshJob = defineJob({
  name: 'awards.refresh',
  schedule: '*/5 * * * *',
  retryLimit: 2,
  async handle(_payload, deps) {
    const started = Date.now();
    const result = await refreshAwardsLeaderboard(deps.db, { referrerCode: deps.config.referrerCode });
    deps.logger.info({ ...result, ms: Date.now() - started }, 'awards leaderboard refreshed');
  },
});
