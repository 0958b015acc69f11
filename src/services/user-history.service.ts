import { sql, type RawBuilder } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import type { Deps } from '../deps.js';
import type { AuthUser } from './tokens.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { iso } from '../lib/time.js';
import { weiString } from '../lib/wei.js';
import { loadSearchResults, type ResultJson } from '../search/results.js';

export interface HistoryPage { page: number; limit: number }

/**
 * A page of the caller's rows and how many there are in all: the count is a column of the page's
 * own statement (an uncorrelated subquery, read once), so a page is one statement, not two; a page
 * past the last row has no row to carry it and counts alone.
 */
async function pageWithTotal<R extends { total: number }>(q: HistoryPage, count: RawBuilder<number>, page: Promise<R[]>, db: Executor): Promise<{ rows: R[]; total: number }> {
  const rows = await page;
  if (rows.length > 0) return { rows, total: rows[0].total };
  if (q.page === 1) return { rows, total: 0 };
  const { rows: [counted] } = await sql<{ n: number }>`SELECT ${GENERIC_PLAN} ${count} AS n`.execute(db);
  return { rows, total: counted?.n ?? 0 };
}

/**
 * The signed-in user's history: names viewed, watched, voted on, offered on, bought and sold, as
 * standard search results with the fields of each kind. Each reads only the caller's rows, newest
 * first, from an index led by the caller (0015 and 0009), so its cost follows the caller's own
 * activity, never the size of the tables.
 */
