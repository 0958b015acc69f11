import { sql, type Kysely } from 'kysely';

/**
 * Marketplace: what GET /listings, the offer updates and the order jobs need beyond 0001.
 *
 * - `listings.ens_name` and `listings.name_expiry_date` copy the name and its expiry onto each
 *   listing, so that the listings page can filter ("names past grace are excluded"), sort by name
 *   and count on one table's indexes instead of joining a million names. Triggers keep the copies
 *   right whoever writes (API, seed, chain sync): the name is copied on insert (names never change
 *   for an id) and a changed expiry is pushed to the name's listings.
 * - At most one active listing per seller and name: a new listing replaces the old one, and the
 *   unique index makes two concurrent requests unable to leave two.
 * - Count-friendly indexes (INCLUDE the filter columns, so counts are index-only scans), the
 *   oldest-first queues of the funds/ownership re-check job, and the owner's name ids in the owner
 *   index (offers on names someone owns).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE listings ADD COLUMN ens_name text, ADD COLUMN name_expiry_date timestamptz;
    UPDATE listings l SET ens_name = n.name, name_expiry_date = n.expiry_date FROM ens_names n WHERE n.id = l.ens_name_id;

    CREATE FUNCTION listings_copy_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT name, expiry_date INTO NEW.ens_name, NEW.name_expiry_date FROM ens_names WHERE id = NEW.ens_name_id;
      RETURN NEW;
    END $$;
    CREATE TRIGGER listings_copy_name BEFORE INSERT OR UPDATE OF ens_name_id ON listings
      FOR EACH ROW EXECUTE FUNCTION listings_copy_name();

    CREATE FUNCTION ens_names_expiry_to_listings() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listings SET name_expiry_date = NEW.expiry_date WHERE ens_name_id = NEW.id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ens_names_expiry_to_listings AFTER UPDATE OF expiry_date ON ens_names
      FOR EACH ROW WHEN (OLD.expiry_date IS DISTINCT FROM NEW.expiry_date) EXECUTE FUNCTION ens_names_expiry_to_listings();

    CREATE UNIQUE INDEX listings_one_active_idx ON listings (ens_name_id, seller_address) WHERE status = 'active';

    DROP INDEX listings_status_price_idx;
    CREATE INDEX listings_status_price_idx ON listings (status, price_wei, id) INCLUDE (expires_at, name_expiry_date);
    DROP INDEX listings_status_expires_idx;
    CREATE INDEX listings_status_expires_idx ON listings (status, expires_at, id) INCLUDE (name_expiry_date);
    CREATE INDEX listings_status_name_idx ON listings (status, ens_name, id) INCLUDE (expires_at, name_expiry_date);
    DROP INDEX listings_status_created_idx;
    CREATE INDEX listings_status_created_idx ON listings (status, created_at DESC, id DESC) INCLUDE (expires_at, name_expiry_date);

    CREATE INDEX listings_validation_idx ON listings (last_validated_at NULLS FIRST, id) WHERE status IN ('active', 'unfunded');
    CREATE INDEX offers_validation_idx ON offers (last_validated_at NULLS FIRST, id) WHERE status IN ('pending', 'unfunded');
    CREATE INDEX offers_status_created_idx ON offers (status, created_at DESC, id DESC) INCLUDE (expires_at);
    CREATE INDEX offers_status_amount_idx ON offers (status, offer_amount_wei, id) INCLUDE (expires_at);

    CREATE INDEX cart_items_user_idx ON cart_items (user_id, created_at DESC, id DESC);

    -- "offers on names an address owns": the owner's name ids straight from the index
    DROP INDEX ens_names_owner_idx;
    CREATE INDEX ens_names_owner_idx ON ens_names (owner_address, expiry_date) INCLUDE (id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS ens_names_owner_idx;
    CREATE INDEX ens_names_owner_idx ON ens_names (owner_address, expiry_date);
    DROP INDEX IF EXISTS listings_status_created_idx;
    CREATE INDEX listings_status_created_idx ON listings (status, created_at DESC, id DESC);
    DROP INDEX IF EXISTS cart_items_user_idx, offers_status_amount_idx, offers_status_created_idx, offers_validation_idx, listings_validation_idx,
      listings_status_name_idx, listings_one_active_idx;
    DROP INDEX IF EXISTS listings_status_expires_idx;
    CREATE INDEX listings_status_expires_idx ON listings (status, expires_at, id);
    DROP INDEX IF EXISTS listings_status_price_idx;
    CREATE INDEX listings_status_price_idx ON listings (status, price_wei, id);
    DROP TRIGGER IF EXISTS ens_names_expiry_to_listings ON ens_names;
    DROP TRIGGER IF EXISTS listings_copy_name ON listings;
    DROP FUNCTION IF EXISTS ens_names_expiry_to_listings();
    DROP FUNCTION IF EXISTS listings_copy_name();
    ALTER TABLE listings DROP COLUMN IF EXISTS ens_name, DROP COLUMN IF EXISTS name_expiry_date;
  `.execute(db);
}
