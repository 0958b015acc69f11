import { sql, type Kysely } from 'kysely';

/**
 * A change counter of the listings and offers tables, for the analytics feeds' kept pages
 * (AnalyticsService.marketFeed): every statement that writes either table takes the next value,
 * whoever runs it (the API, the sync, the sweeps, a script). A sequence, not a row: a writer never
 * waits for another, and a reader's `last_value` is one page of a relation. Its value is seen
 * before the writer commits; a page computed in between is kept at most its second
 * (MARKET_FEED_MS).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE SEQUENCE market_feed_changes;
    CREATE FUNCTION market_feed_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM nextval('market_feed_changes');
      RETURN NULL;
    END $$;
    CREATE TRIGGER listings_feed_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON listings FOR EACH STATEMENT EXECUTE FUNCTION market_feed_changed();
    CREATE TRIGGER offers_feed_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offers FOR EACH STATEMENT EXECUTE FUNCTION market_feed_changed();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER listings_feed_changed ON listings;
    DROP TRIGGER offers_feed_changed ON offers;
    DROP FUNCTION market_feed_changed();
    DROP SEQUENCE market_feed_changes;
  `.execute(db);
}
