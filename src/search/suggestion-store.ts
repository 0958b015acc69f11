import { sql } from 'kysely';
import type { Executor } from '../db/client.js';

/** What a cached generation answers: related search texts, or recommendations for a label. */
export type SuggestionKind = 'related' | 'recommendations' | 'semantic';

/**
 * The database tier of the suggestion cache (ai_suggestions): a generation is kept for days so
 * that anyone may read it, while generating needs a signed-in caller.
 */
export async function readSuggestions(db: Executor, kind: SuggestionKind, key: string): Promise<string[] | undefined> {
  const row = await db
    .selectFrom('ai_suggestions')
    .select('suggestions')
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.suggestions;
}

export async function writeSuggestions(db: Executor, kind: SuggestionKind, key: string, suggestions: readonly string[], ttlSeconds: number): Promise<void> {
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  await db
    .insertInto('ai_suggestions')
    .values({ kind, key, suggestions: [...suggestions], expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['kind', 'key']).doUpdateSet({ suggestions: [...suggestions], expires_at: expiresAt, created_at: sql<Date>`now()` }))
    .execute();
}
