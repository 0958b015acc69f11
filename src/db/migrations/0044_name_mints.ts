import { sql, type Kysely } from 'kysely';

/**
 * Each name's mint, its first registration (by block time, block, log index), with its registrant:
 * what legends count and list (services/legends.service.ts). Read from the registrations, an
 * address's mints were its registrations with no earlier one of the same name, a probe of the
 * name's registrations per row: the largest minter's legend summary (39,766 registrations, 5,487
 * mints in the legend windows) took 37 ms warm and 65 ms cold at a million names, its details
 * 60-80 ms; from this table one range of its minter index.
 *
 * Kept by statement triggers on registrations, so every writer (the chain sync, a repair, a test's
 * own rows) keeps it: an insert keeps the earlier of the stored mint and the new registrations
 * (a name's earliest registration wins whatever order they arrive in, and concurrent inserts only
 * lower it); an update or delete recomputes the names it touched; a truncate empties it. The seed
 * loads registrations with the insert trigger off and fills the table at once (seed.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    CREATE TABLE name_mints (
      ens_name_id bigint PRIMARY KEY,
      registration_id bigint NOT NULL,
      actor_address eth_address NOT NULL,
      block_time timestamptz NOT NULL,
      block_number bigint NOT NULL,
      log_index integer NOT NULL
    );
    INSERT INTO name_mints (ens_name_id, registration_id, actor_address, block_time, block_number, log_index)
      SELECT DISTINCT ON (ens_name_id) ens_name_id, id, actor_address, block_time, block_number, log_index FROM registrations
      WHERE kind = 'registration' ORDER BY ens_name_id, block_time, block_number, log_index, id;
    CREATE INDEX name_mints_actor_idx ON name_mints (actor_address, block_time);

    -- the earliest of each name's new registrations, kept where it is earlier than the stored mint
    CREATE FUNCTION name_mints_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO name_mints AS m (ens_name_id, registration_id, actor_address, block_time, block_number, log_index)
        SELECT DISTINCT ON (ens_name_id) ens_name_id, id, actor_address, block_time, block_number, log_index FROM new_rows
        WHERE kind = 'registration' ORDER BY ens_name_id, block_time, block_number, log_index, id
      ON CONFLICT (ens_name_id) DO UPDATE SET registration_id = excluded.registration_id, actor_address = excluded.actor_address,
        block_time = excluded.block_time, block_number = excluded.block_number, log_index = excluded.log_index
      WHERE (excluded.block_time, excluded.block_number, excluded.log_index, excluded.registration_id)
        < (m.block_time, m.block_number, m.log_index, m.registration_id);
      RETURN NULL;
    END $$;

    -- the mints of the names whose registrations changed or went, read again
    CREATE FUNCTION name_mints_recompute(names bigint[]) RETURNS void LANGUAGE sql AS $$
      DELETE FROM name_mints WHERE ens_name_id = ANY(names);
      INSERT INTO name_mints (ens_name_id, registration_id, actor_address, block_time, block_number, log_index)
        SELECT DISTINCT ON (ens_name_id) ens_name_id, id, actor_address, block_time, block_number, log_index FROM registrations
        WHERE ens_name_id = ANY(names) AND kind = 'registration' ORDER BY ens_name_id, block_time, block_number, log_index, id;
    $$;
    CREATE FUNCTION name_mints_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM name_mints_recompute(ARRAY(SELECT ens_name_id FROM old_rows UNION SELECT ens_name_id FROM new_rows));
      RETURN NULL;
    END $$;
    CREATE FUNCTION name_mints_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM name_mints_recompute(ARRAY(SELECT DISTINCT ens_name_id FROM old_rows));
      RETURN NULL;
    END $$;
    CREATE FUNCTION name_mints_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE name_mints;
      RETURN NULL;
    END $$;

    CREATE TRIGGER registrations_name_mints_ins AFTER INSERT ON registrations REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION name_mints_inserted();
    CREATE TRIGGER registrations_name_mints_upd AFTER UPDATE ON registrations REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION name_mints_updated();
    CREATE TRIGGER registrations_name_mints_del AFTER DELETE ON registrations REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION name_mints_deleted();
    CREATE TRIGGER registrations_name_mints_trunc AFTER TRUNCATE ON registrations FOR EACH STATEMENT EXECUTE FUNCTION name_mints_truncated();
  `.execute(db);
}

/** Analyzed once committed (migrateToLatest): an address's range is planned on the table's real size. */
export const vacuumAfter = ['name_mints'];

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS registrations_name_mints_ins ON registrations;
    DROP TRIGGER IF EXISTS registrations_name_mints_upd ON registrations;
    DROP TRIGGER IF EXISTS registrations_name_mints_del ON registrations;
    DROP TRIGGER IF EXISTS registrations_name_mints_trunc ON registrations;
    DROP FUNCTION IF EXISTS name_mints_inserted();
    DROP FUNCTION IF EXISTS name_mints_updated();
    DROP FUNCTION IF EXISTS name_mints_deleted();
    DROP FUNCTION IF EXISTS name_mints_truncated();
    DROP FUNCTION IF EXISTS name_mints_recompute(bigint[]);
    DROP TABLE IF EXISTS name_mints;
  `.execute(db);
}
