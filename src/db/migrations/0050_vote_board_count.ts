import { sql, type Kysely } from 'kysely';

/**
 * The number of names on the vote leaderboard (names with at least one vote), kept by the writes
 * of `ens_names`' vote counts instead of counted: counting the board's partial index took 25-30 ms
 * at 250,000 voted names, and a count cached until a cast moved a name on or off the board was
 * counted again after every such cast. Sixteen rows by name id, so that concurrent casts on other
 * names seldom wait on the same row; the board's total is their sum.
 *
 * Row triggers fire only when a name moves on or off the board (an insert with votes, a change of
 * its counts across zero, a delete with votes); a truncate of the names empties the counts. The
 * seed loads the names with the insert trigger off and counts them once (seed.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE vote_board_counts (shard smallint PRIMARY KEY, names bigint NOT NULL);
    CREATE FUNCTION vote_board_recount() RETURNS void LANGUAGE sql AS $$
      DELETE FROM vote_board_counts;
      INSERT INTO vote_board_counts (shard, names)
        SELECT s, coalesce(c.n, 0) FROM generate_series(0, 15) s
        LEFT JOIN (SELECT id % 16 AS shard, count(*) AS n FROM ens_names WHERE upvotes + downvotes > 0 GROUP BY 1) c ON c.shard = s;
    $$;
    SELECT vote_board_recount();

    CREATE FUNCTION vote_board_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.upvotes + NEW.downvotes > 0 THEN
        UPDATE vote_board_counts SET names = names + 1 WHERE shard = NEW.id % 16;
      END IF;
      IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.upvotes + OLD.downvotes > 0 THEN
        UPDATE vote_board_counts SET names = names - 1 WHERE shard = OLD.id % 16;
      END IF;
      RETURN NULL;
    END $$;
    CREATE FUNCTION vote_board_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE vote_board_counts SET names = 0;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ens_names_vote_board_ins AFTER INSERT ON ens_names
      FOR EACH ROW WHEN (NEW.upvotes + NEW.downvotes > 0) EXECUTE FUNCTION vote_board_moved();
    CREATE TRIGGER ens_names_vote_board_upd AFTER UPDATE OF upvotes, downvotes ON ens_names
      FOR EACH ROW WHEN ((OLD.upvotes + OLD.downvotes > 0) IS DISTINCT FROM (NEW.upvotes + NEW.downvotes > 0)) EXECUTE FUNCTION vote_board_moved();
    CREATE TRIGGER ens_names_vote_board_del AFTER DELETE ON ens_names
      FOR EACH ROW WHEN (OLD.upvotes + OLD.downvotes > 0) EXECUTE FUNCTION vote_board_moved();
    CREATE TRIGGER ens_names_vote_board_trunc AFTER TRUNCATE ON ens_names
      FOR EACH STATEMENT EXECUTE FUNCTION vote_board_emptied();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS ens_names_vote_board_ins ON ens_names;
    DROP TRIGGER IF EXISTS ens_names_vote_board_upd ON ens_names;
    DROP TRIGGER IF EXISTS ens_names_vote_board_del ON ens_names;
    DROP TRIGGER IF EXISTS ens_names_vote_board_trunc ON ens_names;
    DROP FUNCTION IF EXISTS vote_board_moved();
    DROP FUNCTION IF EXISTS vote_board_emptied();
    DROP FUNCTION IF EXISTS vote_board_recount();
    DROP TABLE IF EXISTS vote_board_counts;
  `.execute(db);
}
