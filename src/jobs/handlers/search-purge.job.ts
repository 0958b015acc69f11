import { sql } from 'kysely';
import { defineJob } from '../registry.js';

/**
 * Daily: deletes cached suggestions (ai_suggestions) and keyword metrics past their expiry, in
 * bounded batches. Reads already ignore expired rows; this only keeps the tables small.
 */
export const searchPurgeJob = defineJob({
  name: 'search.purge-expired',
  schedule: '43 3 * * *',
  retryLimit: 2,
  async handle(_payload, { db, logger }) {
    const batch = 10_000;
    const deleted: Record<string, number> = {};
    for (const table of ['ai_suggestions', 'keyword_metrics'] as const) {
      let total = 0;
      for (;;) {
        const result = await sql`
          DELETE FROM ${sql.table(table)} WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM ${sql.table(table)} WHERE expires_at < now() LIMIT ${batch}
          ))`.execute(db);
        const n = Number(result.numAffectedRows ?? 0);
        total += n;
        if (n < batch) break;
      }
      deleted[table] = total;
    }
    logger.info({ deleted }, 'purged expired suggestions and keyword metrics');
  },
});
