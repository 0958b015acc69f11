import { sql, type Kysely } from 'kysely';

const TYPES = [
  'listed', 'listing_updated', 'listing_cancelled', 'listing_expired', 'listing_unfunded', 'sale',
  'offer_made', 'offer_updated', 'offer_accepted', 'offer_cancelled', 'offer_expired', 'offer_unfunded',
  'registration', 'renewal', 'transfer', 'grace_started', 'released', 'vote',
];

/**
 * Two more kinds of order events in the activity log, and the chain key of events of orders.
 *
 * - `listing_restored` and `offer_restored`: an unfunded listing or offer live again (active,
 *   pending) because the funds, the approval or the name came back.
 * - Cancels seen on chain carry their transaction, block and log index like sales. One
 *   CounterIncremented log cancels every older order of its offerer, several of them possibly of one
 *   name (a buyer's two offers): the chain key of an event (`activity_events_chain_idx`, which makes
 *   a replayed block range append nothing) now also holds the order (metadata listing_id or
 *   offer_id, '' for events of no order), so each order keeps its own event.
 *
 * The type check is added NOT VALID: the rows stored were checked against the old list, a subset.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // the index is rebuilt over every chain event (3 million at a million names)
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  const types = [...TYPES, 'listing_restored', 'offer_restored'];
  await sql`
    ALTER TABLE activity_events DROP CONSTRAINT activity_events_event_type_check;
    ALTER TABLE activity_events ADD CONSTRAINT activity_events_event_type_check CHECK (event_type IN (${sql.join(types.map((t) => sql.lit(t)))})) NOT VALID;
    DROP INDEX activity_events_chain_idx;
    CREATE UNIQUE INDEX activity_events_chain_idx
      ON activity_events (transaction_hash, log_index, ens_name_id, event_type, (coalesce(metadata->>'listing_id', metadata->>'offer_id', '')))
      WHERE transaction_hash IS NOT NULL AND log_index IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`
    ALTER TABLE activity_events DROP CONSTRAINT activity_events_event_type_check;
    ALTER TABLE activity_events ADD CONSTRAINT activity_events_event_type_check CHECK (event_type IN (${sql.join(TYPES.map((t) => sql.lit(t)))})) NOT VALID;
    DROP INDEX activity_events_chain_idx;
    CREATE UNIQUE INDEX activity_events_chain_idx ON activity_events (transaction_hash, log_index, ens_name_id, event_type)
      WHERE transaction_hash IS NOT NULL AND log_index IS NOT NULL;
  `.execute(db);
}
