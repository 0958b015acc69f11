import type { Executor } from '../db/client.js';

/**
 * The lock order of the order domain (deadlock avoidance): the ens_names row first (FOR NO KEY
 * UPDATE; several names in id order), then the rows of its listings and offers (FOR UPDATE).
 * Only the state machine (state.ts, fills.ts, endings.ts, user-moves.ts, summaries.ts) takes these locks.
 */

export interface LockedName {
  id: number;
  name: string;
  owner_address: string | null;
}

const LISTING_COLUMNS = ['id', 'ens_name_id', 'seller_address', 'price_wei', 'currency_address', 'order_hash', 'status', 'expires_at'] as const;
const OFFER_COLUMNS = ['id', 'ens_name_id', 'buyer_address', 'offer_amount_wei', 'currency_address', 'order_hash', 'status', 'expires_at'] as const;

/** Locks one name row and returns it; undefined when it does not exist. */
export async function lockName(trx: Executor, ensNameId: number): Promise<LockedName | undefined> {
  return trx.selectFrom('ens_names').select(['id', 'name', 'owner_address']).where('id', '=', ensNameId).forNoKeyUpdate().executeTakeFirst();
}

/** Locks several name rows in id order (the order every multi-name writer uses). */
export async function lockNames(trx: Executor, ensNameIds: Iterable<number>): Promise<Map<number, LockedName>> {
  const ids = [...new Set(ensNameIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('ens_names').select(['id', 'name', 'owner_address']).where('id', 'in', ids).orderBy('id').forNoKeyUpdate().execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The listing's name row, then the listing row. */
export async function lockListing(trx: Executor, listingId: number) {
  const ref = await trx.selectFrom('listings').select('ens_name_id').where('id', '=', listingId).executeTakeFirst();
  if (!ref) return undefined;
  const name = await lockName(trx, ref.ens_name_id);
  const listing = await trx.selectFrom('listings').select(LISTING_COLUMNS).where('id', '=', listingId).forUpdate().executeTakeFirst();
  return name && listing ? { name, listing } : undefined;
}

/** The offer's name row, then the offer row. */
export async function lockOffer(trx: Executor, offerId: number) {
  const ref = await trx.selectFrom('offers').select('ens_name_id').where('id', '=', offerId).executeTakeFirst();
  if (!ref) return undefined;
  const name = await lockName(trx, ref.ens_name_id);
  const offer = await trx.selectFrom('offers').select(OFFER_COLUMNS).where('id', '=', offerId).forUpdate().executeTakeFirst();
  return name && offer ? { name, offer } : undefined;
}
