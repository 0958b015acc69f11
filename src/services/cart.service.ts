import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { cartTypeExists, clearCart, deleteCartItem, insertCartItem, listCartItems } from '../db/repositories/cart.repository.js';
import { resolveName } from '../db/repositories/ens-names.repository.js';
import { AppError } from '../errors.js';
import { iso } from '../lib/time.js';
import type { AddToCartBody, CartItem } from '../contracts/cart.js';
import { loadSearchResults } from '../search/results.js';

/**
 * The shopping cart: each user's items, each of a cart type from the `cart_types` table.
 * `buy` takes names with an active listing; `register` takes names that are expired (in grace or
 * past it) or have no expiry on record. A user only ever sees and changes their own items.
 */
export class CartService {
  constructor(private readonly deps: Deps) {}

  private async requireType(type: string): Promise<void> {
    if (!(await cartTypeExists(this.deps.db, type))) throw new AppError('INVALID_CART_TYPE', `Cart type "${type}" does not exist`, { field: 'cartType' });
  }

  async add(userId: number, body: AddToCartBody) {
    const { db } = this.deps;
    await this.requireType(body.cartType);
    let name: { id: number; name: string; expiry_date: Date | null };
    if (body.ensNameId !== undefined) {
      const row = await db.selectFrom('ens_names').select(['id', 'name', 'expiry_date']).where('id', '=', body.ensNameId).executeTakeFirst();
      if (!row) throw new AppError('ENS_NAME_NOT_FOUND', `Name ${body.ensNameId} not found`);
      if (body.name !== undefined && (await resolveName(db, body.name)).id !== row.id) {
        throw new AppError('VALIDATION_ERROR', 'ensNameId and name refer to different names', { field: 'body.name' });
      }
      name = row;
    } else if (body.name !== undefined) {
      name = await resolveName(db, body.name);
    } else {
      throw new AppError('VALIDATION_ERROR', 'Give ensNameId or name', { field: 'body.ensNameId' });
    }

    if (body.cartType === 'buy') {
      const listed = await db
        .selectFrom('listings')
        .select('id')
        .where('ens_name_id', '=', name.id)
        .where('status', '=', 'active')
        .where(sql<boolean>`(expires_at IS NULL OR expires_at > now())`)
        .executeTakeFirst();
      if (!listed) throw new AppError('INVALID_STATE', `${name.name} has no active listing to buy`, { reason: 'not_listed' });
    } else if (body.cartType === 'register') {
      if (name.expiry_date !== null && name.expiry_date.getTime() > Date.now()) {
        throw new AppError('INVALID_STATE', `${name.name} is registered until ${iso(name.expiry_date)}`, { reason: 'not_expired' });
      }
    }

    const item = await insertCartItem(db, userId, name.id, body.cartType);
    if (!item) throw new AppError('ALREADY_IN_CART', `${name.name} is already in your ${body.cartType} cart`);
    return { cartItemId: item.id, cartType: item.cart_type, ensNameId: name.id, name: name.name, addedAt: iso(item.created_at) };
  }

  async list(userId: number, type?: string): Promise<{ items: CartItem[] }> {
    if (type !== undefined) await this.requireType(type);
    const items = await listCartItems(this.deps.db, userId, type);
    const results = await loadSearchResults(this.deps.db, [...new Set(items.map((i) => i.ens_name_id))], userId);
    const byId = new Map(results.map((r) => [r.id, r]));
    return {
      items: items.flatMap((i) => {
        const result = byId.get(i.ens_name_id);
        return result ? [{ ...result, cartItemId: i.id, cartType: i.cart_type, addedAt: iso(i.created_at) }] : [];
      }),
    };
  }

  async remove(userId: number, itemId: number): Promise<{ message: string; cartItemId: number }> {
    if (!(await deleteCartItem(this.deps.db, userId, itemId))) throw new AppError('CART_ITEM_NOT_FOUND', `Cart item ${itemId} not found`);
    return { message: 'Removed from cart', cartItemId: itemId };
  }

  async clear(userId: number, cartType?: string): Promise<{ message: string; deletedCount: number }> {
    if (cartType !== undefined) await this.requireType(cartType);
    const deletedCount = await clearCart(this.deps.db, userId, cartType);
    return { message: cartType !== undefined ? `Cleared ${cartType} cart` : 'Cleared all cart items', deletedCount };
  }
}
