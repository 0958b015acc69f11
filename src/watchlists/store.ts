import { sql, type Transaction } from 'kysely';
import type { Executor } from '../db/client.js';
import type { Database } from '../db/schema.js';
import { addWatchers } from '../db/repositories/ens-names.repository.js';
import { bumpTrends } from '../trends/index.js';

/**
 * The one writer of `watchlists`, `watchlist_items` and `ens_names.watchers_count`. Every write
 * runs under the user's watchlist lock (`lockUser`), so a user's counts, limits and default list
 * never race with the same user's other requests; different users never wait for one another
 * except on the name rows whose watcher counts they move.
 */

export const DEFAULT_LIST_NAME = 'Watchlist';

export type Trx = Transaction<Database>;

export interface ItemRow {
  id: number;
  list_id: number;
  user_id: number;
  ens_name_id: number;
  notify_on_sale: boolean;
  notify_on_offer: boolean;
  notify_on_listing: boolean;
  notify_on_price_change: boolean;
  min_offer_threshold: string | null;
  premium_alert_below_wei: string | null;
  created_at: Date;
}

export const ITEM_COLUMNS = [
  'watchlist_items.id', 'watchlist_items.list_id', 'watchlist_items.user_id', 'watchlist_items.ens_name_id',
  'watchlist_items.notify_on_sale', 'watchlist_items.notify_on_offer', 'watchlist_items.notify_on_listing',
  'watchlist_items.notify_on_price_change', 'watchlist_items.min_offer_threshold', 'watchlist_items.premium_alert_below_wei',
  'watchlist_items.created_at',
] as const;

export interface ItemPrefs {
  notifyOnSale?: boolean;
  notifyOnOffer?: boolean;
  notifyOnListing?: boolean;
  notifyOnPriceChange?: boolean;
  minOfferThreshold?: number | null;
  premiumAlertBelowWei?: string | null;
}

/** The columns a preferences object sets (only the fields present). */
export function prefColumns(p: ItemPrefs) {
  return {
    ...(p.notifyOnSale !== undefined ? { notify_on_sale: p.notifyOnSale } : {}),
    ...(p.notifyOnOffer !== undefined ? { notify_on_offer: p.notifyOnOffer } : {}),
    ...(p.notifyOnListing !== undefined ? { notify_on_listing: p.notifyOnListing } : {}),
    ...(p.notifyOnPriceChange !== undefined ? { notify_on_price_change: p.notifyOnPriceChange } : {}),
    ...(p.minOfferThreshold !== undefined ? { min_offer_threshold: p.minOfferThreshold === null ? null : String(p.minOfferThreshold) } : {}),
    ...(p.premiumAlertBelowWei !== undefined ? { premium_alert_below_wei: p.premiumAlertBelowWei } : {}),
  };
}

