import type { AnyJobDefinition } from './registry.js';
import { purgeExpiredJob } from './handlers/maintenance.js';
import { verifyEmailJob } from './handlers/mail-verify-email.js';
import { leaderboardRefreshJob } from './handlers/leaderboard-refresh.job.js';
import { clubsRefreshJob } from './handlers/clubs-refresh.job.js';
import { awardsRefreshJob } from './handlers/leaderboard-awards.job.js';
import { orderJobs } from '../orders/index.js';
import { syncEventsJob, syncNamesJob, syncPricesJob } from './handlers/sync.job.js';
import { searchPurgeJob } from './handlers/search-purge.job.js';
import { trendsRollJob } from './handlers/trends-roll.job.js';
import { clubStatsJob, rollupsFullJob, rollupsJob, snapshotsJob } from '../analytics/index.js';
import { nameTransitionsJob } from '../history/index.js';
import { expiryAlertsJob, expiryMailJob } from '../lifecycle/index.js';

/** Every job of the service, one line each. Start-up creates a queue and a worker per entry. */
export const jobDefinitions: readonly AnyJobDefinition[] = [
  purgeExpiredJob,
  verifyEmailJob,
  leaderboardRefreshJob,
  clubsRefreshJob,
  awardsRefreshJob,
  ...orderJobs,
  syncNamesJob,
  syncEventsJob,
  syncPricesJob,
  searchPurgeJob,
  trendsRollJob,
  rollupsJob,
  rollupsFullJob,
  snapshotsJob,
  clubStatsJob,
  nameTransitionsJob,
  expiryAlertsJob,
  expiryMailJob,
];
