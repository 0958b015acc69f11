import { sql, type Kysely } from 'kysely';

/**
 * The activity of each club's names, newest first (`GET /activity?club=`): one row per event and
 * club of its name, and one under `*` (no club name can be `*`) per event of a name in any club,
 * with the event's type and platform. Read from the log, a club's page walked the whole log in id
 * order checking each event's name (or hashed the club's members and scanned the log in parallel),
 * and its capped count went on until 10,001 matches: first reads of 100-460 ms at a million names
 * (`club=10k&event_type=listed&page=10` 452 ms, `club=any&page=100` 278 ms); from here a page and
 * its count are one range of an index: by club, by club and type, or by club and platform (a rare
 * platform, 2 % of the clubs' events, would otherwise walk all of a club's).
 *
 * Kept by triggers, so every writer of the log (orders, sync, votes, a test's own rows) keeps it:
 * an insert into the log adds its events under their names' clubs of that moment; a change of a
 * name's clubs adds or removes its events under the clubs it entered or left (a name entering its
 * first club also enters `*`), the name's row locked first against concurrent logging of its events;
 * a truncate of the log empties it. The log is append-only (0009), so
 * an event's type, platform and name never change. The seed loads the log with the insert trigger
 * off and fills the table at once (seed.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE club_activity (
      club text COLLATE "C" NOT NULL,
      event_id bigint NOT NULL,
      event_type text NOT NULL,
      platform text NOT NULL,
      PRIMARY KEY (club, event_id)
    );
    INSERT INTO club_activity (club, event_id, event_type, platform)
      SELECT DISTINCT c.club, e.id, e.event_type, e.platform FROM ens_names n
      CROSS JOIN LATERAL unnest(n.clubs || '{*}'::text[]) c(club)
      JOIN activity_events e ON e.ens_name_id = n.id
      WHERE n.clubs <> '{}';
    CREATE INDEX club_activity_type_idx ON club_activity (club, event_type, event_id) INCLUDE (platform);
    CREATE INDEX club_activity_platform_idx ON club_activity (club, platform, event_id) INCLUDE (event_type);

    -- the new events of names in clubs, under each of their clubs and under '*'
    CREATE FUNCTION club_activity_logged() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO club_activity (club, event_id, event_type, platform)
        SELECT DISTINCT c.club, e.id, e.event_type, e.platform FROM new_rows e
        JOIN ens_names n ON n.id = e.ens_name_id AND n.clubs <> '{}'
        CROSS JOIN LATERAL unnest(n.clubs || '{*}'::text[]) c(club);
      RETURN NULL;
    END $$;

    -- a name's events under the clubs it left taken out, under the clubs it entered put in
    CREATE FUNCTION club_activity_reclubbed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      was text[] := CASE WHEN coalesce(OLD.clubs, '{}') = '{}' THEN '{}' ELSE OLD.clubs || '{*}'::text[] END;
      now_in text[] := CASE WHEN coalesce(NEW.clubs, '{}') = '{}' THEN '{}' ELSE NEW.clubs || '{*}'::text[] END;
      left_clubs text[] := ARRAY(SELECT unnest(was) EXCEPT SELECT unnest(now_in));
      entered text[] := ARRAY(SELECT unnest(now_in) EXCEPT SELECT unnest(was));
    BEGIN
      IF left_clubs <> '{}' THEN
        DELETE FROM club_activity WHERE club = ANY(left_clubs) AND event_id IN (SELECT id FROM activity_events WHERE ens_name_id = NEW.id);
      END IF;
      IF entered <> '{}' THEN
        INSERT INTO club_activity (club, event_id, event_type, platform)
          SELECT c, e.id, e.event_type, e.platform FROM activity_events e CROSS JOIN unnest(entered) c WHERE e.ens_name_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$;

    -- Before a name's clubs change, its row is locked FOR UPDATE: that waits for every open
    -- transaction that logged an event of the name (the log's foreign key holds the row FOR KEY
    -- SHARE) and makes later ones wait for this one, so neither misses the other's rows. Taken
    -- before the update takes its own lock, so a transaction that logged an event and then updates
    -- the name (its summaries) is waited for instead of deadlocking with this one.
    CREATE FUNCTION ens_names_clubs_lock() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM FROM ens_names WHERE id = OLD.id FOR UPDATE;
      RETURN NEW;
    END $$;

    CREATE FUNCTION club_activity_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE club_activity;
      RETURN NULL;
    END $$;

    CREATE TRIGGER activity_events_club_activity_ins AFTER INSERT ON activity_events REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION club_activity_logged();
    CREATE TRIGGER activity_events_club_activity_trunc AFTER TRUNCATE ON activity_events
      FOR EACH STATEMENT EXECUTE FUNCTION club_activity_truncated();
    CREATE TRIGGER ens_names_clubs_lock BEFORE UPDATE OF clubs ON ens_names
      FOR EACH ROW WHEN (OLD.clubs IS DISTINCT FROM NEW.clubs) EXECUTE FUNCTION ens_names_clubs_lock();
    CREATE TRIGGER ens_names_club_activity AFTER UPDATE OF clubs ON ens_names
      FOR EACH ROW WHEN (OLD.clubs IS DISTINCT FROM NEW.clubs) EXECUTE FUNCTION club_activity_reclubbed();
  `.execute(db);
}

/** Analyzed and its visibility map set once committed (migrateToLatest): pages are index-only from the start. */
export const vacuumAfter = ['club_activity'];

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS activity_events_club_activity_ins ON activity_events;
    DROP TRIGGER IF EXISTS activity_events_club_activity_trunc ON activity_events;
    DROP TRIGGER IF EXISTS ens_names_club_activity ON ens_names;
    DROP TRIGGER IF EXISTS ens_names_clubs_lock ON ens_names;
    DROP FUNCTION IF EXISTS ens_names_clubs_lock();
    DROP FUNCTION IF EXISTS club_activity_logged();
    DROP FUNCTION IF EXISTS club_activity_reclubbed();
    DROP FUNCTION IF EXISTS club_activity_truncated();
    DROP TABLE IF EXISTS club_activity;
  `.execute(db);
}
