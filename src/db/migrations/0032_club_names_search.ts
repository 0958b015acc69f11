import { sql, type Kysely } from 'kysely';

/**
 * A search's count of a club's names (`clubs[]=10k&minLength=3&maxLength=5`, the club pages'
 * filters) from the club's own rows: club_names carries what those filters read of each name
 * (searchable, label_length, char_class: the columns of the same names on ens_names, copied by the
 * trigger that keeps club_names), and an index by club holds them. Through the clubs' GIN index the
 * count read a table page per name: 10,000 names of the 10k club, 9,000 pages, 250 ms at a million
 * names. In label order, the index also holds the names of a club that start with a search text
 * (`q=ra&clubs[]=3-letters`) without reading every label that starts with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE club_names
      ADD COLUMN searchable boolean NOT NULL DEFAULT false,
      ADD COLUMN label_length integer NOT NULL DEFAULT 0,
      ADD COLUMN char_class text NOT NULL DEFAULT 'mixed';
    UPDATE club_names cn SET searchable = n.searchable, label_length = n.label_length, char_class = n.char_class
      FROM ens_names n WHERE n.id = cn.ens_name_id;
    CREATE INDEX club_names_search_idx ON club_names (club, label) INCLUDE (ens_name_id, label_length, char_class) WHERE searchable;

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
    -- searchable also follows the name, char_class also has_emoji (label_length the label alone)
    DROP TRIGGER ens_names_club_names ON ens_names;
    CREATE TRIGGER ens_names_club_names AFTER INSERT OR UPDATE OF clubs, label, name, has_emoji ON ens_names
      FOR EACH ROW EXECUTE FUNCTION ens_names_club_names();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER ens_names_club_names ON ens_names;
    CREATE OR REPLACE FUNCTION ens_names_club_names() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF NEW.clubs IS NOT DISTINCT FROM OLD.clubs AND NEW.label IS NOT DISTINCT FROM OLD.label THEN RETURN NULL; END IF;
        IF coalesce(OLD.clubs, '{}') <> '{}' THEN DELETE FROM club_names WHERE ens_name_id = OLD.id; END IF;
      END IF;
      IF coalesce(NEW.clubs, '{}') <> '{}' THEN
        INSERT INTO club_names (club, label, ens_name_id) SELECT DISTINCT c, NEW.label, NEW.id FROM unnest(NEW.clubs) c;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ens_names_club_names AFTER INSERT OR UPDATE OF clubs, label ON ens_names
      FOR EACH ROW EXECUTE FUNCTION ens_names_club_names();
    DROP INDEX IF EXISTS club_names_search_idx;
    ALTER TABLE club_names DROP COLUMN searchable, DROP COLUMN label_length, DROP COLUMN char_class;
  `.execute(db);
}
