import { sql, type Kysely } from 'kysely';

/**
 * The registrations feed (`GET /analytics/registrations`, sorted by date, cost or label length,
 * filtered by period and clubs): one narrow row per registration (not renewal) with what the feed
 * filters and sorts on, its name's label (its length generated as the names' is) and clubs, and an
 * index per sort that carries them. Read from the registrations joined to their names, a page by
 * length sorted every registration of the period (30 days: 520 ms at a million names), by cost in
 * the 100k club walked the cost index with a heap fetch and a club probe per row (1.7 s).
 *
 * Kept by triggers, so every writer of registrations (the chain sync, a repair, a test's own rows)
 * keeps it: an insert adds its registrations (read after the foreign key has locked the name FOR
 * KEY SHARE, so a concurrent clubs change, which locks the name FOR UPDATE first, is seen or waits:
 * 0047); an update or delete writes the touched rows again; a truncate empties it; a change of a
 * name's clubs moves them on its rows. The seed copies the rows beside the registrations (seed.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE registration_feed (
      registration_id bigint PRIMARY KEY,
      block_time timestamptz NOT NULL,
      cost_wei numeric(78, 0) NOT NULL,
      label text NOT NULL,
      label_length integer GENERATED ALWAYS AS (search_label_length(label)) STORED,
      clubs text[] NOT NULL DEFAULT '{}'
    );
    INSERT INTO registration_feed (registration_id, block_time, cost_wei, label, clubs)
      SELECT r.id, r.block_time, r.cost_wei, n.label, n.clubs FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id WHERE r.kind = 'registration';
    CREATE INDEX registration_feed_time_idx ON registration_feed (block_time, registration_id) INCLUDE (cost_wei, label_length, clubs);
    CREATE INDEX registration_feed_cost_idx ON registration_feed (cost_wei, registration_id) INCLUDE (block_time, clubs);
    CREATE INDEX registration_feed_length_idx ON registration_feed (label_length, registration_id) INCLUDE (block_time, clubs);
    -- the registrations of names in clubs by length: a club's labels have one length or a few (the 999
    -- club: 3), so in the length index a club's rows are bunched, after or before most of the others
    -- (all time, the 100k club by length: 900,000 entries walked to its first, 100-150 ms)
    CREATE INDEX registration_feed_club_length_idx ON registration_feed (label_length, registration_id) INCLUDE (block_time, clubs) WHERE clubs <> '{}';
    -- and by cost: a club's share of all registrations is small (the 999 club: 0.1 %), walked among the clubs' own
    CREATE INDEX registration_feed_club_cost_idx ON registration_feed (cost_wei, registration_id) INCLUDE (block_time, clubs) WHERE clubs <> '{}';

    -- the registrations of ids, written again from the registrations and their names
    CREATE FUNCTION registration_feed_rewrite(ids bigint[]) RETURNS void LANGUAGE sql AS $$
      DELETE FROM registration_feed WHERE registration_id = ANY(ids);
      INSERT INTO registration_feed (registration_id, block_time, cost_wei, label, clubs)
        SELECT r.id, r.block_time, r.cost_wei, n.label, n.clubs FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id
        WHERE r.id = ANY(ids) AND r.kind = 'registration';
    $$;
    CREATE FUNCTION registration_feed_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO registration_feed (registration_id, block_time, cost_wei, label, clubs)
        SELECT r.id, r.block_time, r.cost_wei, n.label, n.clubs FROM new_rows r JOIN ens_names n ON n.id = r.ens_name_id WHERE r.kind = 'registration';
      RETURN NULL;
    END $$;
    CREATE FUNCTION registration_feed_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM registration_feed_rewrite(ARRAY(SELECT id FROM old_rows UNION SELECT id FROM new_rows));
      RETURN NULL;
    END $$;
    CREATE FUNCTION registration_feed_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM registration_feed WHERE registration_id IN (SELECT id FROM old_rows);
      RETURN NULL;
    END $$;
    CREATE FUNCTION registration_feed_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE registration_feed;
      RETURN NULL;
    END $$;
    CREATE TRIGGER registrations_feed_ins AFTER INSERT ON registrations REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION registration_feed_inserted();
    CREATE TRIGGER registrations_feed_upd AFTER UPDATE ON registrations REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION registration_feed_updated();
    CREATE TRIGGER registrations_feed_del AFTER DELETE ON registrations REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION registration_feed_deleted();
    CREATE TRIGGER registrations_feed_trunc AFTER TRUNCATE ON registrations FOR EACH STATEMENT EXECUTE FUNCTION registration_feed_truncated();

    -- a name's clubs, also on its registrations' rows (0048 moves them on its orders and sales)
    CREATE OR REPLACE FUNCTION ens_names_clubs_to_market() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listings SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      UPDATE offers SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      UPDATE sales SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      UPDATE registration_feed SET clubs = NEW.clubs
        WHERE registration_id IN (SELECT id FROM registrations WHERE ens_name_id = NEW.id AND kind = 'registration');
      RETURN NULL;
    END $$;
  `.execute(db);
}

/** Analyzed and its visibility map set once committed (migrateToLatest): pages are index-only from the start. */
export const vacuumAfter = ['registration_feed'];

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION ens_names_clubs_to_market() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listings SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      UPDATE offers SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      UPDATE sales SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      RETURN NULL;
    END $$;
    DROP TRIGGER IF EXISTS registrations_feed_ins ON registrations;
    DROP TRIGGER IF EXISTS registrations_feed_upd ON registrations;
    DROP TRIGGER IF EXISTS registrations_feed_del ON registrations;
    DROP TRIGGER IF EXISTS registrations_feed_trunc ON registrations;
    DROP FUNCTION IF EXISTS registration_feed_inserted();
    DROP FUNCTION IF EXISTS registration_feed_updated();
    DROP FUNCTION IF EXISTS registration_feed_deleted();
    DROP FUNCTION IF EXISTS registration_feed_truncated();
    DROP FUNCTION IF EXISTS registration_feed_rewrite(bigint[]);
    DROP TABLE IF EXISTS registration_feed;
  `.execute(db);
}
