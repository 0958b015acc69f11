import { defineJob } from '../jobs/registry.js';
import { EXPIRY_MAIL_RETRY_LIMIT, runExpiryAlerts } from './alerts.js';
import { sendExpiryMail } from './mail.js';

/** Daily: expiry alerts for the lines crossed since the last run (alerts.ts). */
export const expiryAlertsJob = defineJob({
  name: 'lifecycle.expiry-alerts',
  schedule: '10 0 * * *',
  retryLimit: 3,
  async handle(_payload, deps) {
    const started = Date.now();
    const counts = await runExpiryAlerts(deps);
    deps.logger.info({ ...counts, ms: Date.now() - started }, 'expiry alerts written');
  },
});

/** The e-mail of one expiry alert; a re-run after it went sends nothing (mail.ts). */
export const expiryMailJob = defineJob({
  name: 'mail.expiry-alert',
  retryLimit: EXPIRY_MAIL_RETRY_LIMIT,
  retryBackoff: true,
  batchSize: 10,
  async handle(payload, deps) {
    await sendExpiryMail(deps, payload);
  },
});
