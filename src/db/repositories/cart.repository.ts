import { sql } from 'kysely';
import type { Executor } from '../client.js';

export interface CartItemRow {
  id: number;
  ens_name_id: number;
  cart_type: string;
  created_at: Date;
}

export type CartKind = 'purchase' | 'registration';

/** The kind of each of `types` that exists (purchase: listed names; registration: expired names). */
export async function cartTypeKinds(db: Executor, types: readonly string[]): Promise<Map<string, CartKind>> {
  if (types.length === 0) return new Map();
  const rows = await db.selectFrom('cart_types').select(['type', 'kind']).where('type', 'in', [...new Set(types)]).execute();
  return new Map(rows.map((r) => [r.type, r.kind as CartKind]));
}

/** Every cart type, for summaries that show zero counts too. */
export async function allCartTypes(db: Executor): Promise<Array<{ type: string; kind: CartKind }>> {
  const rows = await db.selectFrom('cart_types').select(['type', 'kind']).orderBy('type').execute();
  return rows.map((r) => ({ type: r.type, kind: r.kind as CartKind }));
}

/** Inserts the items the user does not have yet; returns the ones inserted. */
export async function insertCartItems(db: Executor, userId: number, items: ReadonlyArray<{ ensNameId: number; cartType: string }>): Promise<Array<{ ens_name_id: number; cart_type: string }>> {
  if (items.length === 0) return [];
  return db
    .insertInto('cart_items')
    .values(items.map((i) => ({ user_id: userId, ens_name_id: i.ensNameId, cart_type: i.cartType })))
    .onConflict((oc) => oc.columns(['user_id', 'cart_type', 'ens_name_id']).doNothing())
    .returning(['ens_name_id', 'cart_type'])
    .execute();
}

/** Of `ids`, the names with an active listing that has not passed its end time. */
export async function listedNameIds(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('listings')
    .select('ens_name_id')
    .distinct()
    .where('ens_name_id', 'in', [...ids])
    .where('status', '=', 'active')
    .where(sql<boolean>`(expires_at IS NULL OR expires_at > now())`)
    .execute();
  return new Set(rows.map((r) => r.ens_name_id));
}

/** Items per cart type of the user. */
export async function countsByType(db: Executor, userId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('cart_items')
    .select(['cart_type', (eb) => eb.fn.countAll<string>().as('n')])
    .where('user_id', '=', userId)
    .groupBy('cart_type')
    .execute();
  return new Map(rows.map((r) => [r.cart_type, Number(r.n)]));
}

export interface CurrencyTotal {
  currency_address: string;
  symbol: string | null;
  decimals: number | null;
  total_wei: string;
  eth_value_wei: string | null;
  items: number;
}

/**
 * What the names in the user's purchase carts cost: each distinct name once, at its newest active
 * listing (the one search shows), summed per currency with the sum's value in ETH wei
 * (`eth_value_wei`, NULL for a currency without a known value). Names without a listing are counted.
 */
export async function purchaseTotals(db: Executor, userId: number): Promise<{ currencies: CurrencyTotal[]; unlisted: number }> {
  const r = await sql<CurrencyTotal & { listed: boolean }>`
    WITH names AS (
      SELECT DISTINCT ci.ens_name_id FROM cart_items ci JOIN cart_types ct ON ct.type = ci.cart_type
      WHERE ci.user_id = ${userId} AND ct.kind = 'purchase'
    ), priced AS (
      SELECT l.price_wei, l.currency_address FROM names
      LEFT JOIN LATERAL (
        SELECT price_wei, currency_address FROM listings
        WHERE ens_name_id = names.ens_name_id AND status = 'active' AND (expires_at IS NULL OR expires_at > now())
        ORDER BY created_at DESC, id DESC LIMIT 1
      ) l ON true
    )
    SELECT p.currency_address IS NOT NULL AS listed, p.currency_address, c.symbol, c.decimals,
      COALESCE(sum(p.price_wei), 0)::text AS total_wei,
      trunc(eth_value_wei(sum(p.price_wei), p.currency_address))::numeric(78,0)::text AS eth_value_wei,
      count(*)::int AS items
    FROM priced p LEFT JOIN currencies c ON c.address = p.currency_address
    GROUP BY p.currency_address, c.symbol, c.decimals
    ORDER BY p.currency_address`.execute(db);
  const unlisted = r.rows.find((row) => !row.listed)?.items ?? 0;
  return { currencies: r.rows.filter((row) => row.listed).map(({ listed: _l, ...row }) => row), unlisted };
}

/** Distinct names in the user's registration carts, by label length in characters. */
export async function registrationLengths(db: Executor, userId: number): Promise<Array<{ length: number; items: number }>> {
  const r = await sql<{ length: number; items: number }>`
    SELECT n.label_length AS length, count(*)::int AS items FROM ens_names n
    WHERE n.id IN (SELECT ci.ens_name_id FROM cart_items ci JOIN cart_types ct ON ct.type = ci.cart_type WHERE ci.user_id = ${userId} AND ct.kind = 'registration')
    GROUP BY n.label_length ORDER BY n.label_length`.execute(db);
  return r.rows;
}

/** The latest daily ETH/USD price, as a decimal string. */
export async function latestEthUsd(db: Executor): Promise<string | undefined> {
  const row = await db.selectFrom('eth_usd_prices').select(sql<string>`price_usd::text`.as('price')).orderBy('day', 'desc').limit(1).executeTakeFirst();
  return row?.price;
}

/** Inserts the item; undefined when the user already has that name in that cart. */
export async function insertCartItem(db: Executor, userId: number, ensNameId: number, cartType: string): Promise<CartItemRow | undefined> {
  return db
    .insertInto('cart_items')
    .values({ user_id: userId, ens_name_id: ensNameId, cart_type: cartType })
    .onConflict((oc) => oc.columns(['user_id', 'cart_type', 'ens_name_id']).doNothing())
    .returning(['id', 'ens_name_id', 'cart_type', 'created_at'])
    .executeTakeFirst();
}

/** The user's items, newest first, optionally of one cart type. */
export async function listCartItems(db: Executor, userId: number, cartType?: string): Promise<CartItemRow[]> {
  return db
    .selectFrom('cart_items')
    .select(['id', 'ens_name_id', 'cart_type', 'created_at'])
    .where('user_id', '=', userId)
    .$if(cartType !== undefined, (qb) => qb.where('cart_type', '=', cartType!))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes one item of the user's; false when the user has no such item. */
export async function deleteCartItem(db: Executor, userId: number, itemId: number): Promise<boolean> {
  const res = await db.deleteFrom('cart_items').where('id', '=', itemId).where('user_id', '=', userId).executeTakeFirst();
  return res.numDeletedRows > 0n;
}

export async function clearCart(db: Executor, userId: number, cartType?: string): Promise<number> {
  const res = await db
    .deleteFrom('cart_items')
    .where('user_id', '=', userId)
    .$if(cartType !== undefined, (qb) => qb.where('cart_type', '=', cartType!))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
