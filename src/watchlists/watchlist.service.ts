import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { InvalidNameError, normalizeEthName } from '../lib/ens.js';
import { offsetOf, pageB } from '../lib/pagination.js';
import { iso } from '../lib/time.js';
import { weiString } from '../lib/wei.js';
import { MAX_NAMED_LISTS } from '../contracts/watchlist.js';
import type { Executor } from '../db/client.js';
import {
  defaultListId, deleteItems, insertItems, ITEM_COLUMNS, lockUser, prefColumns, type ItemPrefs, type ItemRow, type Trx,
} from './store.js';
import { currencyFields } from '../lib/currencies.js';

/** An entry's preferences as the reference names them. */
export function prefsOf(r: ItemRow) {
  return {
    notifyOnSale: r.notify_on_sale,
    notifyOnOffer: r.notify_on_offer,
    notifyOnListing: r.notify_on_listing,
    notifyOnPriceChange: r.notify_on_price_change,
    minOfferThreshold: r.min_offer_threshold === null ? null : Number(r.min_offer_threshold),
    premiumAlertBelowWei: r.premium_alert_below_wei === null ? null : weiString(r.premium_alert_below_wei),
  };
}

function toItem(r: ItemRow, ensName: string) {
  return { id: r.id, userId: r.user_id, ensNameId: r.ens_name_id, ensName, listId: r.list_id, ...prefsOf(r), addedAt: iso(r.created_at)! };
}

interface ListRow { id: number; user_id: number; name: string; is_default: boolean; item_count: number; created_at: Date; updated_at: Date }

const toList = (l: ListRow) => ({ id: l.id, name: l.name, isDefault: l.is_default, itemCount: l.item_count, createdAt: iso(l.created_at)!, updatedAt: iso(l.updated_at)! });

const LIST_COLUMNS = ['id', 'user_id', 'name', 'is_default', 'item_count', 'created_at', 'updated_at'] as const;

function normalizedName(input: string, field: string): string {
  try {
    return normalizeEthName(input);
  } catch (e) {
    if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', `Invalid ENS name: ${e.message}`, { field });
    throw e;
  }
}

function listName(input: string): string {
  const name = input.trim();
  if (name.length === 0 || name.length > 100) throw new AppError('VALIDATION_ERROR', 'body.name must be 1 to 100 characters after trimming', { field: 'body.name' });
  return name;
}

const isUniqueViolation = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';

/**
 * Watchlists: named lists per user (one default, made on first use, never deleted or renamed)
 * and the names on them with their notification flags. A user only ever sees and changes their
 * own lists and entries: another user's list is 403 (rename, delete) or 404 LIST_NOT_FOUND (as a
 * target), another user's entry 403.
 */
