import { sql, type Kysely } from 'kysely';

/**
 * Market history aggregates: what clubs, analytics and charts read instead of the raw rows.
 *
 * - `market_rollups`: hourly and daily sums of sales, listings created, offers made, registrations
 *   and vote casts, per source, per club set of the name (the name's whole `clubs` array, so a filter
 *   by several clubs sums each name once), per price band (ETH/WETH sales) and per label length
 *   (registrations). Kept by the `analytics.rollups` job (src/analytics/rollups.ts).
 * - `market_rollup_dirty`: the hours a refresh must recompute. Statement triggers on the raw tables
 *   mark them in the writer's own transaction (so a late chain-sync insert into an old hour is not
 *   missed), and a name whose clubs change marks the hours of its rows; a TRUNCATE empties the
 *   kind's rollups. Listings and offers mark on insert and delete only: what they count (creations,
 *   by source) never changes on update.
 * - `analytics_snapshots`: per-period figures that do not add up across buckets (distinct buyers,
 *   medians), recomputed by the job.
 * - `club_stats` and `club_holders`: per-club aggregates (status counts, floor, holders, sales and
 *   registration windows) and holders per club (`*` = any club), rebuilt by the `clubs.stats` job.
 * - `registrations.premium_wei`: the premium part of a registration's cost (the chain sync fills it
 *   from NameRegistered's premium; the base cost is cost_wei − premium_wei).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE registrations ADD COLUMN premium_wei wei NOT NULL DEFAULT 0;
    ALTER TABLE clubs ADD COLUMN classifications text[] NOT NULL DEFAULT '{}';

    CREATE INDEX sales_sold_at_idx ON sales (sold_at, id);
    CREATE INDEX sales_price_idx ON sales (price_wei, id);
    CREATE INDEX registrations_time_idx ON registrations (block_time, id) WHERE kind = 'registration';
    CREATE INDEX registrations_cost_idx ON registrations (cost_wei, id) WHERE kind = 'registration';
    CREATE INDEX listings_created_at_idx ON listings (created_at, id);
    CREATE INDEX listings_price_at_idx ON listings (price_wei, id);
    CREATE INDEX offers_amount_at_idx ON offers (offer_amount_wei, id);

    CREATE TABLE market_rollups (
      grain text NOT NULL CHECK (grain IN ('hour', 'day')),
      kind text NOT NULL CHECK (kind IN ('sale', 'listing', 'offer', 'registration', 'vote')),
      bucket timestamptz NOT NULL,
      source text NOT NULL,
      clubs text[] NOT NULL,
      band smallint NOT NULL DEFAULT -1,
      name_length smallint NOT NULL DEFAULT 0,
      count integer NOT NULL,
      -- sales: ETH/WETH sales among count, their sum, largest and smallest price
      eth_count integer NOT NULL DEFAULT 0,
      volume_wei wei NOT NULL DEFAULT 0,
      max_wei wei,
      min_wei wei,
      -- registrations: volume_wei is the total cost; these split it
      base_cost_wei wei NOT NULL DEFAULT 0,
      premium_wei wei NOT NULL DEFAULT 0,
      premium_count integer NOT NULL DEFAULT 0,
      PRIMARY KEY (grain, kind, bucket, source, clubs, band, name_length)
    );

    CREATE TABLE market_rollup_dirty (
      kind text NOT NULL,
      hour timestamptz NOT NULL,
      PRIMARY KEY (kind, hour)
    );

    CREATE TABLE analytics_snapshots (
      period text PRIMARY KEY,
      figures jsonb NOT NULL,
      computed_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE club_stats (
      club text PRIMARY KEY,
      registered_count integer NOT NULL DEFAULT 0,
      grace_count integer NOT NULL DEFAULT 0,
      premium_count integer NOT NULL DEFAULT 0,
      available_count integer NOT NULL DEFAULT 0,
      listings_count integer NOT NULL DEFAULT 0,
      offers_count integer NOT NULL DEFAULT 0,
      holders_count integer NOT NULL DEFAULT 0,
      floor_price_wei wei,
      floor_price_currency eth_address,
      total_sales_count integer NOT NULL DEFAULT 0,
      total_sales_volume_wei wei NOT NULL DEFAULT 0,
      sales_count_1w integer NOT NULL DEFAULT 0,
      sales_count_1mo integer NOT NULL DEFAULT 0,
      sales_count_1y integer NOT NULL DEFAULT 0,
      sales_volume_wei_1w wei NOT NULL DEFAULT 0,
      sales_volume_wei_1mo wei NOT NULL DEFAULT 0,
      sales_volume_wei_1y wei NOT NULL DEFAULT 0,
      total_reg_count integer NOT NULL DEFAULT 0,
      total_reg_volume_wei wei NOT NULL DEFAULT 0,
      reg_count_1w integer NOT NULL DEFAULT 0,
      reg_count_1mo integer NOT NULL DEFAULT 0,
      reg_count_1y integer NOT NULL DEFAULT 0,
      reg_volume_wei_1w wei NOT NULL DEFAULT 0,
      reg_volume_wei_1mo wei NOT NULL DEFAULT 0,
      reg_volume_wei_1y wei NOT NULL DEFAULT 0,
      last_floor_update timestamptz,
      last_sales_update timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE club_holders (
      club text NOT NULL,
      address eth_address NOT NULL,
      name_count integer NOT NULL,
      PRIMARY KEY (club, address)
    );
    CREATE INDEX club_holders_rank_idx ON club_holders (club, name_count, address);

    CREATE FUNCTION market_rollup_mark() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      kind text := TG_ARGV[0];
      time_column text := TG_ARGV[1];
      extra text := coalesce(TG_ARGV[2], 'true');
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        EXECUTE format('INSERT INTO market_rollup_dirty (kind, hour) SELECT DISTINCT %L, date_trunc(''hour'', %I, ''UTC'') FROM new_rows WHERE %s ON CONFLICT DO NOTHING', kind, time_column, extra);
      END IF;
      IF TG_OP IN ('DELETE', 'UPDATE') THEN
        EXECUTE format('INSERT INTO market_rollup_dirty (kind, hour) SELECT DISTINCT %L, date_trunc(''hour'', %I, ''UTC'') FROM old_rows WHERE %s ON CONFLICT DO NOTHING', kind, time_column, extra);
      END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION market_rollup_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM market_rollups WHERE kind = TG_ARGV[0];
      DELETE FROM market_rollup_dirty WHERE kind = TG_ARGV[0];
      RETURN NULL;
    END $$;

    CREATE TRIGGER sales_rollup_ins AFTER INSERT ON sales REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('sale', 'sold_at');
    CREATE TRIGGER sales_rollup_upd AFTER UPDATE ON sales REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('sale', 'sold_at');
    CREATE TRIGGER sales_rollup_del AFTER DELETE ON sales REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('sale', 'sold_at');
    CREATE TRIGGER sales_rollup_trunc AFTER TRUNCATE ON sales FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_truncated('sale');

    CREATE TRIGGER registrations_rollup_ins AFTER INSERT ON registrations REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('registration', 'block_time', 'kind = ''registration''');
    CREATE TRIGGER registrations_rollup_upd AFTER UPDATE ON registrations REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('registration', 'block_time', 'kind = ''registration''');
    CREATE TRIGGER registrations_rollup_del AFTER DELETE ON registrations REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('registration', 'block_time', 'kind = ''registration''');
    CREATE TRIGGER registrations_rollup_trunc AFTER TRUNCATE ON registrations FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_truncated('registration');

    CREATE TRIGGER listings_rollup_ins AFTER INSERT ON listings REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('listing', 'created_at');
    CREATE TRIGGER listings_rollup_del AFTER DELETE ON listings REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('listing', 'created_at');
    CREATE TRIGGER listings_rollup_trunc AFTER TRUNCATE ON listings FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_truncated('listing');

    CREATE TRIGGER offers_rollup_ins AFTER INSERT ON offers REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('offer', 'created_at');
    CREATE TRIGGER offers_rollup_del AFTER DELETE ON offers REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('offer', 'created_at');
    CREATE TRIGGER offers_rollup_trunc AFTER TRUNCATE ON offers FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_truncated('offer');

    CREATE TRIGGER vote_events_rollup_ins AFTER INSERT ON vote_events REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('vote', 'cast_at');
    CREATE TRIGGER vote_events_rollup_del AFTER DELETE ON vote_events REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_mark('vote', 'cast_at');
    CREATE TRIGGER vote_events_rollup_trunc AFTER TRUNCATE ON vote_events FOR EACH STATEMENT EXECUTE FUNCTION market_rollup_truncated('vote');

    -- A name that changes clubs moves its history to another club set.
    CREATE FUNCTION market_rollup_name_clubs() RETURNS trigger LANGUAGE plpgsql AS $$
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
    CREATE TRIGGER ens_names_rollup_clubs AFTER UPDATE OF clubs ON ens_names
      FOR EACH ROW WHEN (OLD.clubs IS DISTINCT FROM NEW.clubs) EXECUTE FUNCTION market_rollup_name_clubs();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS ens_names_rollup_clubs ON ens_names;
    DROP TRIGGER IF EXISTS sales_rollup_ins ON sales;
    DROP TRIGGER IF EXISTS sales_rollup_upd ON sales;
    DROP TRIGGER IF EXISTS sales_rollup_del ON sales;
    DROP TRIGGER IF EXISTS sales_rollup_trunc ON sales;
    DROP TRIGGER IF EXISTS registrations_rollup_ins ON registrations;
    DROP TRIGGER IF EXISTS registrations_rollup_upd ON registrations;
    DROP TRIGGER IF EXISTS registrations_rollup_del ON registrations;
    DROP TRIGGER IF EXISTS registrations_rollup_trunc ON registrations;
    DROP TRIGGER IF EXISTS listings_rollup_ins ON listings;
    DROP TRIGGER IF EXISTS listings_rollup_del ON listings;
    DROP TRIGGER IF EXISTS listings_rollup_trunc ON listings;
    DROP TRIGGER IF EXISTS offers_rollup_ins ON offers;
    DROP TRIGGER IF EXISTS offers_rollup_del ON offers;
    DROP TRIGGER IF EXISTS offers_rollup_trunc ON offers;
    DROP TRIGGER IF EXISTS vote_events_rollup_ins ON vote_events;
    DROP TRIGGER IF EXISTS vote_events_rollup_del ON vote_events;
    DROP TRIGGER IF EXISTS vote_events_rollup_trunc ON vote_events;
    DROP FUNCTION IF EXISTS market_rollup_name_clubs();
    DROP FUNCTION IF EXISTS market_rollup_truncated();
    DROP FUNCTION IF EXISTS market_rollup_mark();
    DROP TABLE IF EXISTS club_holders, club_stats, analytics_snapshots, market_rollup_dirty, market_rollups;
    DROP INDEX IF EXISTS offers_amount_at_idx, listings_price_at_idx, listings_created_at_idx, registrations_cost_idx,
      registrations_time_idx, sales_price_idx, sales_sold_at_idx;
    ALTER TABLE clubs DROP COLUMN IF EXISTS classifications;
    ALTER TABLE registrations DROP COLUMN IF EXISTS premium_wei;
  `.execute(db);
}
