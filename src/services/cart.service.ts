import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import {
  allCartTypes, cartTypeKinds, clearCart, countsByType, deleteCartItem, insertCartItem, insertCartItems, latestEthUsd, listCartItems, listedNameIds,
  purchaseTotals, registrationLengths, type CartKind,
} from '../db/repositories/cart.repository.js';
import { resolveName } from '../db/repositories/ens-names.repository.js';
import { AppError } from '../errors.js';
import { iso } from '../lib/time.js';
import type { AddToCartBody, BulkAdded, BulkCartBody, CartItem, CartSummary } from '../contracts/cart.js';
import { loadSearchResults } from '../search/results.js';

/**
 * The shopping cart: each user's items, each of a cart type from the `cart_types` table.
 * Purchase types (`buy`, `sales`) take names with an active listing; registration types
 * (`register`, `registrations`) names that are expired (in grace or past it) or have no expiry on
 * record. A user only ever sees and changes their own items.
 */
export class CartService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  private async requireType(type: string, field = 'cartType'): Promise<CartKind> {
    const kind = (await cartTypeKinds(this.deps.db, [type])).get(type);
    if (!kind) throw new AppError('INVALID_CART_TYPE', `Cart type "${type}" does not exist`, { field });
    return kind;
  }

  async add(userId: number, body: AddToCartBody) {
    const { db } = this.deps;
    const kind = await this.requireType(body.cartType);
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

    if (kind === 'purchase') {
      const listed = await db
        .selectFrom('listings')
        .select('id')
        .where('ens_name_id', '=', name.id)
        .where('status', '=', 'active')
        .where(sql<boolean>`(expires_at IS NULL OR expires_at > now())`)
        .executeTakeFirst();
      if (!listed) throw new AppError('INVALID_STATE', `${name.name} has no active listing to buy`, { reason: 'not_listed' });
    } else {
      if (name.expiry_date !== null && name.expiry_date.getTime() > Date.now()) {
        throw new AppError('INVALID_STATE', `${name.name} is registered until ${iso(name.expiry_date)}`, { reason: 'not_expired' });
      }
    }

    const item = await insertCartItem(db, userId, name.id, body.cartType);
    if (!item) throw new AppError('ALREADY_IN_CART', `${name.name} is already in your ${body.cartType} cart`);
    return { cartItemId: item.id, cartType: item.cart_type, ensNameId: name.id, name: name.name, addedAt: iso(item.created_at) };
  }

  async list(userId: number, query: { type?: string; cartType?: string }): Promise<{ items: CartItem[] }> {
    if (query.type !== undefined && query.cartType !== undefined && query.type !== query.cartType) {
      throw new AppError('VALIDATION_ERROR', 'type and cartType name different cart types', { field: 'query.cartType' });
    }
    const type = query.type ?? query.cartType;
    if (type !== undefined) await this.requireType(type, query.type !== undefined ? 'query.type' : 'query.cartType');
    const items = await listCartItems(this.deps.db, userId, type);
    const results = await loadSearchResults(this.deps.db, [...new Set(items.map((i) => i.ens_name_id))], userId);
    const byId = new Map(results.map((r) => [r.id, r]));
    return {
      items: items.flatMap((i) => {
        const result = byId.get(i.ens_name_id);
        return result ? [result.with({ cartItemId: i.id, cartType: i.cart_type, addedAt: iso(i.created_at) })] : [];
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

  /**
   * Adds up to 100 items in one transaction. An unknown cart type (400) or name (404) refuses the
   * whole request; an item already in the cart, or whose name does not fit its cart type, is
   * skipped and said so, as the single add would refuse it.
   */
  async bulk(userId: number, body: BulkCartBody): Promise<BulkAdded> {
    const { db } = this.deps;
    const { items } = body;
    const kinds = await cartTypeKinds(db, items.map((i) => i.cartType));
    const unknownType = items.findIndex((i) => !kinds.has(i.cartType));
    if (unknownType >= 0) throw new AppError('INVALID_CART_TYPE', `Cart type "${items[unknownType].cartType}" does not exist`, { field: `body.items.${unknownType}.cartType` });
    const ids = [...new Set(items.map((i) => i.ensNameId))];
    const names = await db.selectFrom('ens_names').select(['id', 'expiry_date']).where('id', 'in', ids).execute();
    const expiry = new Map(names.map((n) => [n.id, n.expiry_date]));
    const missing = items.findIndex((i) => !expiry.has(i.ensNameId));
    if (missing >= 0) throw new AppError('ENS_NAME_NOT_FOUND', `Name ${items[missing].ensNameId} not found`, { field: `body.items.${missing}.ensNameId` });

    const listed = await listedNameIds(db, ids);
    const now = Date.now();
    const skipped: BulkAdded['skipped'] = [];
    const fitting: Array<{ index: number; ensNameId: number; cartType: string }> = [];
    items.forEach((item, index) => {
      const exp = expiry.get(item.ensNameId);
      const reason = kinds.get(item.cartType) === 'purchase'
        ? (listed.has(item.ensNameId) ? undefined : 'not_listed' as const)
        : (exp !== null && exp !== undefined && exp.getTime() > now ? 'not_expired' as const : undefined);
      if (reason) skipped.push({ index, ...item, reason });
      else fitting.push({ index, ...item });
    });
    const inserted = await db.transaction().execute((trx) => insertCartItems(trx, userId, fitting));
    const added = new Set(inserted.map((r) => `${r.cart_type}:${r.ens_name_id}`));
    const seen = new Set<string>();
    for (const f of fitting) {
      const key = `${f.cartType}:${f.ensNameId}`;
      if (added.has(key) && !seen.has(key)) seen.add(key);
      else skipped.push({ index: f.index, ensNameId: f.ensNameId, cartType: f.cartType, reason: 'already_in_cart' });
    }
    skipped.sort((a, b) => a.index - b.index);
    return { message: `Added ${inserted.length} items to cart`, addedCount: inserted.length, totalRequested: items.length, skippedCount: skipped.length, skipped };
  }

  /**
   * Counts per cart type, what the purchase carts cost (per currency, and in ETH), and an estimate
   * of a year's registration of the names in the registration carts (yearly USD price by length,
   * converted at the latest ETH/USD price; the premium auction of recently expired names is not in it).
   */
  async summary(userId: number): Promise<CartSummary> {
    const { db } = this.deps;
    const [types, counts, purchase, lengths, ethUsd] = await Promise.all([
      allCartTypes(db), countsByType(db, userId), purchaseTotals(db, userId), registrationLengths(db, userId), latestEthUsd(db),
    ]);
    const summary = Object.fromEntries(types.map((t) => [t.type, counts.get(t.type) ?? 0]));
    const ethValues = purchase.currencies.map((c) => c.eth_value_wei);
    const totalEthWei = ethValues.every((v) => v !== null) ? ethValues.reduce((sum, v) => sum + BigInt(v!), 0n).toString() : null;
    let yearlyUsd = 0;
    let registrable = 0;
    let unregistrable = 0;
    for (const { length, items } of lengths) {
      const price = yearlyPriceUsd(length);
      if (price === undefined) unregistrable += items;
      else {
        registrable += items;
        yearlyUsd += price * items;
      }
    }
    return {
      summary,
      total: [...counts.values()].reduce((a, b) => a + b, 0),
      purchase: {
        items: purchase.currencies.reduce((a, c) => a + c.items, 0),
        unlisted: purchase.unlisted,
        byCurrency: purchase.currencies.map((c) => ({ currencyAddress: c.currency_address, symbol: c.symbol, decimals: c.decimals, totalWei: c.total_wei, ethValueWei: c.eth_value_wei, items: c.items })),
        totalEthWei,
      },
      registration: {
        items: registrable,
        unregistrable,
        yearlyUsd,
        ethUsdPrice: ethUsd === undefined ? null : Number(ethUsd),
        yearlyEthWei: ethUsd === undefined ? null : usdToWei(yearlyUsd, ethUsd).toString(),
      },
    };
  }
}

/** ENS yearly registration price by label length (3: $640, 4: $160, 5+: $5); shorter is not registrable. */
export function yearlyPriceUsd(length: number): number | undefined {
  if (length < 3) return undefined;
  return length === 3 ? 640 : length === 4 ? 160 : 5;
}

const PRICE_SCALE = 10n ** 8n;

/** Whole US dollars to wei of ETH at a decimal ETH/USD price (truncated to 8 decimals). */
export function usdToWei(usd: number, ethUsd: string): bigint {
  const [whole, fraction = ''] = ethUsd.split('.');
  const scaled = BigInt(whole) * PRICE_SCALE + BigInt((fraction + '00000000').slice(0, 8));
  return scaled === 0n ? 0n : (BigInt(usd) * 10n ** 18n * PRICE_SCALE) / scaled;
}
