import type pg from 'pg';

/**
 * Readiness probe of the search index: a trigram lookup that must be answered by the GIN index
 * on labels, over the generated search columns (so a database without migration 0005 is not
 * ready), under a short statement timeout. One round trip: the two statements go as one simple
 * query, which PostgreSQL runs as one implicit transaction, so SET LOCAL holds for the lookup alone.
 * The trigram is a rare one: the index hands over every match before LIMIT applies, and `eth`'s
 * 2,311 matches at a million names cost 0.8 ms a probe against 0.02 ms.
 */
export async function pingSearchIndex(pool: pg.Pool, timeoutMs: number): Promise<void> {
  await pool.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(timeoutMs))}; SELECT id FROM ens_names WHERE searchable AND label LIKE '%xqj%' LIMIT 1`);
}
