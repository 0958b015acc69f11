import { sql, type Kysely } from 'kysely';

/**
 * Name page views and watchlist additions in the market rollups (0010), so /analytics/market and
 * /analytics/clubs/:club read their views and watchlist figures from `market_rollups` like sales.
 *
 * - `name_views_daily.seen_at`: when a viewer's first view of the day was counted, so views have
 *   an hour (the 24h and 7d periods are hourly). Views stored before (NULL) count at the start of
 *   their day; `view_time` is that rule, and `name_views_daily_seen_idx` an index on it for the
 *   refresh of one hour.
 * - kinds `view` (one per name, viewer and day) and `watch` (one per watchlist entry still held, in
 *   the hour it was added: a removal takes it back, as the `watchlist` trend counter does).
 * - `market_rollup_mark` takes an expression for the time (it took a column name): the same
 *   triggers mark the hours of views and entries written or deleted, and a name changing clubs
 *   marks the hours of its views and entries too.
 * - The hours of the rows already stored are marked, so the next refresh counts them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE name_views_daily ADD COLUMN seen_at timestamptz;
    CREATE FUNCTION view_time(seen_at timestamptz, day date) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT coalesce(seen_at, day::timestamp AT TIME ZONE 'UTC') $$;
    CREATE INDEX name_views_daily_seen_idx ON name_views_daily (view_time(seen_at, day));
    CREATE INDEX watchlist_items_created_idx ON watchlist_items (created_at);

    ALTER TABLE market_rollups DROP CONSTRAINT market_rollups_kind_check;
    ALTER TABLE market_rollups ADD CONSTRAINT market_rollups_kind_check
      CHECK (kind IN ('sale', 'listing', 'offer', 'registration', 'vote', 'view', 'watch'));

    CREATE OR REPLACE FUNCTION market_rollup_mark() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      kind text := TG_ARGV[0];
      time_expression text := TG_ARGV[1];
      extra text := coalesce(TG_ARGV[2], 'true');
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        EXECUTE format('INSERT INTO market_rollup_dirty (kind, hour) SELECT DISTINCT %L, date_trunc(''hour'', %s, ''UTC'') FROM new_rows WHERE %s ON CONFLICT DO NOTHING', kind, time_expression, extra);
      END IF;
      IF TG_OP IN ('DELETE', 'UPDATE') THEN
        EXECUTE format('INSERT INTO market_rollup_dirty (kind, hour) SELECT DISTINCT %L, date_trunc(''hour'', %s, ''UTC'') FROM old_rows WHERE %s ON CONFLICT DO NOTHING', kind, time_expression, extra);
      END IF;
      RETURN NULL;
    END $$;

    CREATE TRIGGER name_views_daily_rollup_ins AFTER INSERT ON name_views_daily REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('view', 'view_time(seen_at, day)');
    CREATE TRIGGER name_views_daily_rollup_del AFTER DELETE ON name_views_daily REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('view', 'view_time(seen_at, day)');
    CREATE TRIGGER name_views_daily_rollup_trunc AFTER TRUNCATE ON name_views_daily FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_truncated('view');

    CREATE TRIGGER watchlist_items_rollup_ins AFTER INSERT ON watchlist_items REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('watch', 'created_at');
    CREATE TRIGGER watchlist_items_rollup_del AFTER DELETE ON watchlist_items REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('watch', 'created_at');
    CREATE TRIGGER watchlist_items_rollup_trunc AFTER TRUNCATE ON watchlist_items FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_truncated('watch');

    CREATE OR REPLACE FUNCTION market_rollup_name_clubs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO market_rollup_dirty (kind, hour)
        SELECT 'sale', date_trunc('hour', sold_at, 'UTC') FROM sales WHERE ens_name_id = NEW.id
        UNION SELECT 'registration', date_trunc('hour', block_time, 'UTC') FROM registrations WHERE ens_name_id = NEW.id AND kind = 'registration'
        UNION SELECT 'listing', date_trunc('hour', created_at, 'UTC') FROM listings WHERE ens_name_id = NEW.id
        UNION SELECT 'offer', date_trunc('hour', created_at, 'UTC') FROM offers WHERE ens_name_id = NEW.id
        UNION SELECT 'vote', date_trunc('hour', cast_at, 'UTC') FROM vote_events WHERE ens_name_id = NEW.id
        UNION SELECT 'view', date_trunc('hour', view_time(seen_at, day), 'UTC') FROM name_views_daily WHERE ens_name_id = NEW.id
        UNION SELECT 'watch', date_trunc('hour', created_at, 'UTC') FROM watchlist_items WHERE ens_name_id = NEW.id
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;

    INSERT INTO market_rollup_dirty (kind, hour)
      SELECT DISTINCT 'view', date_trunc('hour', view_time(seen_at, day), 'UTC') FROM name_views_daily
      UNION SELECT DISTINCT 'watch', date_trunc('hour', created_at, 'UTC') FROM watchlist_items
    ON CONFLICT DO NOTHING;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS name_views_daily_rollup_ins ON name_views_daily;
    DROP TRIGGER IF EXISTS name_views_daily_rollup_del ON name_views_daily;
    DROP TRIGGER IF EXISTS name_views_daily_rollup_trunc ON name_views_daily;
    DROP TRIGGER IF EXISTS watchlist_items_rollup_ins ON watchlist_items;
    DROP TRIGGER IF EXISTS watchlist_items_rollup_del ON watchlist_items;
    DROP TRIGGER IF EXISTS watchlist_items_rollup_trunc ON watchlist_items;
    DELETE FROM market_rollups WHERE kind IN ('view', 'watch');
    DELETE FROM market_rollup_dirty WHERE kind IN ('view', 'watch');
    ALTER TABLE market_rollups DROP CONSTRAINT market_rollups_kind_check;
    ALTER TABLE market_rollups ADD CONSTRAINT market_rollups_kind_check CHECK (kind IN ('sale', 'listing', 'offer', 'registration', 'vote'));
    CREATE OR REPLACE FUNCTION market_rollup_name_clubs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO market_rollup_dirty (kind, hour)
        SELECT 'sale', date_trunc('hour', sold_at, 'UTC') FROM sales WHERE ens_name_id = NEW.id
        UNION SELECT 'registration', date_trunc('hour', block_time, 'UTC') FROM registrations WHERE ens_name_id = NEW.id AND kind = 'registration'
        UNION SELECT 'listing', date_trunc('hour', created_at, 'UTC') FROM listings WHERE ens_name_id = NEW.id
        UNION SELECT 'offer', date_trunc('hour', created_at, 'UTC') FROM offers WHERE ens_name_id = NEW.id
        UNION SELECT 'vote', date_trunc('hour', cast_at, 'UTC') FROM vote_events WHERE ens_name_id = NEW.id
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    DROP INDEX IF EXISTS watchlist_items_created_idx, name_views_daily_seen_idx;
    DROP FUNCTION IF EXISTS view_time(timestamptz, date);
    ALTER TABLE name_views_daily DROP COLUMN IF EXISTS seen_at;
  `.execute(db);
}
