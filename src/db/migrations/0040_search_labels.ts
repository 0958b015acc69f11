import { sql, type Kysely } from 'kysely';

/**
 * The searchable labels alone, by id, with their lengths and their own trigram index: what a search
 * text's similar labels (search/query.ts, similarIds), its capped count and, without filters, its
 * substring tier are read from. Every label a trigram index names is read from its table and
 * rechecked; in the names' table (436 MB at a million names, eighteen rows a page) each recheck was
 * a page of its own, mostly outside the buffer cache, where this table (52 MB, about 150 labels a
 * page) stays in it: a text's similarity bars and count, first asked, took 16.7 ms of PostgreSQL's
 * time from the names' table and 5.7 from this one (60 texts, cold), 7.3 and 4.3 read again. The
 * reversed labels' index counts the labels ending like a text (whether a lower bar is affordable)
 * from the same pages: 301 of them were 299 pages of the names' table, 16 ms cold. Kept by a
 * trigger on the name's label and name (what `searchable` is made of); a name's row removed takes
 * its label with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE search_labels (
      id bigint PRIMARY KEY,
      label text NOT NULL,
      label_length integer NOT NULL
    );
    INSERT INTO search_labels (id, label, label_length) SELECT id, label, label_length FROM ens_names WHERE searchable ORDER BY id;
    -- without a pending list: every scan of a GIN index reads its pending list whole, and a new
    -- name's label is one insert (autovacuum, which would merge the list, may be off)
    CREATE INDEX search_labels_trgm_idx ON search_labels USING gin (label gin_trgm_ops) WITH (fastupdate = off);
    CREATE INDEX search_labels_suffix_idx ON search_labels ((reverse(label)) COLLATE "C");
    -- the key after the rows: checked in one join, not row by row (a million names: over a minute)
    ALTER TABLE search_labels ADD CONSTRAINT search_labels_id_fkey FOREIGN KEY (id) REFERENCES ens_names(id) ON DELETE CASCADE;

    CREATE FUNCTION ens_names_search_labels() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF NEW.label IS NOT DISTINCT FROM OLD.label AND NEW.searchable IS NOT DISTINCT FROM OLD.searchable THEN RETURN NULL; END IF;
        DELETE FROM search_labels WHERE id = OLD.id;
      END IF;
      IF NEW.searchable THEN INSERT INTO search_labels (id, label, label_length) VALUES (NEW.id, NEW.label, NEW.label_length); END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ens_names_search_labels AFTER INSERT OR UPDATE OF label, name ON ens_names
      FOR EACH ROW EXECUTE FUNCTION ens_names_search_labels();
  `.execute(db);
}

/** Analyzed once committed (migrateToLatest): its counts and bars are planned on its real size. */
export const vacuumAfter = ['search_labels'];

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS ens_names_search_labels ON ens_names;
    DROP FUNCTION IF EXISTS ens_names_search_labels();
    DROP TABLE IF EXISTS search_labels;
  `.execute(db);
}
