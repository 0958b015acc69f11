import { rollTrendWindows } from '../../trends/index.js';
import { defineJob } from '../registry.js';

/**
 * Hourly, just after the hour: moves the trend periods forward and deletes buckets older than
 * every period. Trending reads roll too when they see a new hour; this keeps the tables small
 * when nobody reads.
 */
export const trendsRollJob = defineJob({
  name: 'trends.roll',
  schedule: '1 * * * *',
  retryLimit: 2,
  async handle(_payload, { db, logger }) {
    if (await rollTrendWindows(db)) logger.info('trend windows rolled');
  },
});
