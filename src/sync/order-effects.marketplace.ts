import type { OrderEffects } from './order-effects.js';

/**
 * The order rules of the marketplace, as the sync calls them. Wired to the marketplace's
 * order-state module once it is committed; until then, chain events change names and sales only.
 */
export function marketplaceOrderEffects(): OrderEffects {
  return {
    async ownerChanged() {},
    async orderFilled() {},
    async orderCancelled() {},
    async counterIncremented() {},
  };
}
