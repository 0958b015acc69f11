import { sql, type Kysely } from 'kysely';

/**
 * Standings: the built-in club catalogue, the legend rules, and the precomputed leaderboards:
 * holders (one row per owner with at least one active name, rebuilt by `leaderboard.refresh`,
 * services/leaderboard.service.ts) and referral awards (one row per address, rebuilt by
 * `awards.refresh`, services/awards.service.ts).
 *
 * The aggregates are tables rather than materialized views because their definitions depend on
 * configuration (grace period, WETH address, referrer code); a refresh applies only the rows that
 * changed, in one transaction, so readers never wait and never see a half-built ranking.
 * Every statement is idempotent (IF NOT EXISTS, ON CONFLICT), so a database that ran an earlier
 * draft of this migration can be brought up to date by running `up` again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    INSERT INTO legend_types (type, starts_at, ends_at, description) VALUES
      ('prepunk', NULL, '2017-06-23T00:00:00Z', 'Minted before the CryptoPunks launch (2017-06-23)'),
      ('OG', NULL, '2019-05-04T00:00:00Z', 'Minted in the auction-registrar era, before 2019-05-04'),
      ('Pioneer', '2019-05-04T00:00:00Z', '2021-11-01T00:00:00Z', 'Minted from 2019-05-04 to 2021-11-01')
    ON CONFLICT (type) DO NOTHING;

    INSERT INTO clubs (name, description, source) VALUES
      ('999', 'Three digits, 000 to 999 (1,000 names)', 'rule'),
      ('10k', 'Four digits, 0000 to 9999 (10,000 names)', 'rule'),
      ('100k', 'Five digits, 00000 to 99999 (100,000 names)', 'rule'),
      ('3-digit-palindromes', 'Three-digit palindromes such as 101', 'rule'),
      ('4-digit-palindromes', 'Four-digit palindromes such as 1221', 'rule'),
      ('3-letters', 'Three letters, aaa to zzz (17,576 names)', 'rule')
    ON CONFLICT (name) DO NOTHING;

    CREATE TABLE IF NOT EXISTS holder_leaderboard (
      address eth_address PRIMARY KEY,
      names_owned integer NOT NULL,
      names_in_clubs integer NOT NULL,
      expired_names integer NOT NULL,
      names_listed integer NOT NULL,
      names_sold integer NOT NULL,
      sales_volume wei NOT NULL,
      clubs text[] NOT NULL
    );
    -- One index per sort; ties are broken by address in the same direction, so each index
    -- serves both orders (forward and backward scans).
    CREATE INDEX IF NOT EXISTS holder_leaderboard_names_owned_idx ON holder_leaderboard (names_owned, address);
    CREATE INDEX IF NOT EXISTS holder_leaderboard_names_in_clubs_idx ON holder_leaderboard (names_in_clubs, address);
    CREATE INDEX IF NOT EXISTS holder_leaderboard_expired_names_idx ON holder_leaderboard (expired_names, address);
    CREATE INDEX IF NOT EXISTS holder_leaderboard_names_listed_idx ON holder_leaderboard (names_listed, address);
    CREATE INDEX IF NOT EXISTS holder_leaderboard_names_sold_idx ON holder_leaderboard (names_sold, address);
    CREATE INDEX IF NOT EXISTS holder_leaderboard_sales_volume_idx ON holder_leaderboard (sales_volume, address);
    CREATE INDEX IF NOT EXISTS holder_leaderboard_clubs_idx ON holder_leaderboard USING gin (clubs);

    -- The refresh reads names by owner from indexes only: counts from ens_names_owner_idx
    -- (owner_address, expiry_date), clubs from this partial index of the names in a club.
    CREATE INDEX IF NOT EXISTS ens_names_owner_clubs_idx ON ens_names (owner_address, expiry_date) INCLUDE (clubs) WHERE clubs <> '{}';

    -- The awards leaderboard: one row per address with referral events since the program start
    -- (2026-04-01), rebuilt by the awards.refresh job; indexed per sort like the holder board.
    CREATE TABLE IF NOT EXISTS awards_leaderboard (
      address eth_address PRIMARY KEY,
      points integer NOT NULL,
      registration_duration_seconds bigint NOT NULL,
      renewal_duration_seconds bigint NOT NULL,
      total_duration_seconds bigint NOT NULL,
      total_eth_spend_wei wei NOT NULL,
      base_cost_eth double precision NOT NULL,
      registration_count integer NOT NULL,
      renewal_count integer NOT NULL
    );
    CREATE INDEX IF NOT EXISTS awards_leaderboard_points_idx ON awards_leaderboard (points, address);
    CREATE INDEX IF NOT EXISTS awards_leaderboard_registration_idx ON awards_leaderboard (registration_duration_seconds, address);
    CREATE INDEX IF NOT EXISTS awards_leaderboard_renewal_idx ON awards_leaderboard (renewal_duration_seconds, address);
    CREATE INDEX IF NOT EXISTS awards_leaderboard_total_idx ON awards_leaderboard (total_duration_seconds, address);
    CREATE INDEX IF NOT EXISTS awards_leaderboard_spend_idx ON awards_leaderboard (total_eth_spend_wei, address);
    CREATE INDEX IF NOT EXISTS awards_leaderboard_base_eth_idx ON awards_leaderboard (base_cost_eth, address);
    -- The program's events, readable from the index alone (the refresh touches no registration row).
    CREATE INDEX IF NOT EXISTS registrations_referral_program_idx ON registrations (referrer, block_time)
      INCLUDE (actor_address, kind, duration_seconds, cost_wei)
      WHERE referrer IS NOT NULL AND block_time >= '2026-04-01T00:00:00Z';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS registrations_referral_program_idx;
    DROP TABLE IF EXISTS awards_leaderboard;
    DROP INDEX IF EXISTS ens_names_owner_clubs_idx;
    DROP TABLE IF EXISTS holder_leaderboard;
    DELETE FROM legend_types WHERE type IN ('prepunk', 'OG', 'Pioneer');
    DELETE FROM clubs WHERE source = 'rule';
  `.execute(db);
}
