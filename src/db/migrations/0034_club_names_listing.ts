import { sql, type Kysely } from 'kysely';

/**
 * A club's page in listing order (`clubs[]=999`, no text: the club pages' default sort) from the
 * club's own rows: club_names carries each name's listing time (`listing_created_at`, copied by the
 * trigger that keeps club_names, which now also follows it), and two partial indexes hold a club's
 * listed names in listing order and its other names by id: each tier of the page is a range of one
 * of them, whatever the club's size. Before, a club of a thousand names walked the listed-names
 * index of every club (2.6 ms of PostgreSQL a page at a million names), and a club under 300 names
 * read all its names twice through the clubs' GIN index, once per tier, each planned per request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE club_names ADD COLUMN listing_created_at timestamptz;
    UPDATE club_names cn SET listing_created_at = n.listing_created_at
      FROM ens_names n WHERE n.id = cn.ens_name_id AND n.listing_created_at IS NOT NULL;
    CREATE INDEX club_names_listed_idx ON club_names (club, listing_created_at, ens_name_id) INCLUDE (label_length, char_class)
      WHERE searchable AND listing_created_at IS NOT NULL;
    CREATE INDEX club_names_unlisted_idx ON club_names (club, ens_name_id) INCLUDE (label_length, char_class)
      WHERE searchable AND listing_created_at IS NULL;

    CREATE OR REPLACE FUNCTION ens_names_club_names() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF NEW.clubs IS NOT DISTINCT FROM OLD.clubs AND NEW.label IS NOT DISTINCT FROM OLD.label
          AND NEW.searchable IS NOT DISTINCT FROM OLD.searchable AND NEW.char_class IS NOT DISTINCT FROM OLD.char_class THEN
          -- a listing move: the club rows' listing time, in place
          IF NEW.listing_created_at IS DISTINCT FROM OLD.listing_created_at AND coalesce(NEW.clubs, '{}') <> '{}' THEN
            UPDATE club_names SET listing_created_at = NEW.listing_created_at WHERE ens_name_id = NEW.id;
          END IF;
          RETURN NULL;
        END IF;
        IF coalesce(OLD.clubs, '{}') <> '{}' THEN DELETE FROM club_names WHERE ens_name_id = OLD.id; END IF;
      END IF;
      IF coalesce(NEW.clubs, '{}') <> '{}' THEN
        INSERT INTO club_names (club, label, ens_name_id, searchable, label_length, char_class, listing_created_at)
          SELECT DISTINCT c, NEW.label, NEW.id, NEW.searchable, NEW.label_length, NEW.char_class, NEW.listing_created_at FROM unnest(NEW.clubs) c;
      END IF;
      RETURN NULL;
    END $$;
    DROP TRIGGER ens_names_club_names ON ens_names;
    CREATE TRIGGER ens_names_club_names AFTER INSERT OR UPDATE OF clubs, label, name, has_emoji, listing_created_at ON ens_names
      FOR EACH ROW EXECUTE FUNCTION ens_names_club_names();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER ens_names_club_names ON ens_names;
    CREATE OR REPLACE FUNCTION ens_names_club_names() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF NEW.clubs IS NOT DISTINCT FROM OLD.clubs AND NEW.label IS NOT DISTINCT FROM OLD.label
          AND NEW.searchable IS NOT DISTINCT FROM OLD.searchable AND NEW.char_class IS NOT DISTINCT FROM OLD.char_class THEN
          RETURN NULL;
        END IF;
        IF coalesce(OLD.clubs, '{}') <> '{}' THEN DELETE FROM club_names WHERE ens_name_id = OLD.id; END IF;
      END IF;
      IF coalesce(NEW.clubs, '{}') <> '{}' THEN
        INSERT INTO club_names (club, label, ens_name_id, searchable, label_length, char_class)
          SELECT DISTINCT c, NEW.label, NEW.id, NEW.searchable, NEW.label_length, NEW.char_class FROM unnest(NEW.clubs) c;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ens_names_club_names AFTER INSERT OR UPDATE OF clubs, label, name, has_emoji ON ens_names
      FOR EACH ROW EXECUTE FUNCTION ens_names_club_names();
    DROP INDEX IF EXISTS club_names_listed_idx;
    DROP INDEX IF EXISTS club_names_unlisted_idx;
    ALTER TABLE club_names DROP COLUMN listing_created_at;
  `.execute(db);
}
