import { defineJob } from '../registry.js';
import { refreshHolderLeaderboard } from '../../services/leaderboard.service.js';

/** Every 10 minutes, and on demand: the aggregate also drifts with time (names pass their grace period). */
export const leaderboardRefreshJob = defineJob({
  name: 'leaderboard.refresh',
  schedule: '*/10 * * * *',
  retryLimit: 2,
  async handle(_payload, deps) {
    const started = Date.now();
    const result = await refreshHolderLeaderboard(deps.db, { gracePeriodDays: deps.config.gracePeriodDays, wethAddress: deps.config.wethAddress });
    deps.logger.info({ ...result, ms: Date.now() - started }, 'holder leaderboard refreshed');
  },
});
