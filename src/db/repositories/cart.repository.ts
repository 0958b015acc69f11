import type { Executor } from '../client.js';

export interface CartItemRow {
  id: number;
  ens_name_id: number;
  cart_type: string;
  created_at: Date;
}

export async function cartTypeExists(db: Executor, type: string): Promise<boolean> {
  return (await db.selectFrom('cart_types').select('type').where('type', '=', type).executeTakeFirst()) !== undefined;
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
