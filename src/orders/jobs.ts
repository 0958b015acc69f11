import type { Deps } from '../deps.js';
import { expireDueOrders } from './endings.js';
import { recheckOrders } from './recheck.js';
import { defineJob } from '../jobs/registry.js';

const BATCH = 500;
/** Bounds one run; what is left waits a minute for the next run. */
const MAX_BATCHES = 100;

/**
 * Runs the expiry sweep in batches of 500, one short transaction each, until nothing is due.
 * Idempotent: only live orders past their end time move, so a repeated run finds nothing.
 */
export async function sweepExpiredOrders(deps: Pick<Deps, 'db'>): Promise<{ listings: number; offers: number }> {
  const total = { listings: 0, offers: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const done = await deps.db.transaction().execute((trx) => expireDueOrders(trx, BATCH));
    total.listings += done.listings;
    total.offers += done.offers;
    if (done.listings === 0 && done.offers === 0) break;
  }
  return total;
}

/** Every minute. Reads never show such orders as active in between (see the repositories). */
export const orderExpiryJob = defineJob({
  name: 'orders.expire',
  schedule: '* * * * *',
  retryLimit: 1,
  async handle(_payload, deps) {
    const result = await sweepExpiredOrders(deps);
    if (result.listings + result.offers > 0) deps.logger.info(result, 'orders expired');
  },
});

/** Every minute when ETH_RPC_URL is set (a no-op without it), and right after a new order. */
export const orderValidationJob = defineJob({
  name: 'orders.validate',
  schedule: '* * * * *',
  retryLimit: 2,
  async handle(payload, deps) {
    if (!deps.rpc) return;
    const result = await recheckOrders(deps, payload ?? {});
    if (result.unfunded + result.restored + result.failed > 0) deps.logger.info(result, 'orders re-checked');
  },
});

/** The order domain's jobs, for the registry. */
export const orderJobs = [orderExpiryJob, orderValidationJob] as const;
