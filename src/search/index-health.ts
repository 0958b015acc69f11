import { sql } from 'kysely';
import type { Db } from '../db/client.js';

/**
 * Readiness probe of the search index: a trigram lookup that must be answered by the GIN index
 * on labels, over the generated search columns (so a database without migration 0005 is not
 * ready), under a short statement timeout.
 */
export async function pingSearchIndex(db: Db, timeoutMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = ${sql.lit(timeoutMs)}`.execute(trx);
    await sql`SELECT id FROM ens_names WHERE searchable AND label LIKE '%eth%' LIMIT 1`.execute(trx);
  });
}
