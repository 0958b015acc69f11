import { Type, type Static } from 'typebox';
import { EnsNameParam, Id, Timestamp } from './common.js';
import { SearchResult } from './search-result.js';

const CartType = Type.String({ minLength: 1, maxLength: 32, description: 'a cart type: buy (listed names) or register (expired names)', examples: ['buy'] });

export const AddToCartBody = Type.Object({
  ensNameId: Type.Optional({ ...Id, description: 'the name, by id (or give `name`)' }),
  name: Type.Optional({ ...EnsNameParam, description: 'the name, e.g. abc.eth (or give `ensNameId`)' }),
  cartType: CartType,
});
export type AddToCartBody = Static<typeof AddToCartBody>;

export const AddedItem = Type.Object({
  cartItemId: Type.Integer(),
  cartType: Type.String(),
  ensNameId: Type.Integer(),
  name: Type.String(),
  addedAt: Timestamp,
});

export const CartQuery = Type.Object({ type: Type.Optional({ ...CartType, description: 'only items of this cart type' }) });

/** A cart item: the standard search result of its name (with active listings and highest offer) plus the item's own fields. */
export const CartItem = Type.Object({
  ...SearchResult.properties,
  cartItemId: Type.Integer(),
  cartType: Type.String(),
  addedAt: Timestamp,
});
export type CartItem = Static<typeof CartItem>;

export const CartContents = Type.Object({ items: Type.Array(CartItem) });

export const ItemParams = Type.Object({ itemId: Id });

export const ClearCartBody = Type.Object({
  cartType: Type.Optional({ ...Type.String({ maxLength: 32 }), description: 'clear only this cart type; omitted clears every item' }),
});
export type ClearCartBody = Static<typeof ClearCartBody>;

export const Cleared = Type.Object({ message: Type.String(), deletedCount: Type.Integer() });
export const Removed = Type.Object({ message: Type.String(), cartItemId: Type.Integer() });
