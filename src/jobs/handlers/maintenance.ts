import { sql } from 'kysely';
import { defineJob } from '../registry.js';

/** Rows kept this long past expiry, for support questions ("my link said expired"). */
const KEEP_AFTER_EXPIRY = sql`interval '7 days'`;

/**
 * Hourly: deletes sign-in nonces, refresh tokens and verification tokens long past expiry, in
 * bounded batches so that one run never holds long locks.
 */
export const purgeExpiredJob = defineJob({
  name: 'maintenance.purge-expired',
  schedule: '17 * * * *',
  retryLimit: 2,
  async handle(_payload, { db, logger }) {
    const batch = 10_000;
    const deleted: Record<string, number> = {};
    for (const table of ['auth_nonces', 'refresh_tokens', 'email_verification_tokens'] as const) {
      let total = 0;
      for (;;) {
        const result = await sql`
          DELETE FROM ${sql.table(table)} WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM ${sql.table(table)} WHERE expires_at < now() - ${KEEP_AFTER_EXPIRY} LIMIT ${batch}
          ))`.execute(db);
        const n = Number(result.numAffectedRows ?? 0);
        total += n;
        if (n < batch) break;
      }
      deleted[table] = total;
    }
    logger.info({ deleted }, 'purged expired sign-in and verification rows');
  },
});
