import { sql, type Kysely } from 'kysely';

/**
 * Market history: the activity log, name page views, and the indexes behind the sales and
 * activity pages.
 *
 * - `activity_events` is append-only (a trigger refuses UPDATE and DELETE): one row per event,
 *   written in the transaction of the change that causes it. `id` is the sequence a live stream
 *   resumes from. Chain events carry (transaction_hash, log_index), unique per name and type, so
 *   a replayed block range adds nothing.
 * - Every page of the log reads one index in id order: all events, one name, one actor or
 *   counterparty, one event type, one platform.
 * - `name_views_daily` holds one row per name, viewer and UTC day (the flush of the in-memory
 *   buffer inserts with ON CONFLICT DO NOTHING); `name_view_counts` the running total per name,
 *   raised by the rows that flush actually inserted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE activity_events (
      id bigserial PRIMARY KEY,
      event_type text NOT NULL CHECK (event_type IN (
        'listed', 'listing_updated', 'listing_cancelled', 'listing_expired', 'listing_unfunded', 'sale',
        'offer_made', 'offer_updated', 'offer_accepted', 'offer_cancelled', 'offer_expired', 'offer_unfunded',
        'registration', 'renewal', 'transfer', 'grace_started', 'released', 'vote'
      )),
      ens_name_id bigint NOT NULL REFERENCES ens_names(id),
      actor_address eth_address,
      counterparty_address eth_address,
      price_wei wei,
      currency_address eth_address,
      platform text NOT NULL DEFAULT 'grails',
      chain_id integer NOT NULL DEFAULT 1,
      transaction_hash text CHECK (transaction_hash ~ '^0x[0-9a-f]{64}$'),
      block_number bigint,
      log_index integer,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX activity_events_name_idx ON activity_events (ens_name_id, id DESC);
    CREATE INDEX activity_events_actor_idx ON activity_events (actor_address, id DESC) WHERE actor_address IS NOT NULL;
    CREATE INDEX activity_events_counterparty_idx ON activity_events (counterparty_address, id DESC) WHERE counterparty_address IS NOT NULL;
    CREATE INDEX activity_events_type_idx ON activity_events (event_type, id DESC);
    CREATE INDEX activity_events_platform_idx ON activity_events (platform, id DESC);
    CREATE UNIQUE INDEX activity_events_chain_idx ON activity_events (transaction_hash, log_index, ens_name_id, event_type)
      WHERE transaction_hash IS NOT NULL AND log_index IS NOT NULL;

    CREATE FUNCTION activity_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'activity_events is append-only';
    END $$;
    CREATE TRIGGER activity_events_append_only BEFORE UPDATE OR DELETE ON activity_events
      FOR EACH ROW EXECUTE FUNCTION activity_events_append_only();

    CREATE TABLE name_views_daily (
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      day date NOT NULL,
      viewer text NOT NULL,
      PRIMARY KEY (ens_name_id, day, viewer)
    );
    CREATE INDEX name_views_daily_day_idx ON name_views_daily (day);
    CREATE TABLE name_view_counts (
      ens_name_id bigint PRIMARY KEY REFERENCES ens_names(id) ON DELETE CASCADE,
      views bigint NOT NULL DEFAULT 0
    );

    -- Sales pages: newest first overall, per seller, per buyer (ties by id).
    CREATE INDEX sales_sold_idx ON sales (sold_at DESC, id DESC);
    CREATE INDEX sales_seller_sold_idx ON sales (seller_address, sold_at DESC, id DESC);
    CREATE INDEX sales_buyer_sold_idx ON sales (buyer_address, sold_at DESC, id DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS sales_buyer_sold_idx, sales_seller_sold_idx, sales_sold_idx;
    DROP TABLE IF EXISTS name_view_counts, name_views_daily, activity_events;
    DROP FUNCTION IF EXISTS activity_events_append_only();
  `.execute(db);
}
