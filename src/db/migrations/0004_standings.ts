import { sql, type Kysely } from 'kysely';

/**
 * Standings: the built-in club catalogue, the legend rules, and the precomputed holder
 * leaderboard (one row per owner with at least one active name, rebuilt by the
 * `leaderboard.refresh` job; see services/leaderboard.service.ts).
 *
 * The aggregate is a table rather than a materialized view because its definition depends on
 * configuration (grace period, WETH address); the refresh applies only the rows that changed, in
 * one transaction, so readers never wait and never see a half-built ranking.
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

    CREATE TABLE holder_leaderboard (
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
    CREATE INDEX holder_leaderboard_names_owned_idx ON holder_leaderboard (names_owned, address);
    CREATE INDEX holder_leaderboard_names_in_clubs_idx ON holder_leaderboard (names_in_clubs, address);
    CREATE INDEX holder_leaderboard_expired_names_idx ON holder_leaderboard (expired_names, address);
    CREATE INDEX holder_leaderboard_names_listed_idx ON holder_leaderboard (names_listed, address);
    CREATE INDEX holder_leaderboard_names_sold_idx ON holder_leaderboard (names_sold, address);
    CREATE INDEX holder_leaderboard_sales_volume_idx ON holder_leaderboard (sales_volume, address);
    CREATE INDEX holder_leaderboard_clubs_idx ON holder_leaderboard USING gin (clubs);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS holder_leaderboard;
    DELETE FROM legend_types WHERE type IN ('prepunk', 'OG', 'Pioneer');
    DELETE FROM clubs WHERE source = 'rule';
  `.execute(db);
}
