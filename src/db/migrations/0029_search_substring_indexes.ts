import { sql, type Kysely } from 'kysely';

/**
 * Search filters on parts of a label that no index answered well, at a million names:
 *
 * - `filters[endsWith]` (`reverse(label) LIKE 'qq%'`): the planner uses no statistics of a partial
 *   index's expression, so it took any suffix for 5,000 names: `endsWith=qq` (26 names) walked the
 *   40,000 listed names newest first, reading each one's row for its label (600-880 ms a page),
 *   instead of taking the 26 from the suffix index (0.2 ms). Statistics on the expression itself
 *   (PostgreSQL 14) give the estimate; the suffix index is now C-collated (byte order) like the label
 *   index: a LIKE prefix becomes a range of it, in the order the statistics' histogram is in.
 * - `filters[contains]` of two characters: the trigram index has nothing to look up for them, so a
 *   rare pair (`zq`, 54 names) walked every name, 1.6-4 s a page. `label_bigrams(label)` lists a
 *   label's pairs of consecutive characters and a GIN index of them names the labels holding a pair;
 *   statistics on it tell a rare pair (read from the index) from a common one (`an`: walking the
 *   sort's index finds 20 at once). Building it takes 14 s at a million names (the function is
 *   PL/pgSQL: a SQL function is not inlined into an index build, and took 50 s).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX IF EXISTS ens_names_s_suffix_idx;
    CREATE INDEX ens_names_s_suffix_idx ON ens_names ((reverse(label) COLLATE "C")) WHERE searchable;
    CREATE STATISTICS IF NOT EXISTS ens_names_label_suffix_stats ON (reverse(label)) FROM ens_names;

    -- pairs by character (code point), as substr counts them; a label's repeated pairs are one key in the index
    CREATE FUNCTION label_bigrams(label text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
    DECLARE
      pairs text[] := '{}';
    BEGIN
      FOR i IN 1 .. char_length(label) - 1 LOOP
        pairs := pairs || substr(label, i, 2);
      END LOOP;
      RETURN pairs;
    END $$;
    CREATE INDEX ens_names_s_bigram_idx ON ens_names USING gin (label_bigrams(label)) WHERE searchable;
    CREATE STATISTICS IF NOT EXISTS ens_names_label_bigram_stats ON (label_bigrams(label)) FROM ens_names;

    ANALYZE ens_names;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP STATISTICS IF EXISTS ens_names_label_bigram_stats;
    DROP INDEX IF EXISTS ens_names_s_bigram_idx;
    DROP FUNCTION IF EXISTS label_bigrams(text);
    DROP STATISTICS IF EXISTS ens_names_label_suffix_stats;
    DROP INDEX IF EXISTS ens_names_s_suffix_idx;
    CREATE INDEX ens_names_s_suffix_idx ON ens_names (reverse(label) text_pattern_ops) WHERE searchable;
  `.execute(db);
}
