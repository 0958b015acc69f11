import { defineJob } from '../registry.js';
import { refreshHolderLeaderboard } from '../../services/leaderboard.service.js';

declare module '../queue.js' {
  interface JobPayloads {
    /** Rebuilds the holder leaderboard aggregate. Writers of names, listings or sales may send it after a batch. */
    'leaderboard.refresh': Record<string, never>;
  }
}

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
