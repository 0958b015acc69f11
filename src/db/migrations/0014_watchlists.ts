import { sql, type Kysely } from 'kysely';

/**
 * Watchlists (src/watchlists): each user's named lists (one default, made on first use) and the
 * names on them with their notification flags. `ens_names.watchers_count` is the number of
 * distinct users watching a name, kept by every watchlist write in its transaction (search sorts
 * and filters on it through ens_names_s_watchers_idx). Adding a column with a constant default
 * rewrites nothing, so this applies at a million names in a few seconds (the index build).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE watchlists (
      id bigserial PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      is_default boolean NOT NULL DEFAULT false,
      item_count integer NOT NULL DEFAULT 0 CHECK (item_count >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX watchlists_user_name_idx ON watchlists (user_id, lower(name));
    CREATE UNIQUE INDEX watchlists_user_default_idx ON watchlists (user_id) WHERE is_default;

    CREATE TABLE watchlist_items (
      id bigserial PRIMARY KEY,
      list_id bigint NOT NULL REFERENCES watchlists(id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      notify_on_sale boolean NOT NULL DEFAULT true,
      notify_on_offer boolean NOT NULL DEFAULT true,
      notify_on_listing boolean NOT NULL DEFAULT true,
      notify_on_price_change boolean NOT NULL DEFAULT false,
      -- in ETH as the web app sends it (like users.min_offer_threshold); NULL: every offer
      min_offer_threshold numeric(40,18) CHECK (min_offer_threshold >= 0),
      -- "premium price now below X" expiry alerts: wei of ETH; NULL: no alert
      premium_alert_below_wei wei,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (list_id, ens_name_id)
    );
    -- a list's page, newest first
    CREATE INDEX watchlist_items_list_idx ON watchlist_items (list_id, created_at DESC, id DESC);
    -- the caller's entries for a name (check, is_user_watching) and their history, newest first
    CREATE INDEX watchlist_items_user_name_idx ON watchlist_items (user_id, ens_name_id);
    CREATE INDEX watchlist_items_user_created_idx ON watchlist_items (user_id, created_at DESC, id DESC);
    -- a name's watchers (notifications of a move, expiry alerts)
    CREATE INDEX watchlist_items_name_idx ON watchlist_items (ens_name_id, user_id);

    ALTER TABLE ens_names ADD COLUMN watchers_count integer NOT NULL DEFAULT 0 CHECK (watchers_count >= 0);
    CREATE INDEX ens_names_s_watchers_idx ON ens_names (watchers_count, id) WHERE searchable;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS ens_names_s_watchers_idx;
    ALTER TABLE ens_names DROP COLUMN IF EXISTS watchers_count;
    DROP TABLE IF EXISTS watchlist_items;
    DROP TABLE IF EXISTS watchlists;
  `.execute(db);
}
