import { defineJob } from '../jobs/registry.js';
import { refreshClubStats } from './club-stats.js';
import { refreshRollups } from './rollups.js';
import { refreshSnapshots } from './snapshots.js';

/** Every minute: a refresh touches only the hours written since the last one. */
export const rollupsJob = defineJob({
  name: 'analytics.rollups',
  schedule: '* * * * *',
  retryLimit: 2,
  async handle(payload, deps) {
    const started = Date.now();
    const result = await refreshRollups(deps.db, { wethAddress: deps.config.wethAddress }, { full: payload.full === true });
    deps.logger.debug({ ...result, ms: Date.now() - started }, 'market rollups refreshed');
  },
});

/** Nightly full rebuild: corrects whatever the dirty marks could not see (a rule change in currencies, say). */
export const rollupsFullJob = defineJob({
  name: 'analytics.rollups.full',
  schedule: '41 3 * * *',
  retryLimit: 2,
  async handle(_payload, deps) {
    const started = Date.now();
    const result = await refreshRollups(deps.db, { wethAddress: deps.config.wethAddress }, { full: true });
    deps.logger.info({ ...result, ms: Date.now() - started }, 'market rollups rebuilt');
  },
});

export const snapshotsJob = defineJob({
  name: 'analytics.snapshots',
  schedule: '*/5 * * * *',
  retryLimit: 2,
  async handle(payload, deps) {
    const started = Date.now();
    const periods = await refreshSnapshots(deps.db, { force: payload.force === true });
    deps.logger.debug({ periods, ms: Date.now() - started }, 'analytics snapshots refreshed');
  },
});

/** Every 10 minutes: statuses drift with time (names pass expiry), listings and sales change. */
export const clubStatsJob = defineJob({
  name: 'clubs.stats',
  schedule: '*/10 * * * *',
  retryLimit: 2,
  async handle(_payload, deps) {
    const started = Date.now();
    const result = await refreshClubStats(deps.db, { gracePeriodDays: deps.config.gracePeriodDays, premiumPeriodDays: deps.config.premiumPeriodDays });
    deps.logger.info({ ...result, ms: Date.now() - started }, 'club stats refreshed');
  },
});
