import { defineJob } from '../jobs/registry.js';
import { logNameTransitions } from './transitions.js';

/** Every 5 minutes: names that entered grace or were released since the last run (transitions.ts). */
export const nameTransitionsJob = defineJob({
  name: 'history.name-transitions',
  schedule: '*/5 * * * *',
  retryLimit: 2,
  async handle(_payload, deps) {
    const started = Date.now();
    const result = await logNameTransitions(deps.db, { gracePeriodDays: deps.config.gracePeriodDays, premiumPeriodDays: deps.config.premiumPeriodDays });
    deps.logger.debug({ ...result, ms: Date.now() - started }, 'name transitions logged');
  },
});