/** Serialises the user's watchlist writes until the transaction ends. */
export async function lockUser(trx: Executor, userId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('watchlists'), ${userId % 2_147_483_647}::int)`.execute(trx);
}

/** The user's default list, made on first use (call under `lockUser` when writing). */
export async function defaultListId(trx: Executor, userId: number): Promise<number> {
  const found = await trx.selectFrom('watchlists').select('id').where('user_id', '=', userId).where('is_default', '=', true).executeTakeFirst();
  if (found) return found.id;
  await sql`INSERT INTO watchlists (user_id, name, is_default) VALUES (${userId}, ${DEFAULT_LIST_NAME}, true) ON CONFLICT DO NOTHING`.execute(trx);
  const made = await trx.selectFrom('watchlists').select('id').where('user_id', '=', userId).where('is_default', '=', true).executeTakeFirst();
  if (made) return made.id;
  // A named list already holds the name "Watchlist": the default takes a free variant.
  for (let n = 2; ; n++) {
    const r = await sql<{ id: number }>`INSERT INTO watchlists (user_id, name, is_default) VALUES (${userId}, ${`${DEFAULT_LIST_NAME} ${n}`}, true) ON CONFLICT DO NOTHING RETURNING id`.execute(trx);
    if (r.rows[0]) return r.rows[0].id;
  }
}

/**
 * Inserts watches of names on one list; names already on it are left alone. Keeps the list's
 * item count, each name's watcher count (a user counts once per name, whatever the lists) and the
 * `watchlist` trend counter (one per entry, in the hour it was added). Returns the new rows.
 */
export async function insertItems(trx: Trx, userId: number, listId: number, nameIds: readonly number[], prefs: ItemPrefs = {}): Promise<ItemRow[]> {
  if (nameIds.length === 0) return [];
  const watched = await watchedAmong(trx, userId, nameIds);
  const cols = prefColumns(prefs);
  const rows = await trx
    .insertInto('watchlist_items')
    .values([...nameIds].sort((a, b) => a - b).map((id) => ({ list_id: listId, user_id: userId, ens_name_id: id, ...cols })))
    .onConflict((oc) => oc.columns(['list_id', 'ens_name_id']).doNothing())
    .returning(ITEM_COLUMNS.map((c) => c.replace('watchlist_items.', '')) as never)
    .execute() as unknown as ItemRow[];
  if (rows.length === 0) return rows;
  await trx.updateTable('watchlists').set({ item_count: sql`item_count + ${rows.length}`, updated_at: sql`now()` }).where('id', '=', listId).execute();
  await addWatchers(trx, new Map(rows.filter((r) => !watched.has(r.ens_name_id)).map((r) => [r.ens_name_id, 1])));
  await bumpTrends(trx, rows.map((r) => ({ metric: 'watchlist' as const, nameId: r.ens_name_id, at: r.created_at, delta: 1 })));
  return rows;
}

/**
 * Deletes entries of the user (by id, or every entry of a list) and undoes what adding them did:
 * list item counts, watcher counts of names the user no longer watches on any list, and the
 * trend counter of each entry's hour. Returns the deleted rows.
 */
export async function deleteItems(trx: Trx, userId: number, which: { ids: readonly number[] } | { listId: number }): Promise<ItemRow[]> {
  let q = trx.deleteFrom('watchlist_items').where('user_id', '=', userId);
  q = 'ids' in which ? q.where('id', 'in', which.ids.length > 0 ? [...which.ids] : [0]) : q.where('list_id', '=', which.listId);
  const rows = await q.returning(ITEM_COLUMNS.map((c) => c.replace('watchlist_items.', '')) as never).execute() as unknown as ItemRow[];
  if (rows.length === 0) return rows;
  const perList = new Map<number, number>();
  for (const r of rows) perList.set(r.list_id, (perList.get(r.list_id) ?? 0) + 1);
  for (const [listId, n] of [...perList].sort((a, b) => a[0] - b[0])) {
    await trx.updateTable('watchlists').set({ item_count: sql`item_count - ${n}`, updated_at: sql`now()` }).where('id', '=', listId).execute();
  }
  const nameIds = [...new Set(rows.map((r) => r.ens_name_id))];
  const still = await watchedAmong(trx, userId, nameIds);
  await addWatchers(trx, new Map(nameIds.filter((id) => !still.has(id)).map((id) => [id, -1])));
  await bumpTrends(trx, rows.map((r) => ({ metric: 'watchlist' as const, nameId: r.ens_name_id, at: r.created_at, delta: -1 })));
  return rows;
}

/** Which of `nameIds` the user watches on some list. */
async function watchedAmong(trx: Executor, userId: number, nameIds: readonly number[]): Promise<Set<number>> {
  if (nameIds.length === 0) return new Set();
  const rows = await trx.selectFrom('watchlist_items').select('ens_name_id').distinct()
    .where('user_id', '=', userId).where('ens_name_id', 'in', [...nameIds]).execute();
  return new Set(rows.map((r) => r.ens_name_id));
}
