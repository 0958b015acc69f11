import { Type, type Static } from 'typebox';
import { EnsNameParam, Id, Timestamp, Wei } from './common.js';
import { searchResultWith } from './search-result.js';

const CartType = Type.String({ minLength: 1, maxLength: 32, description: 'a cart type: buy or sales (listed names), register or registrations (expired names)', examples: ['buy'] });

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

export const CartQuery = Type.Object({
  type: Type.Optional({ ...CartType, description: 'only items of this cart type' }),
  cartType: Type.Optional({ ...CartType, description: 'same as type (the web app\'s name)' }),
});

/** A cart item: the standard search result of its name (with active listings and highest offer) plus the item's own fields. */
export const CartItem = searchResultWith({
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

export const BulkCartBody = Type.Object({
  items: Type.Array(Type.Object({ ensNameId: Id, cartType: CartType }), { minItems: 1, maxItems: 100 }),
});
export type BulkCartBody = Static<typeof BulkCartBody>;

const SkipReason = Type.Union([Type.Literal('already_in_cart'), Type.Literal('not_listed'), Type.Literal('not_expired')]);
export const BulkAdded = Type.Object({
  message: Type.String(),
  addedCount: Type.Integer(),
  totalRequested: Type.Integer(),
  skippedCount: Type.Integer(),
  skipped: Type.Array(Type.Object({ index: Type.Integer({ description: 'position in items' }), ensNameId: Type.Integer(), cartType: Type.String(), reason: SkipReason })),
});
export type BulkAdded = Static<typeof BulkAdded>;

const NullableWei = Type.Union([Wei, Type.Null()]);
export const CartSummary = Type.Object({
  summary: Type.Record(Type.String(), Type.Integer(), { description: 'items per cart type, every type listed', examples: [{ sales: 2, registrations: 1 }] }),
  total: Type.Integer(),
  purchase: Type.Object({
    items: Type.Integer({ description: 'distinct names of the purchase carts with an active listing' }),
    unlisted: Type.Integer({ description: 'names of the purchase carts without one' }),
    byCurrency: Type.Array(Type.Object({
      currencyAddress: Type.String(),
      symbol: Type.Union([Type.String(), Type.Null()]),
      decimals: Type.Union([Type.Integer(), Type.Null()]),
      totalWei: Wei,
      ethValueWei: { ...NullableWei, description: 'the total in wei of ETH (USD tokens at the latest ETH/USD price); null when unknown' },
      items: Type.Integer(),
    })),
    totalEthWei: { ...NullableWei, description: 'every currency in wei of ETH; null when a currency has no known value' },
  }),
  registration: Type.Object({
    items: Type.Integer({ description: 'distinct registrable names of the registration carts' }),
    unregistrable: Type.Integer({ description: 'labels under 3 characters' }),
    yearlyUsd: Type.Number({ description: 'one year: $640 a 3-character label, $160 a 4-character one, $5 longer ones; premium not included' }),
    ethUsdPrice: Type.Union([Type.Number(), Type.Null()]),
    yearlyEthWei: { ...NullableWei, description: 'yearlyUsd at the latest ETH/USD price; null without a price' },
  }),
});
export type CartSummary = Static<typeof CartSummary>;
