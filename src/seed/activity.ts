import { sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { park, restoreParked } from './bulk.js';

/**
 * The activity log of the seeded market, derived from its rows in one statement, oldest first (so
 * sequence ids follow time): registrations and renewals (platform ens), sales (grails or the
 * outside marketplace), listings placed, offers made and votes cast. Returns the rows written.
 */
export async function seedActivity(db: Db, pool: pg.Pool): Promise<number> {
  // the log's indexes are built once after the load, not row by row
  await park(pool, 'activity_events');
  const rows = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = 0`.execute(trx);
    const result = await sql`
      INSERT INTO activity_events (event_type, ens_name_id, actor_address, counterparty_address, price_wei, currency_address, platform,
        transaction_hash, block_number, log_index, metadata, created_at)
      SELECT * FROM (
        SELECT kind, ens_name_id, actor_address, NULL::text, cost_wei, '0x0000000000000000000000000000000000000000', 'ens',
          tx_hash, block_number, log_index, jsonb_build_object('expiry_date', expiry_date), block_time
        FROM registrations WHERE kind IN ('registration', 'renewal')
        UNION ALL
        SELECT 'sale', ens_name_id, seller_address, buyer_address, price_wei, currency_address, CASE WHEN source = 'grails' THEN 'grails' ELSE 'seaport' END,
          tx_hash, NULL, log_index, jsonb_build_object('source', source, 'listing_id', listing_id, 'offer_id', offer_id), sold_at
        FROM sales
        UNION ALL
        SELECT 'listed', ens_name_id, seller_address, NULL, price_wei, currency_address, 'grails', NULL, NULL, NULL, jsonb_build_object('listing_id', id), created_at
        FROM listings
        UNION ALL
        SELECT 'offer_made', ens_name_id, buyer_address, NULL, offer_amount_wei, currency_address, 'grails', NULL, NULL, NULL, jsonb_build_object('offer_id', id), created_at
        FROM offers
        UNION ALL
        SELECT 'vote', v.ens_name_id, u.address, NULL, NULL, NULL, 'grails', NULL, NULL, NULL, jsonb_build_object('vote', v.vote, 'previous_vote', v.previous_vote), v.cast_at
        FROM vote_events v JOIN users u ON u.id = v.user_id
      ) e (event_type, ens_name_id, actor, counterparty, price, currency, platform, tx, block, log_index, metadata, at)
      ORDER BY at
      ON CONFLICT DO NOTHING`.execute(trx);
    return Number(result.numAffectedRows ?? 0n);
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL statement_timeout = 0');
    await restoreParked(client);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  return rows;
}
