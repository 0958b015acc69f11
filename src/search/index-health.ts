import type pg from 'pg';

/**
 * Readiness probe of the search index: a trigram lookup that must be answered by the GIN index
 * on labels, over the generated search columns (so a database without migration 0005 is not
 * ready), under a short statement timeout. One round trip: the two statements go as one simple
 * query, which PostgreSQL runs as one implicit transaction, so SET LOCAL holds for the lookup alone.
 */
export async function pingSearchIndex(pool: pg.Pool, timeoutMs: number): Promise<void> {
  await pool.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(timeoutMs))}; SELECT id FROM ens_names WHERE searchable AND label LIKE '%eth%' LIMIT 1`);
}
