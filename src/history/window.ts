import { sql, type RawBuilder } from 'kysely';
import { AppError } from '../errors.js';
import type { Executor } from '../db/client.js';

/**
 * Deepest row a history page may reach, and where counts stop: a page never counts a whole
 * table (millions of events), and `total` is exact up to here (the search window's rule).
 */
export const HISTORY_WINDOW = 10_000;

/** 400 on query.page when the page reaches past the window. */
export function checkWindow(page: number, limit: number): number {
  const offset = (page - 1) * limit;
  if (offset + limit > HISTORY_WINDOW) {
    throw new AppError('VALIDATION_ERROR', `query.page reaches past the first ${HISTORY_WINDOW} rows; narrow the filters instead`, { field: 'query.page' });
  }
  return offset;
}

/** Counts rows of `source` matching `where`, stopping after the window. */
export async function cappedCount(db: Executor, source: RawBuilder<unknown>, where: RawBuilder<unknown>): Promise<{ total: number; capped: boolean }> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${source} WHERE ${where} LIMIT ${HISTORY_WINDOW + 1}) m`.execute(db);
  const n = r.rows[0]?.n ?? 0;
  return n > HISTORY_WINDOW ? { total: HISTORY_WINDOW, capped: true } : { total: n, capped: false };
}
