import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import { lockName } from './locks.js';

/**
 * The name-level summaries of the marketplace (`ens_names.highest_offer_*` and `listing_*`): the
 * only writer of those columns. Called by the state machine after each move, under the name's lock.
 */

export const notExpired = sql<boolean>`(expires_at IS NULL OR expires_at > now())`;

/**
 * Sets the name's highest offer (amount, currency, offer id) from its pending offers that have not
 * passed their end time; clears it when there is none. Locks the name row first, so concurrent
 * recalculations of one name serialise and the last one sees every committed change. Offers rank by
 * value in ETH (`eth_value_wei`, migration 0007: WETH 1:1, USDC at the latest ETH/USD price), then
 * by amount; ties go to the earliest offer. The stored amount stays in the offer's own currency.
 */
export async function recalculateHighestOffer(trx: Executor, ensNameId: number): Promise<void> {
  if (!(await lockName(trx, ensNameId))) return;
  const best = await trx
    .selectFrom('offers')
    .select(['id', 'offer_amount_wei', 'currency_address'])
    .where('ens_name_id', '=', ensNameId)
    .where('status', '=', 'pending')
    .where(notExpired)
    .orderBy(sql`eth_value_wei(offer_amount_wei, currency_address) DESC NULLS LAST`)
    .orderBy('offer_amount_wei', 'desc')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  await trx
    .updateTable('ens_names')
    .set({ highest_offer_wei: best?.offer_amount_wei ?? null, highest_offer_currency: best?.currency_address ?? null, highest_offer_id: best?.id ?? null, updated_at: sql`now()` })
    .where('id', '=', ensNameId)
    .where(sql<boolean>`(highest_offer_id, highest_offer_wei, highest_offer_currency) IS DISTINCT FROM (${best?.id ?? null}::bigint, ${best?.offer_amount_wei ?? null}::numeric, ${best?.currency_address ?? null}::text)`)
    .execute();
}

/**
 * Sets `listing_price_wei`, `listing_currency`, `listing_created_at` and `listing_expires_at` (its end
 * time, 'infinity' when none) of the name from its newest
 * active listing that has not passed its end time; clears them when there is none.
 * `listing_price_wei` is the price's value in ETH wei (search filters and sorts compare listings in
 * different currencies by it); the listing itself keeps its own price and currency.
 */
export async function refreshListingSummary(trx: Executor, ensNameId: number): Promise<void> {
  if (!(await lockName(trx, ensNameId))) return;
  const current = await trx
    .selectFrom('listings')
    .select([sql<string>`COALESCE(eth_value_wei(price_wei, currency_address), price_wei)`.as('price_wei'), 'currency_address', 'created_at', sql<Date>`COALESCE(expires_at, 'infinity')`.as('expires_at')])
    .where('ens_name_id', '=', ensNameId)
    .where('status', '=', 'active')
    .where(notExpired)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  await trx
    .updateTable('ens_names')
    .set({
      listing_price_wei: current?.price_wei ?? null, listing_currency: current?.currency_address ?? null, listing_created_at: current?.created_at ?? null,
      listing_expires_at: current?.expires_at ?? null, updated_at: sql`now()`,
    })
    .where('id', '=', ensNameId)
    .where(sql<boolean>`(listing_price_wei, listing_currency, listing_created_at, listing_expires_at)
      IS DISTINCT FROM (${current?.price_wei ?? null}::numeric, ${current?.currency_address ?? null}::text, ${current?.created_at ?? null}::timestamptz, ${current?.expires_at ?? null}::timestamptz)`)
    .execute();
}

/**
 * Set-based rebuild of every name's `highest_offer_*` and `listing_*` columns (seed and bulk
 * loaders, after writing orders directly). Same rules as recalculateHighestOffer and
 * refreshListingSummary.
 */
export async function refreshAllMarketSummaries(db: Executor): Promise<void> {
  await revalueListings(db);
  await sql`
    WITH best AS (
      SELECT DISTINCT ON (ens_name_id) ens_name_id, id, offer_amount_wei, currency_address
      FROM offers WHERE status = 'pending' AND (expires_at IS NULL OR expires_at > now())
      ORDER BY ens_name_id, eth_value_wei(offer_amount_wei, currency_address) DESC NULLS LAST, offer_amount_wei DESC, created_at ASC, id ASC
    )
    UPDATE ens_names n SET highest_offer_wei = b.offer_amount_wei, highest_offer_currency = b.currency_address, highest_offer_id = b.id
    FROM best b
    WHERE n.id = b.ens_name_id
      AND (n.highest_offer_id, n.highest_offer_wei, n.highest_offer_currency) IS DISTINCT FROM (b.id, b.offer_amount_wei::numeric, b.currency_address::text)
  `.execute(db);
  await sql`
    UPDATE ens_names n SET highest_offer_wei = NULL, highest_offer_currency = NULL, highest_offer_id = NULL
    WHERE n.highest_offer_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM offers o WHERE o.ens_name_id = n.id AND o.status = 'pending' AND (o.expires_at IS NULL OR o.expires_at > now()))
  `.execute(db);
  await sql`
    WITH cur AS (
      SELECT DISTINCT ON (ens_name_id) ens_name_id, COALESCE(eth_value_wei(price_wei, currency_address), price_wei) AS price_wei, currency_address, created_at,
        COALESCE(expires_at, 'infinity') AS expires_at
      FROM listings WHERE status = 'active' AND (expires_at IS NULL OR expires_at > now())
      ORDER BY ens_name_id, created_at DESC, id DESC
    )
    UPDATE ens_names n SET listing_price_wei = c.price_wei, listing_currency = c.currency_address, listing_created_at = c.created_at, listing_expires_at = c.expires_at
    FROM cur c
    WHERE n.id = c.ens_name_id
      AND (n.listing_price_wei, n.listing_currency, n.listing_created_at, n.listing_expires_at) IS DISTINCT FROM (c.price_wei::numeric, c.currency_address::text, c.created_at, c.expires_at)
  `.execute(db);
  await sql`
    UPDATE ens_names n SET listing_price_wei = NULL, listing_currency = NULL, listing_created_at = NULL, listing_expires_at = NULL
    WHERE n.listing_created_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM listings l WHERE l.ens_name_id = n.id AND l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now()))
  `.execute(db);
}

/**
 * After a new ETH/USD price: the live listings priced in a USD-pegged currency get their value in
 * ETH (`listings.value_wei`, 0020) again, so GET /listings' price sort and range follow the price.
 * Bounded by the live USD listings (one indexed pass); the other currencies' values never move.
 */
export async function revalueListings(db: Executor): Promise<number> {
  const result = await sql`
    UPDATE listings SET value_wei = trunc(eth_value_wei(price_wei, currency_address))
    WHERE status IN ('active', 'unfunded')
      AND currency_address IN (SELECT address FROM currencies WHERE peg = 'usd')
      AND value_wei IS DISTINCT FROM trunc(eth_value_wei(price_wei, currency_address))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