export class UserHistoryService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  /** Standard results for the page's rows (in their order) with each row's extra fields. */
  private async results<R extends { ens_name_id: number }, X extends object>(
    user: AuthUser, rows: R[], q: HistoryPage, total: number, extra: (r: R) => X,
  ): Promise<{ names: ResultJson[]; pagination: PageB }> {
    const results = await loadSearchResults(this.deps.db, rows.map((r) => r.ens_name_id), user.id);
    const byId = new Map(results.map((r) => [r.id, r]));
    return {
      names: rows.flatMap((r) => {
        const result = byId.get(r.ens_name_id);
        return result ? [result.with(extra(r))] : [];
      }),
      pagination: pageB(q.page, q.limit, total),
    };
  }

  async viewed(user: AuthUser, q: HistoryPage) {
    const { db } = this.deps;
    const viewer = `u:${user.id}`;
    const count = sql<number>`(SELECT count(DISTINCT ens_name_id) FROM name_views_daily WHERE viewer = ${viewer})::int`;
    const { rows, total } = await pageWithTotal(q, count, sql<{ ens_name_id: number; day: Date; total: number }>`
        SELECT ${GENERIC_PLAN} ens_name_id, max(day)::timestamptz AS day, ${count} AS total FROM name_views_daily WHERE viewer = ${viewer}
        GROUP BY ens_name_id ORDER BY 2 DESC, 1 DESC OFFSET ${offsetOf(q.page, q.limit)} LIMIT ${q.limit}`.execute(db).then((r) => r.rows), db);
    return this.results(user, rows, q, total, (r) => ({ viewed_at: iso(r.day)! }));
  }

  async watched(user: AuthUser, q: HistoryPage) {
    const { db } = this.deps;
    const count = sql<number>`(SELECT count(DISTINCT ens_name_id) FROM watchlist_items WHERE user_id = ${user.id})::int`;
    const { rows, total } = await pageWithTotal(q, count, sql<{ ens_name_id: number; added_at: Date; on_sale: boolean; on_offer: boolean; on_listing: boolean; on_price_change: boolean; total: number }>`
        SELECT ${GENERIC_PLAN} ens_name_id, max(created_at) AS added_at, bool_or(notify_on_sale) AS on_sale, bool_or(notify_on_offer) AS on_offer,
          bool_or(notify_on_listing) AS on_listing, bool_or(notify_on_price_change) AS on_price_change, ${count} AS total
        FROM watchlist_items WHERE user_id = ${user.id}
        GROUP BY ens_name_id ORDER BY 2 DESC, 1 DESC OFFSET ${offsetOf(q.page, q.limit)} LIMIT ${q.limit}`.execute(db).then((r) => r.rows), db);
    return this.results(user, rows, q, total, (r) => ({
      added_at: iso(r.added_at)!,
      notifications: { on_sale: r.on_sale, on_offer: r.on_offer, on_listing: r.on_listing, on_price_change: r.on_price_change },
    }));
  }

  async voted(user: AuthUser, q: HistoryPage) {
    const { db } = this.deps;
    const count = sql<number>`(SELECT count(*) FROM votes WHERE user_id = ${user.id})::int`;
    const { rows, total } = await pageWithTotal(q, count, db.selectFrom('votes').modifyFront(GENERIC_PLAN)
      .select(['ens_name_id', 'vote', 'updated_at', count.as('total')]).where('user_id', '=', user.id)
      .orderBy('updated_at', 'desc').orderBy('ens_name_id', 'desc').offset(offsetOf(q.page, q.limit)).limit(q.limit).execute(), db);
    return this.results(user, rows, q, total, (r) => ({ my_vote: r.vote as 1 | -1, voted_at: iso(r.updated_at)! }));
  }

  async offers(user: AuthUser, q: HistoryPage) {
    const { db } = this.deps;
    const buyer = user.address.toLowerCase();
    const count = sql<number>`(SELECT count(*) FROM offers WHERE buyer_address = ${buyer})::int`;
    const { rows, total } = await pageWithTotal(q, count, db.selectFrom('offers').modifyFront(GENERIC_PLAN)
      .select(['id', 'ens_name_id', 'offer_amount_wei', 'currency_address', 'status', 'created_at', 'expires_at', count.as('total')])
      .where('buyer_address', '=', buyer)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').offset(offsetOf(q.page, q.limit)).limit(q.limit).execute(), db);
    return this.results(user, rows, q, total, (r) => ({
      offer: {
        id: r.id, price_wei: weiString(r.offer_amount_wei)!, currency_address: r.currency_address, status: r.status,
        created_at: iso(r.created_at)!, expires_at: iso(r.expires_at),
      },
    }));
  }

  private async sales(user: AuthUser, q: HistoryPage, side: 'buyer_address' | 'seller_address') {
    const { db } = this.deps;
    const address = user.address.toLowerCase();
    const count = sql<number>`(SELECT count(*) FROM sales WHERE ${sql.ref(side)} = ${address})::int`;
    return pageWithTotal(q, count, db.selectFrom('sales').modifyFront(GENERIC_PLAN)
      .select(['id', 'ens_name_id', 'price_wei', 'currency_address', 'sold_at', 'tx_hash', 'buyer_address', count.as('total')])
      .where(side, '=', address)
      .orderBy('sold_at', 'desc').orderBy('id', 'desc').offset(offsetOf(q.page, q.limit)).limit(q.limit).execute(), db);
  }

  async purchases(user: AuthUser, q: HistoryPage) {
    const { rows, total } = await this.sales(user, q, 'buyer_address');
    return this.results(user, rows, q, total, (r) => ({
      purchase: { id: r.id, price_wei: weiString(r.price_wei)!, currency_address: r.currency_address, sale_date: iso(r.sold_at)!, transaction_hash: r.tx_hash },
    }));
  }

  async sold(user: AuthUser, q: HistoryPage) {
    const { rows, total } = await this.sales(user, q, 'seller_address');
    return this.results(user, rows, q, total, (r) => ({
      sale: {
        id: r.id, price_wei: weiString(r.price_wei)!, currency_address: r.currency_address, sale_date: iso(r.sold_at)!,
        transaction_hash: r.tx_hash, buyer_address: r.buyer_address,
      },
    }));
  }
}
