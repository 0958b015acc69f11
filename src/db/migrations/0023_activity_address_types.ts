import { sql, type Kysely } from 'kysely';

/**
 * An address's activity filtered by event type (`/activity/address/:a?event_type=sale`) read the
 * address's events and all events of the type as two bitmaps and intersected them: 26 ms for a
 * page and 45 ms for its capped count at an address with 42,000 events (3.5 million in the log).
 * With the type in the address indexes (INCLUDE), both walk the address's index in id order and
 * test the type in the index itself: 0.7 ms and 5 ms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // rebuilds two indexes over the log (3.5 million events at a million names: seconds each)
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX activity_events_actor_idx;
    CREATE INDEX activity_events_actor_idx ON activity_events (actor_address, id DESC) INCLUDE (event_type) WHERE actor_address IS NOT NULL;
    DROP INDEX activity_events_counterparty_idx;
    CREATE INDEX activity_events_counterparty_idx ON activity_events (counterparty_address, id DESC) INCLUDE (event_type) WHERE counterparty_address IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    DROP INDEX activity_events_actor_idx;
    CREATE INDEX activity_events_actor_idx ON activity_events (actor_address, id DESC) WHERE actor_address IS NOT NULL;
    DROP INDEX activity_events_counterparty_idx;
    CREATE INDEX activity_events_counterparty_idx ON activity_events (counterparty_address, id DESC) WHERE counterparty_address IS NOT NULL;
  `.execute(db);
}
