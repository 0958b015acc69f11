import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/client.js';
import { cappedCount, HISTORY_WINDOW } from './window.js';

export type SaleRole = 'buyer' | 'seller' | 'both';

export interface SaleRow {
  id: number;
  ens_name_id: number;
  seller_address: string;
  buyer_address: string;
  price_wei: string;
  currency_address: string;
  listing_id: number | null;
  offer_id: number | null;
  tx_hash: string | null;
  order_hash: string | null;
  source: string;
  sold_at: Date;
  name: string;
  token_id: string;
  /** the filled order as its stored JSON text (written as it is: lib/raw-json.ts) */
  order_data: string | null;
}

const NEWEST = sql`ORDER BY sold_at DESC, id DESC`;

async function idPage(db: Executor, source: RawBuilder<unknown>, where: RawBuilder<unknown>, offset: number, limit: number) {
  const [rows, count] = await Promise.all([
    sql<{ id: number }>`SELECT id FROM ${source} WHERE ${where} ${NEWEST} OFFSET ${offset} LIMIT ${limit}`.execute(db),
    cappedCount(db, source, where),
  ]);
  return { ids: rows.rows.map((r) => r.id), ...count };
}

/** A page of sale ids, newest first: all sales, or one name's (sales_sold_idx, sales_name_idx). */
export function saleIds(db: Executor, ensNameId: number | undefined, offset: number, limit: number) {
  return idPage(db, sql`sales`, ensNameId === undefined ? sql`TRUE` : sql`ens_name_id = ${ensNameId}`, offset, limit);
}

/**
 * Sales of an address as buyer, seller or either. "Either" merges the two per-role indexes, each
 * read no further than the page's end (or the count's window).
 */
export function saleIdsOfAddress(db: Executor, address: string, role: SaleRole, offset: number, limit: number) {
  if (role !== 'both') return idPage(db, sql`sales`, sql`${sql.ref(`${role}_address`)} = ${address}`, offset, limit);
  const side = (column: string, n: number) => sql`(SELECT id, sold_at FROM sales WHERE ${sql.ref(column)} = ${address} ${NEWEST} LIMIT ${n})`;
  const merged = (n: number) => sql`(SELECT * FROM ${side('seller_address', n)} s UNION SELECT * FROM ${side('buyer_address', n)} b) p`;
  return Promise.all([
    sql<{ id: number }>`SELECT id FROM ${merged(offset + limit)} ${NEWEST} OFFSET ${offset} LIMIT ${limit}`.execute(db),
    cappedCount(db, merged(HISTORY_WINDOW + 1), sql`TRUE`),
  ]).then(([rows, count]) => ({ ids: rows.rows.map((r) => r.id), ...count }));
}

/** The sales of `ids` with their names and filled orders, in the order of `ids`. */
export async function loadSales(db: Executor, ids: readonly number[]): Promise<SaleRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('sales as s')
    .innerJoin('ens_names as n', 'n.id', 's.ens_name_id')
    .leftJoin('listings as l', 'l.id', 's.listing_id')
    .leftJoin('offers as o', 'o.id', 's.offer_id')
    .select([
      's.id', 's.ens_name_id', 's.seller_address', 's.buyer_address', 's.price_wei', 's.currency_address', 's.listing_id', 's.offer_id',
      's.tx_hash', 's.order_hash', 's.source', 's.sold_at', 'n.name', 'n.token_id',
      sql<string | null>`coalesce(l.order_json, o.order_json)::text`.as('order_data'),
    ])
    .where('s.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface SaleStats {
  total_sales: number;
  avg_price_wei: string | null;
  min_price_wei: string | null;
  max_price_wei: string | null;
  first_sale_date: Date | null;
  last_sale_date: Date | null;
}

/** One name's sale figures in wei of ETH (its sales only: sales_name_idx). */
export async function saleStats(db: Executor, ensNameId: number): Promise<SaleStats> {
  const r = await sql<SaleStats>`
    SELECT count(*)::int AS total_sales,
      round(avg(v))::text AS avg_price_wei, round(min(v))::text AS min_price_wei, round(max(v))::text AS max_price_wei,
      min(sold_at) AS first_sale_date, max(sold_at) AS last_sale_date
    FROM (SELECT eth_value_wei(price_wei, currency_address) AS v, sold_at FROM sales WHERE ens_name_id = ${ensNameId}) s`.execute(db);
  return r.rows[0]!;
}
