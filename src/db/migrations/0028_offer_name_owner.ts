import { sql, type Kysely } from 'kysely';

/**
 * The offers on names someone owns (`GET /offers?owner=`, what the web app shows as offers
 * received) read from one index in page order. Until now they were the owner's names joined to
 * their offers: a page of an owner of 13,090 names walked the offers newest first and looked up each
 * one's name (150-250 ms at a million names), or probed each of the 13,090 names.
 *
 * `offers.name_owner_address` copies the current owner of the offer's name onto the offer, kept right
 * by triggers whoever writes (API, seed, chain sync), as 0002 does for the listings' names: copied on
 * insert, and a name's new owner pushed to its offers. Copying onto existing offers writes each
 * one again (22 s for 130,000 offers on a loaded machine, once, at the start-up that migrates).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE offers ADD COLUMN name_owner_address eth_address;
    UPDATE offers o SET name_owner_address = n.owner_address FROM ens_names n WHERE n.id = o.ens_name_id AND n.owner_address IS NOT NULL;

    CREATE FUNCTION offers_copy_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT owner_address INTO NEW.name_owner_address FROM ens_names WHERE id = NEW.ens_name_id;
      RETURN NEW;
    END $$;
    CREATE TRIGGER offers_copy_owner BEFORE INSERT OR UPDATE OF ens_name_id ON offers
      FOR EACH ROW EXECUTE FUNCTION offers_copy_owner();

    CREATE FUNCTION ens_names_owner_to_offers() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE offers SET name_owner_address = NEW.owner_address WHERE ens_name_id = NEW.id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ens_names_owner_to_offers AFTER UPDATE OF owner_address ON ens_names
      FOR EACH ROW WHEN (OLD.owner_address IS DISTINCT FROM NEW.owner_address) EXECUTE FUNCTION ens_names_owner_to_offers();

    CREATE INDEX offers_owner_created_idx ON offers (name_owner_address, created_at DESC, id DESC) INCLUDE (status, expires_at, offer_amount_wei)
      WHERE name_owner_address IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER IF EXISTS ens_names_owner_to_offers ON ens_names;
    DROP FUNCTION IF EXISTS ens_names_owner_to_offers();
    DROP TRIGGER IF EXISTS offers_copy_owner ON offers;
    DROP FUNCTION IF EXISTS offers_copy_owner();
    ALTER TABLE offers DROP COLUMN IF EXISTS name_owner_address;
  `.execute(db);
}
