import { sql } from 'kysely';
import type { Executor } from '../db/client.js';

const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Labels of searchable names that contain one of `words` (compounds such as `oceanview` for
 * `ocean`), shortest first, at most `limit`: the pg_trgm index answers each LIKE, and the limit
 * keeps the candidate set of a semantic search bounded whatever the word.
 */
export async function labelsContaining(db: Executor, words: readonly string[], limit: number): Promise<string[]> {
  const usable = words.filter((w) => [...w].length >= 3);
  if (usable.length === 0) return [];
  const patterns = usable.map((w) => `%${like(w)}%`);
  const r = await sql<{ label: string }>`
    SELECT label FROM ens_names WHERE searchable AND label LIKE ANY(${patterns}::text[])
    ORDER BY label_length, (label COLLATE "C") LIMIT ${limit}`.execute(db);
  return r.rows.map((row) => row.label);
}
