import { defineJob } from '../registry.js';
import { isSkipped, runEventSync, runNameSync, runPriceSync } from '../../sync/sync.service.js';

/**
 * Each run works for at most this long, then enqueues its own continuation: pg-boss expires
 * active jobs after 15 minutes, and a first full sync takes longer than that.
 */
const SLICE_MS = 4 * 60_000;

/**
 * The sync jobs are always registered and scheduled; without ENS_SUBGRAPH_URL (names) or
 * ETH_RPC_URL (events, prices) a run does nothing but a debug log line, so configuring the URL
 * and restarting is all it takes to start syncing.
 */
export const syncNamesJob = defineJob({
  name: 'sync.names',
  schedule: '*/10 * * * *',
  retryLimit: 3,
  async handle(_payload, deps) {
    const result = await runNameSync(deps, { budgetMs: SLICE_MS });
    if (isSkipped(result)) {
      deps.logger.debug({ reason: result.skipped }, 'name sync skipped');
      return;
    }
    if (!result.done) await deps.jobs.send('sync.names', {});
  },
});

export const syncEventsJob = defineJob({
  name: 'sync.events',
  schedule: '* * * * *',
  retryLimit: 3,
  async handle(_payload, deps) {
    const result = await runEventSync(deps, { budgetMs: SLICE_MS });
    if (isSkipped(result)) {
      deps.logger.debug({ reason: result.skipped }, 'event sync skipped');
      return;
    }
    if (!result.done) await deps.jobs.send('sync.events', {});
  },
});

export const syncPricesJob = defineJob({
  name: 'sync.prices',
  schedule: '7 * * * *',
  retryLimit: 3,
  async handle(_payload, deps) {
    const result = await runPriceSync(deps);
    if (isSkipped(result)) deps.logger.debug({ reason: result.skipped }, 'price sync skipped');
    else deps.logger.info(result, 'ETH/USD price updated');
  },
});
