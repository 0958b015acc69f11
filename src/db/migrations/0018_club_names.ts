import { sql, type Kysely } from 'kysely';

/**
 * Each club's names in label order (`GET /clubs/:club` pages): one row per name and club, kept by
 * a trigger on `ens_names.clubs` and `label`, so a page is an index range of (club, label, id)
 * instead of every member's row fetched and sorted (10,000 heap rows per page of the 10k club).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE club_names (
      club text NOT NULL,
      label text COLLATE "C" NOT NULL,
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      PRIMARY KEY (club, label, ens_name_id)
    );
    CREATE INDEX club_names_name_idx ON club_names (ens_name_id);
    INSERT INTO club_names (club, label, ens_name_id)
      SELECT DISTINCT c, n.label, n.id FROM ens_names n CROSS JOIN LATERAL unnest(n.clubs) c WHERE n.clubs <> '{}';

    CREATE FUNCTION ens_names_club_names() RETURNS trigger LANGUAGE plpgsql AS $$
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
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS ens_names_club_names ON ens_names;
    DROP FUNCTION IF EXISTS ens_names_club_names();
    DROP TABLE IF EXISTS club_names;
  `.execute(db);
}
