import { sql, type Kysely } from 'kysely';

/**
 * The search index: generated columns derived from the label (kept current by PostgreSQL on
 * every write of the label or has_emoji) and the indexes behind each filter and sort of
 * global and related search. Market columns (listing_price_wei, highest_offer_wei, last_sale_*,
 * listing_created_at, net_score) are kept by the writers of listings, offers, sales and votes.
 *
 * Every search index is partial on `searchable`, which every search query repeats, so rows that
 * must never appear (subnames, unknown-labelhash placeholders, labels that are not lower-case or
 * hold whitespace) are neither indexed nor returned.
 *
 * Regular-expression escapes below are PostgreSQL ARE escapes (\uXXXX, \UXXXXXXXX), written with
 * doubled backslashes for the JavaScript template.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Length in user-perceived characters, close to Intl.Segmenter's grapheme count: a ZWJ joins
    -- the next code point into its cluster, a flag is two regional indicators, and combining
    -- marks, variation selectors, skin-tone modifiers, keycap marks and tag characters add nothing.
    CREATE FUNCTION search_label_length(label text) RETURNS integer
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
        SELECT char_length(regexp_replace(regexp_replace(regexp_replace(label,
          '\\u200d.', '', 'g'),
          '[\\U0001F1E6-\\U0001F1FF]{2}', 'F', 'g'),
          '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe00-\\ufe0f\\ufe20-\\ufe2f\\U0001F3FB-\\U0001F3FF\\U000E0020-\\U000E007F]', '', 'g'))
      $f$;

    -- True when nothing but emoji is left of the label: keycaps, pictographs and their joiners.
    CREATE FUNCTION search_label_is_emoji_only(label text) RETURNS boolean
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
        SELECT label <> '' AND regexp_replace(regexp_replace(label,
          '[0-9#*]\\ufe0f?\\u20e3', '', 'g'),
          '[\\U0001F000-\\U0001FAFF\\u2190-\\u21ff\\u2300-\\u23ff\\u2460-\\u24ff\\u25a0-\\u27bf\\u2900-\\u297f\\u2b00-\\u2bff\\u3030\\u303d\\u3297\\u3299\\u00a9\\u00ae\\u203c\\u2049\\u2122\\u2139\\u200d\\ufe0f\\u20e3\\U000E0020-\\U000E007F]', '', 'g') = ''
      $f$;

    ALTER TABLE ens_names
      ADD COLUMN searchable boolean GENERATED ALWAYS AS (
        label <> '' AND name = label || '.eth' AND strpos(label, '.') = 0
        AND label !~ '^\\[[0-9a-f]{64}\\]$' AND label = lower(label) AND label !~ '\\s'
      ) STORED,
      ADD COLUMN label_length integer GENERATED ALWAYS AS (search_label_length(label)) STORED,
      ADD COLUMN char_class text GENERATED ALWAYS AS (
        CASE
          WHEN label ~ '^[0-9]+$' THEN 'digits'
          WHEN label ~ '^[a-z]+$' THEN 'letters'
          WHEN has_emoji AND search_label_is_emoji_only(label) THEN 'emoji'
          ELSE 'mixed'
        END
      ) STORED,
      ADD COLUMN has_numbers boolean GENERATED ALWAYS AS (label ~ '[0-9]') STORED,
      ADD COLUMN has_letters boolean GENERATED ALWAYS AS (label ~ '[a-z]') STORED,
      -- 'all': one character repeated (000, aaaa); 'some': a character repeated in a row (apple); 'none'.
      ADD COLUMN repeating text GENERATED ALWAYS AS (
        CASE WHEN label ~ '^(.)\\1+$' THEN 'all' WHEN label ~ '(.)\\1' THEN 'some' ELSE 'none' END
      ) STORED;

    -- Sorts: (key, id) in both directions by forward or backward scans. Keys that are often null
    -- get partial indexes; the search module reads their null rows in a second, id-ordered step.
    CREATE INDEX ens_names_s_expiry_idx ON ens_names (expiry_date, id) WHERE searchable;
    CREATE INDEX ens_names_s_registration_idx ON ens_names (registration_date, id) WHERE searchable AND registration_date IS NOT NULL;
    CREATE INDEX ens_names_s_alpha_idx ON ens_names ((label COLLATE "C"), id) WHERE searchable;
    -- Length, then alphabetical: the character_count sort and the relevance order of short texts.
    CREATE INDEX ens_names_s_length_idx ON ens_names (label_length, (label COLLATE "C"), id) WHERE searchable;
    CREATE INDEX ens_names_s_votes_idx ON ens_names (net_score, id) WHERE searchable;
    CREATE INDEX ens_names_s_price_idx ON ens_names (listing_price_wei, id) WHERE searchable AND listing_price_wei IS NOT NULL;
    CREATE INDEX ens_names_s_offer_idx ON ens_names (highest_offer_wei, id) WHERE searchable AND highest_offer_wei IS NOT NULL;
    CREATE INDEX ens_names_s_sale_price_idx ON ens_names (last_sale_price_wei, id) WHERE searchable AND last_sale_price_wei IS NOT NULL;
    CREATE INDEX ens_names_s_sale_date_idx ON ens_names (last_sale_date, id) WHERE searchable AND last_sale_date IS NOT NULL;
    CREATE INDEX ens_names_s_listed_idx ON ens_names (listing_created_at, id) WHERE searchable AND listing_created_at IS NOT NULL;
    -- Filters: "digits/letters/emoji only" with a length (3-letter, 4-digit names...), and endsWith.
    CREATE INDEX ens_names_s_class_idx ON ens_names (char_class, label_length) WHERE searchable;
    CREATE INDEX ens_names_s_suffix_idx ON ens_names (reverse(label) text_pattern_ops) WHERE searchable;
    -- "repeatingChars only" (000, aaaa) is rare: a small partial index finds them without a scan.
    CREATE INDEX ens_names_s_repeating_idx ON ens_names (id) WHERE searchable AND repeating = 'all';
    -- Class and length are far from independent (3-letter, 4-digit names): joint statistics keep
    -- the planner from expecting a table scan to find them quickly.
    CREATE STATISTICS ens_names_s_class_stats (dependencies, mcv) ON char_class, label_length FROM ens_names;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP STATISTICS IF EXISTS ens_names_s_class_stats;
    DROP INDEX IF EXISTS ens_names_s_repeating_idx, ens_names_s_expiry_idx, ens_names_s_registration_idx, ens_names_s_alpha_idx,
      ens_names_s_length_idx, ens_names_s_votes_idx, ens_names_s_price_idx, ens_names_s_offer_idx,
      ens_names_s_sale_price_idx, ens_names_s_sale_date_idx, ens_names_s_listed_idx, ens_names_s_class_idx,
      ens_names_s_suffix_idx;
    ALTER TABLE ens_names DROP COLUMN IF EXISTS repeating, DROP COLUMN IF EXISTS has_letters,
      DROP COLUMN IF EXISTS has_numbers, DROP COLUMN IF EXISTS char_class, DROP COLUMN IF EXISTS label_length,
      DROP COLUMN IF EXISTS searchable;
    DROP FUNCTION IF EXISTS search_label_is_emoji_only(text);
    DROP FUNCTION IF EXISTS search_label_length(text);
  `.execute(db);
}