export class WatchlistService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  private write<T>(userId: number, work: (trx: Trx) => Promise<T>): Promise<T> {
    return this.deps.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      return work(trx);
    });
  }

  async lists(userId: number) {
    const { db } = this.deps;
    let rows = await db.selectFrom('watchlists').select(LIST_COLUMNS).where('user_id', '=', userId).orderBy('is_default', 'desc').orderBy('id').execute();
    if (!rows.some((r) => r.is_default)) {
      await this.write(userId, (trx) => defaultListId(trx, userId));
      rows = await db.selectFrom('watchlists').select(LIST_COLUMNS).where('user_id', '=', userId).orderBy('is_default', 'desc').orderBy('id').execute();
    }
    return { lists: rows.map(toList) };
  }

  async createList(userId: number, rawName: string) {
    const name = listName(rawName);
    return this.write(userId, async (trx) => {
      await defaultListId(trx, userId);
      const named = await trx.selectFrom('watchlists').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('is_default', '=', false).executeTakeFirstOrThrow();
      if (Number(named.n) >= MAX_NAMED_LISTS) throw new AppError('LIST_LIMIT_REACHED', `At most ${MAX_NAMED_LISTS} lists besides the default one`);
      const row = await trx.insertInto('watchlists').values({ user_id: userId, name }).onConflict((oc) => oc.doNothing()).returning(LIST_COLUMNS).executeTakeFirst();
      if (!row) throw new AppError('DUPLICATE_LIST_NAME', `You already have a list named ${name}`, { field: 'body.name' });
      return toList(row);
    });
  }

  /** The caller's list, for a change: 404 NOT_FOUND when it does not exist, 403 when it is someone else's. */
  private async ownList(trx: Executor, userId: number, listId: number): Promise<ListRow> {
    const row = await trx.selectFrom('watchlists').select(LIST_COLUMNS).where('id', '=', listId).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'List not found');
    if (row.user_id !== userId) throw new AppError('FORBIDDEN', 'That list belongs to another user');
    return row;
  }

  async renameList(userId: number, listId: number, rawName: string) {
    const name = listName(rawName);
    return this.write(userId, async (trx) => {
      const list = await this.ownList(trx, userId, listId);
      if (list.is_default) throw new AppError('CANNOT_RENAME_DEFAULT', 'The default watchlist keeps its name');
      try {
        const row = await trx.updateTable('watchlists').set({ name, updated_at: sql`now()` }).where('id', '=', listId).returning(LIST_COLUMNS).executeTakeFirstOrThrow();
        return { id: row.id, name: row.name, isDefault: row.is_default, updatedAt: iso(row.updated_at)! };
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('DUPLICATE_LIST_NAME', `You already have a list named ${name}`, { field: 'body.name' });
        throw e;
      }
    });
  }

  async deleteList(userId: number, listId: number) {
    return this.write(userId, async (trx) => {
      const list = await this.ownList(trx, userId, listId);
      if (list.is_default) throw new AppError('CANNOT_DELETE_DEFAULT', 'The default watchlist cannot be deleted');
      await deleteItems(trx, userId, { listId });
      await trx.deleteFrom('watchlists').where('id', '=', listId).execute();
      return { message: 'List deleted' };
    });
  }

  /** The target list of an item write: the given one if it is the caller's (else 404 LIST_NOT_FOUND), or the default. */
  private async targetList(trx: Executor, userId: number, listId: number | undefined): Promise<{ id: number; name: string }> {
    const id = listId ?? await defaultListId(trx, userId);
    const row = await trx.selectFrom('watchlists').select(['id', 'name']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new AppError('LIST_NOT_FOUND', 'List not found', { field: 'listId' });
    return row;
  }

  /** Adds a name, or updates the preferences sent when it is already on the list. */
  async add(userId: number, input: { ensName: string; listId?: number } & ItemPrefs) {
    const name = normalizedName(input.ensName, 'body.ensName');
    return this.write(userId, async (trx) => {
      const list = await this.targetList(trx, userId, input.listId);
      const target = await trx.selectFrom('ens_names').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
      if (!target) throw new AppError('ENS_NAME_NOT_FOUND', `${name} is not in the marketplace`);
      const [added] = await insertItems(trx, userId, list.id, [target.id], input);
      if (added) return toItem(added, target.name);
      // already on the list: the preferences sent change (and its update time); none sent, it stays as it is
      const changes = prefColumns(input);
      const set = Object.keys(changes).length === 0 ? { updated_at: sql<Date>`updated_at` } : { ...changes, updated_at: sql<Date>`now()` };
      const row = await trx.updateTable('watchlist_items').set(set).where('list_id', '=', list.id).where('ens_name_id', '=', target.id).returning(ITEM_COLUMNS.map((c) => c.replace('watchlist_items.', '')) as never).executeTakeFirstOrThrow() as unknown as ItemRow;
      return toItem(row, target.name);
    });
  }

  /** The caller's entry, for a change: 404 NOT_FOUND, 403 FORBIDDEN for someone else's. */
  private async ownItem(trx: Executor, userId: number, id: number): Promise<ItemRow> {
    const row = await trx.selectFrom('watchlist_items').select(ITEM_COLUMNS).where('watchlist_items.id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'Watchlist entry not found');
    if (row.user_id !== userId) throw new AppError('FORBIDDEN', 'That entry belongs to another user');
    return row;
  }

  async update(userId: number, id: number, prefs: ItemPrefs) {
    const changes = prefColumns(prefs);
    if (Object.keys(changes).length === 0) throw new AppError('NO_UPDATES', 'Send at least one field to change');
    return this.write(userId, async (trx) => {
      await this.ownItem(trx, userId, id);
      const row = await trx.updateTable('watchlist_items').set({ ...changes, updated_at: sql`now()` }).where('id', '=', id)
        .returning(ITEM_COLUMNS.map((c) => c.replace('watchlist_items.', '')) as never).executeTakeFirstOrThrow() as unknown as ItemRow;
      return { id: row.id, ...prefsOf(row) };
    });
  }

  async remove(userId: number, id: number) {
    return this.write(userId, async (trx) => {
      await this.ownItem(trx, userId, id);
      await deleteItems(trx, userId, { ids: [id] });
      return { message: 'Removed from watchlist' };
    });
  }

  /** Adds up to BULK_MAX names in one transaction; one answer per name sent. */
  async bulkAdd(userId: number, ensNames: readonly string[], listId: number | undefined) {
    const parsed = ensNames.map((raw) => {
      try {
        return { raw, name: normalizeEthName(raw) };
      } catch (e) {
        if (e instanceof InvalidNameError) return { raw, name: null };
        throw e;
      }
    });
    const wanted = [...new Set(parsed.flatMap((p) => (p.name === null ? [] : [p.name])))];
    return this.write(userId, async (trx) => {
      const list = await this.targetList(trx, userId, listId);
      const found = wanted.length === 0 ? [] : await trx.selectFrom('ens_names').select(['id', 'name']).where('name', 'in', wanted).execute();
      if (found.length === 0) throw new AppError('ENS_NAMES_NOT_FOUND', 'None of the names is in the marketplace');
      const idOf = new Map(found.map((f) => [f.name, f.id]));
      const added = await insertItems(trx, userId, list.id, found.map((f) => f.id));
      const addedIds = new Set(added.map((r) => r.ens_name_id));
      const entries = await trx.selectFrom('watchlist_items').select(['id', 'ens_name_id']).where('list_id', '=', list.id).where('ens_name_id', 'in', found.map((f) => f.id)).execute();
      const entryOf = new Map(entries.map((e) => [e.ens_name_id, e.id]));
      const seen = new Set<number>();
      const results = parsed.map((p) => {
        if (p.name === null) return { ensName: p.raw, status: 'invalid' as const, id: null };
        const nameId = idOf.get(p.name);
        if (nameId === undefined) return { ensName: p.raw, status: 'not_found' as const, id: null };
        const first = !seen.has(nameId);
        seen.add(nameId);
        return { ensName: p.raw, status: first && addedIds.has(nameId) ? 'added' as const : 'already_existed' as const, id: entryOf.get(nameId) ?? null };
      });
      return {
        added: added.length,
        alreadyExisted: found.length - added.length,
        notFound: parsed.filter((p) => p.name === null).length + wanted.filter((n) => !idOf.has(n)).length,
        results,
      };
    });
  }

  /** Removes up to BULK_MAX of the caller's entries in one transaction; others' ids are reported not_found. */
  async bulkRemove(userId: number, ids: readonly number[]) {
    return this.write(userId, async (trx) => {
      const removed = new Set((await deleteItems(trx, userId, { ids: [...new Set(ids)] })).map((r) => r.id));
      return { removed: removed.size, results: ids.map((id) => ({ id, status: removed.has(id) ? 'removed' as const : 'not_found' as const })) };
    });
  }

  /** A page of one list (default: the default list), newest first, with each name's data. */
  async items(userId: number, q: { page: number; limit: number; listId?: number }) {
    const { db } = this.deps;
    const list = q.listId === undefined
      ? await db.selectFrom('watchlists').select(['id', 'name', 'item_count']).where('user_id', '=', userId).where('is_default', '=', true).executeTakeFirst()
      : await db.selectFrom('watchlists').select(['id', 'name', 'item_count']).where('id', '=', q.listId).where('user_id', '=', userId).executeTakeFirst();
    if (!list) {
      if (q.listId !== undefined) throw new AppError('LIST_NOT_FOUND', 'List not found', { field: 'query.listId' });
      return { watchlist: [], pagination: pageB(q.page, q.limit, 0) };
    }
    const rows = await db.selectFrom('watchlist_items')
      .innerJoin('ens_names', 'ens_names.id', 'watchlist_items.ens_name_id')
      .select([...ITEM_COLUMNS, 'ens_names.name', 'ens_names.token_id', 'ens_names.owner_address', 'ens_names.expiry_date'])
      .where('watchlist_items.list_id', '=', list.id)
      .orderBy('watchlist_items.created_at', 'desc').orderBy('watchlist_items.id', 'desc')
      .offset(offsetOf(q.page, q.limit)).limit(q.limit)
      .execute();
    const listings = await activeListings(db, rows.map((r) => r.ens_name_id));
    return {
      watchlist: rows.map((r) => ({
        ...toItem(r, r.name),
        listName: list.name,
        nameData: {
          name: r.name,
          tokenId: r.token_id,
          ownerAddress: r.owner_address,
          expiryDate: iso(r.expiry_date),
          hasActiveListing: listings.has(r.ens_name_id),
          activeListing: listings.get(r.ens_name_id) ?? null,
        },
      })),
      pagination: pageB(q.page, q.limit, list.item_count),
    };
  }

  /** Whether the caller watches a name, on which lists. */
  async check(userId: number, rawName: string) {
    const name = normalizedName(rawName, 'params.name');
    const { db } = this.deps;
    const target = await db.selectFrom('ens_names').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
    if (!target) throw new AppError('ENS_NAME_NOT_FOUND', `${name} is not in the marketplace`);
    const rows = await db.selectFrom('watchlist_items')
      .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.list_id')
      .select([...ITEM_COLUMNS, 'watchlists.name as list_name', 'watchlists.is_default'])
      .where('watchlist_items.user_id', '=', userId).where('watchlist_items.ens_name_id', '=', target.id)
      .orderBy('watchlist_items.created_at').orderBy('watchlist_items.id')
      .execute();
    const first = rows[0];
    return {
      isWatching: rows.length > 0,
      watchlistEntry: first ? { id: first.id, ensNameId: target.id, ensName: target.name, ...prefsOf(first), addedAt: iso(first.created_at)! } : null,
      lists: rows.map((r) => ({ listId: r.list_id, listName: r.list_name, listIsDefault: r.is_default, watchlistEntryId: r.id, ...prefsOf(r), addedAt: iso(r.created_at)! })),
    };
  }
}

/** The newest active, unexpired listing of each name. */
async function activeListings(db: Executor, nameIds: number[]) {
  if (nameIds.length === 0) return new Map<number, { id: number; price_wei: string; currency_address: string; currency_symbol: string | null; currency_decimals: number | null; source: string; created_at: string }>();
  const rows = await db.selectFrom('listings')
    .select(['id', 'ens_name_id', 'price_wei', 'currency_address', 'source', 'created_at'])
    .distinctOn('ens_name_id')
    .where('ens_name_id', 'in', nameIds).where('status', '=', 'active')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .orderBy('ens_name_id').orderBy('created_at', 'desc').orderBy('id', 'desc')
    .execute();
  return new Map(rows.map((l) => [l.ens_name_id, { id: l.id, price_wei: weiString(l.price_wei)!, currency_address: l.currency_address, ...currencyFields(l.currency_address), source: l.source, created_at: iso(l.created_at)! }]));
}
