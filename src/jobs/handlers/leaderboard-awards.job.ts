import { defineJob } from '../registry.js';
import { refreshAwardsLeaderboard } from '../../services/awards.service.js';

declare module '../queue.js' {
  interface JobPayloads {
    /** Rebuilds the awards leaderboard aggregate. The chain sync may send it after new registrations. */
    'awards.refresh': Record<string, never>;
  }
}

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
