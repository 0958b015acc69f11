import { sql, type Kysely } from 'kysely';

/**
 * The analytics feeds of listings, offers and sales (`GET /analytics/listings|offers|sales`,
 * uncached for listings and offers) filter on period, status, source and clubs and sort by date or
 * price. Each row now carries its name's clubs, and the feeds' indexes carry every column they
 * filter on, so a page is a walk of one index (or of one per status, merged) that reads no table:
 * at a million names, warm, `listings?period=30d&status=expired&clubs=100k&sortBy=price` was
 * 336 ms (the price index walked with a heap fetch per listing, then each candidate's club looked
 * up), offers by amount with a status 100-210 ms.
 *
 * `clubs` is copied from the name when the row is written (the triggers that already copy the
 * name's expiry and owner; new for sales) and moved when the name's clubs change. The copy reads
 * the name FOR KEY SHARE, which a clubs change (locked FOR UPDATE first, 0047) waits for and
 * which waits for it: a row written while its name changes clubs gets the clubs that win.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE listings ADD COLUMN clubs text[] NOT NULL DEFAULT '{}';
    ALTER TABLE offers ADD COLUMN clubs text[] NOT NULL DEFAULT '{}';
    ALTER TABLE sales ADD COLUMN clubs text[] NOT NULL DEFAULT '{}';
    UPDATE listings l SET clubs = n.clubs FROM ens_names n WHERE n.id = l.ens_name_id AND n.clubs <> '{}';
    UPDATE offers o SET clubs = n.clubs FROM ens_names n WHERE n.id = o.ens_name_id AND n.clubs <> '{}';
    UPDATE sales s SET clubs = n.clubs FROM ens_names n WHERE n.id = s.ens_name_id AND n.clubs <> '{}';

    CREATE OR REPLACE FUNCTION listings_copy_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT name, expiry_date, clubs INTO NEW.ens_name, NEW.name_expiry_date, NEW.clubs FROM ens_names WHERE id = NEW.ens_name_id FOR KEY SHARE;
      RETURN NEW;
    END $$;
    CREATE OR REPLACE FUNCTION offers_copy_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT owner_address, clubs INTO NEW.name_owner_address, NEW.clubs FROM ens_names WHERE id = NEW.ens_name_id FOR KEY SHARE;
      RETURN NEW;
    END $$;
    CREATE FUNCTION sales_copy_clubs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT clubs INTO NEW.clubs FROM ens_names WHERE id = NEW.ens_name_id FOR KEY SHARE;
      RETURN NEW;
    END $$;
    CREATE TRIGGER sales_copy_clubs BEFORE INSERT OR UPDATE OF ens_name_id ON sales
      FOR EACH ROW EXECUTE FUNCTION sales_copy_clubs();

    CREATE FUNCTION ens_names_clubs_to_market() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listings SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      UPDATE offers SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      UPDATE sales SET clubs = NEW.clubs WHERE ens_name_id = NEW.id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ens_names_clubs_to_market AFTER UPDATE OF clubs ON ens_names
      FOR EACH ROW WHEN (OLD.clubs IS DISTINCT FROM NEW.clubs) EXECUTE FUNCTION ens_names_clubs_to_market();

    -- by time and by price, with and without a status: each with what the feeds filter on, and the
    -- time indexes with the price too (a short period is read by time and sorted by price)
    DROP INDEX listings_created_at_idx;
    CREATE INDEX listings_created_at_idx ON listings (created_at, id) INCLUDE (status, expires_at, source, clubs, price_wei);
    DROP INDEX listings_price_at_idx;
    CREATE INDEX listings_price_at_idx ON listings (price_wei, id) INCLUDE (status, expires_at, created_at, source, clubs);
    DROP INDEX listings_status_created_idx;
    CREATE INDEX listings_status_created_idx ON listings (status, created_at DESC, id DESC) INCLUDE (expires_at, name_expiry_date, source, clubs, price_wei);
    DROP INDEX listings_status_price_idx;
    CREATE INDEX listings_status_price_idx ON listings (status, price_wei, id) INCLUDE (expires_at, name_expiry_date, created_at, source, clubs);
    DROP INDEX offers_created_idx;
    CREATE INDEX offers_created_idx ON offers (created_at DESC, id DESC) INCLUDE (status, expires_at, source, clubs, offer_amount_wei);
    DROP INDEX offers_amount_at_idx;
    CREATE INDEX offers_amount_at_idx ON offers (offer_amount_wei, id) INCLUDE (status, expires_at, created_at, source, clubs);
    DROP INDEX offers_status_created_idx;
    CREATE INDEX offers_status_created_idx ON offers (status, created_at DESC, id DESC) INCLUDE (expires_at, source, clubs, offer_amount_wei);
    DROP INDEX offers_status_amount_idx;
    CREATE INDEX offers_status_amount_idx ON offers (status, offer_amount_wei, id) INCLUDE (expires_at, created_at, source, clubs);
    DROP INDEX sales_sold_at_idx;
    CREATE INDEX sales_sold_at_idx ON sales (sold_at, id) INCLUDE (source, clubs, price_wei);
    DROP INDEX sales_price_idx;
    CREATE INDEX sales_price_idx ON sales (price_wei, id) INCLUDE (sold_at, source, clubs);
  `.execute(db);
}

/** Rewritten in part: vacuumed once committed (migrateToLatest), so the feeds' walks read no table from the start. */
export const vacuumAfter = ['listings', 'offers', 'sales'];

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX sales_price_idx;
    CREATE INDEX sales_price_idx ON sales (price_wei, id);
    DROP INDEX sales_sold_at_idx;
    CREATE INDEX sales_sold_at_idx ON sales (sold_at, id);
    DROP INDEX offers_status_amount_idx;
    CREATE INDEX offers_status_amount_idx ON offers (status, offer_amount_wei, id) INCLUDE (expires_at);
    DROP INDEX offers_status_created_idx;
    CREATE INDEX offers_status_created_idx ON offers (status, created_at DESC, id DESC) INCLUDE (expires_at);
    DROP INDEX offers_amount_at_idx;
    CREATE INDEX offers_amount_at_idx ON offers (offer_amount_wei, id);
    DROP INDEX offers_created_idx;
    CREATE INDEX offers_created_idx ON offers (created_at DESC, id DESC);
    DROP INDEX listings_status_price_idx;
    CREATE INDEX listings_status_price_idx ON listings (status, price_wei, id) INCLUDE (expires_at, name_expiry_date);
    DROP INDEX listings_status_created_idx;
    CREATE INDEX listings_status_created_idx ON listings (status, created_at DESC, id DESC) INCLUDE (expires_at, name_expiry_date);
    DROP INDEX listings_price_at_idx;
    CREATE INDEX listings_price_at_idx ON listings (price_wei, id);
    DROP INDEX listings_created_at_idx;
    CREATE INDEX listings_created_at_idx ON listings (created_at, id);
    DROP TRIGGER IF EXISTS ens_names_clubs_to_market ON ens_names;
    DROP FUNCTION IF EXISTS ens_names_clubs_to_market();
    DROP TRIGGER IF EXISTS sales_copy_clubs ON sales;
    DROP FUNCTION IF EXISTS sales_copy_clubs();
    CREATE OR REPLACE FUNCTION offers_copy_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT owner_address INTO NEW.name_owner_address FROM ens_names WHERE id = NEW.ens_name_id;
      RETURN NEW;
    END $$;
    CREATE OR REPLACE FUNCTION listings_copy_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT name, expiry_date INTO NEW.ens_name, NEW.name_expiry_date FROM ens_names WHERE id = NEW.ens_name_id;
      RETURN NEW;
    END $$;
    ALTER TABLE sales DROP COLUMN clubs;
    ALTER TABLE offers DROP COLUMN clubs;
    ALTER TABLE listings DROP COLUMN clubs;
  `.execute(db);
}
