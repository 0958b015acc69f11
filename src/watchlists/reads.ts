import type { Executor } from '../db/client.js';
import { ITEM_COLUMNS, type ItemRow } from './store.js';

export type EntryRow = ItemRow & { list_name: string; is_default: boolean };

/** The user's entries for each of `nameIds` (oldest first): search results and name pages read them. */
export async function entriesOf(db: Executor, userId: number, nameIds: readonly number[]): Promise<Map<number, EntryRow[]>> {
  const out = new Map<number, EntryRow[]>();
  if (nameIds.length === 0) return out;
  const rows = await db.selectFrom('watchlist_items')
    .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.list_id')
    .select([...ITEM_COLUMNS, 'watchlists.name as list_name', 'watchlists.is_default'])
    .where('watchlist_items.user_id', '=', userId).where('watchlist_items.ens_name_id', 'in', [...nameIds])
    .orderBy('watchlist_items.created_at').orderBy('watchlist_items.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.ens_name_id) ?? [];
    list.push(r);
    out.set(r.ens_name_id, list);
  }
  return out;
}
