import { sql, type Kysely } from 'kysely';

/**
 * The whole first schema. Conventions: addresses lower-case text checked by pattern; money and
 * token ids numeric(78,0); times timestamptz; every list filter and sort of the interface has an index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE DOMAIN eth_address AS text CHECK (VALUE ~ '^0x[0-9a-f]{40}$');
    CREATE DOMAIN wei AS numeric(78,0) CHECK (VALUE >= 0);

    CREATE TABLE users (
      id bigserial PRIMARY KEY,
      address eth_address NOT NULL UNIQUE,
      email text,
      email_verified_at timestamptz,
      telegram text,
      discord text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX users_email_idx ON users (lower(email)) WHERE email IS NOT NULL;

    CREATE TABLE auth_nonces (
      nonce text PRIMARY KEY,
      address eth_address,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX auth_nonces_expires_idx ON auth_nonces (expires_at);

    CREATE TABLE refresh_tokens (
      id bigserial PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash bytea NOT NULL UNIQUE,
      family_id uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      replaced_by bigint REFERENCES refresh_tokens(id),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
    CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);
    CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);

    CREATE TABLE email_verification_tokens (
      id bigserial PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      email text NOT NULL,
      token_hash bytea NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX email_verification_tokens_user_idx ON email_verification_tokens (user_id);
    CREATE INDEX email_verification_tokens_expires_idx ON email_verification_tokens (expires_at);

    -- .eth second-level names. Vote counts, highest offer, active-listing summary, last sale and
    -- clubs are denormalised here, kept current in the same transaction as the rows they summarise.
    CREATE TABLE ens_names (
      id bigserial PRIMARY KEY,
      name text NOT NULL UNIQUE,
      label text NOT NULL,
      labelhash text NOT NULL UNIQUE CHECK (labelhash ~ '^0x[0-9a-f]{64}$'),
      namehash text NOT NULL UNIQUE CHECK (namehash ~ '^0x[0-9a-f]{64}$'),
      token_id numeric(78,0) NOT NULL UNIQUE,
      wrapped boolean NOT NULL DEFAULT false,
      owner_address eth_address,
      registrant_address eth_address,
      registration_date timestamptz,
      expiry_date timestamptz,
      has_emoji boolean NOT NULL DEFAULT false,
      clubs text[] NOT NULL DEFAULT '{}',
      last_sale_date timestamptz,
      last_sale_price_wei wei,
      last_sale_currency eth_address,
      highest_offer_wei wei,
      highest_offer_currency eth_address,
      highest_offer_id bigint,
      upvotes integer NOT NULL DEFAULT 0,
      downvotes integer NOT NULL DEFAULT 0,
      net_score integer GENERATED ALWAYS AS (upvotes - downvotes) STORED,
      listing_price_wei wei,
      listing_currency eth_address,
      listing_created_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX ens_names_owner_idx ON ens_names (owner_address, expiry_date);
    CREATE INDEX ens_names_expiry_idx ON ens_names (expiry_date);
    CREATE INDEX ens_names_clubs_idx ON ens_names USING gin (clubs);
    CREATE INDEX ens_names_label_trgm_idx ON ens_names USING gin (label gin_trgm_ops);
    CREATE INDEX ens_names_label_idx ON ens_names (label text_pattern_ops);
    CREATE INDEX ens_names_votes_idx ON ens_names (net_score DESC, id) WHERE upvotes + downvotes > 0;

    CREATE TABLE clubs (
      name text PRIMARY KEY,
      description text NOT NULL DEFAULT '',
      source text NOT NULL DEFAULT 'rule' CHECK (source IN ('rule', 'csv')),
      member_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    -- Membership by label, so a club can list names before they are loaded.
    CREATE TABLE club_members (
      club text NOT NULL REFERENCES clubs(name) ON DELETE CASCADE,
      label text NOT NULL,
      PRIMARY KEY (club, label)
    );
    CREATE INDEX club_members_label_idx ON club_members (label);

    -- Registrations and renewals as read from the chain (or the seed).
    CREATE TABLE registrations (
      id bigserial PRIMARY KEY,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('registration', 'renewal')),
      actor_address eth_address NOT NULL,
      tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
      log_index integer NOT NULL,
      block_number bigint NOT NULL,
      block_time timestamptz NOT NULL,
      duration_seconds bigint NOT NULL CHECK (duration_seconds >= 0),
      cost_wei wei NOT NULL DEFAULT 0,
      referrer text CHECK (referrer ~ '^0x[0-9a-f]{64}$'),
      expiry_date timestamptz,
      UNIQUE (tx_hash, log_index)
    );
    CREATE INDEX registrations_name_idx ON registrations (ens_name_id, block_time);
    CREATE INDEX registrations_actor_idx ON registrations (actor_address, block_time);
    CREATE INDEX registrations_referrer_idx ON registrations (referrer, block_time) WHERE referrer IS NOT NULL;

    CREATE TABLE sales (
      id bigserial PRIMARY KEY,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      seller_address eth_address NOT NULL,
      buyer_address eth_address NOT NULL,
      price_wei wei NOT NULL,
      currency_address eth_address NOT NULL,
      order_hash text,
      listing_id bigint,
      offer_id bigint,
      tx_hash text,
      log_index integer,
      source text NOT NULL DEFAULT 'grails',
      sold_at timestamptz NOT NULL,
      UNIQUE (tx_hash, log_index)
    );
    CREATE INDEX sales_seller_idx ON sales (seller_address, currency_address);
    CREATE INDEX sales_buyer_idx ON sales (buyer_address);
    CREATE INDEX sales_name_idx ON sales (ens_name_id, sold_at DESC);

    CREATE TABLE listings (
      id bigserial PRIMARY KEY,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      seller_address eth_address NOT NULL,
      price_wei wei NOT NULL,
      currency_address eth_address NOT NULL,
      order_hash text NOT NULL UNIQUE CHECK (order_hash ~ '^0x[0-9a-f]{64}$'),
      order_data jsonb NOT NULL,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'sold', 'cancelled', 'expired', 'unfunded')),
      source text NOT NULL DEFAULT 'grails',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      last_validated_at timestamptz,
      unfunded_at timestamptz,
      unfunded_reason text,
      broker_address eth_address,
      broker_fee_bps integer CHECK (broker_fee_bps BETWEEN 0 AND 10000)
    );
    CREATE INDEX listings_status_created_idx ON listings (status, created_at DESC, id DESC);
    CREATE INDEX listings_status_price_idx ON listings (status, price_wei, id);
    CREATE INDEX listings_status_expires_idx ON listings (status, expires_at, id);
    CREATE INDEX listings_seller_idx ON listings (seller_address, status, created_at DESC);
    CREATE INDEX listings_name_idx ON listings (ens_name_id, status);

    CREATE TABLE offers (
      id bigserial PRIMARY KEY,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      buyer_address eth_address NOT NULL,
      offer_amount_wei wei NOT NULL,
      currency_address eth_address NOT NULL,
      order_hash text NOT NULL UNIQUE CHECK (order_hash ~ '^0x[0-9a-f]{64}$'),
      order_data jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected', 'expired', 'unfunded')),
      source text NOT NULL DEFAULT 'grails',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      last_validated_at timestamptz,
      unfunded_at timestamptz,
      unfunded_reason text
    );
    CREATE INDEX offers_name_idx ON offers (ens_name_id, status, offer_amount_wei DESC);
    CREATE INDEX offers_buyer_idx ON offers (buyer_address, status, created_at DESC);
    CREATE INDEX offers_status_expires_idx ON offers (status, expires_at);
    CREATE INDEX offers_created_idx ON offers (created_at DESC, id DESC);

    CREATE TABLE votes (
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      vote smallint NOT NULL CHECK (vote IN (-1, 1)),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, ens_name_id)
    );
    CREATE INDEX votes_name_idx ON votes (ens_name_id);

    -- Every cast, so that period counts are exact.
    CREATE TABLE vote_events (
      id bigserial PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      vote smallint NOT NULL CHECK (vote IN (-1, 0, 1)),
      previous_vote smallint NOT NULL DEFAULT 0 CHECK (previous_vote IN (-1, 0, 1)),
      cast_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX vote_events_cast_idx ON vote_events (cast_at, ens_name_id);

    CREATE TABLE notifications (
      id bigserial PRIMARY KEY,
      recipient_address eth_address NOT NULL,
      type text NOT NULL,
      ens_name_id bigint REFERENCES ens_names(id) ON DELETE SET NULL,
      title text NOT NULL,
      message text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      read_at timestamptz
    );
    CREATE INDEX notifications_recipient_idx ON notifications (recipient_address, created_at DESC, id DESC);
    CREATE INDEX notifications_unread_idx ON notifications (recipient_address, created_at DESC, id DESC) WHERE read_at IS NULL;

    CREATE TABLE cart_types (
      type text PRIMARY KEY,
      description text NOT NULL
    );
    INSERT INTO cart_types (type, description) VALUES
      ('buy', 'Listed names to buy'),
      ('register', 'Expired or released names to register');

    CREATE TABLE cart_items (
      id bigserial PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      cart_type text NOT NULL REFERENCES cart_types(type),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, cart_type, ens_name_id)
    );

    -- Cached model output: kind 'related' (keyed by query) or 'recommendations' (keyed by label).
    CREATE TABLE ai_suggestions (
      kind text NOT NULL,
      key text NOT NULL,
      suggestions text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (kind, key)
    );
    CREATE INDEX ai_suggestions_expires_idx ON ai_suggestions (expires_at);

    CREATE TABLE keyword_metrics (
      label text PRIMARY KEY,
      metrics jsonb,
      fetched_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );

    CREATE TABLE legend_types (
      type text PRIMARY KEY,
      starts_at timestamptz,
      ends_at timestamptz NOT NULL,
      description text NOT NULL DEFAULT ''
    );

    CREATE TABLE eth_usd_prices (
      day date PRIMARY KEY,
      price_usd numeric(20,8) NOT NULL CHECK (price_usd > 0)
    );

    -- Cursors and checkpoints of sync jobs.
    CREATE TABLE sync_state (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS sync_state, eth_usd_prices, legend_types, keyword_metrics, ai_suggestions,
      cart_items, cart_types, notifications, vote_events, votes, offers, listings, sales,
      registrations, club_members, clubs, ens_names, email_verification_tokens, refresh_tokens,
      auth_nonces, users CASCADE;
    DROP DOMAIN IF EXISTS wei;
    DROP DOMAIN IF EXISTS eth_address;
  `.execute(db);
}
