import { cancelOrdersByCounter, cancelOrdersByHash, storedOrderHashes } from './endings.js';
import { markListingSold, markOfferAccepted } from './fills.js';
import { onOwnershipChanged } from './state.js';
import { recordForeignSale } from './effects.js';
import type { OrderEffects } from '../sync/order-effects.js';

/** The marketplace's order rules (state.ts, fills.ts, endings.ts), as the chain sync calls them. */
export function marketplaceOrderEffects(): OrderEffects {
  return {
    async ownerChanged(trx, ensNameId, _previousOwner, newOwner, _at, log) {
      await onOwnershipChanged(trx, ensNameId, newOwner, log);
    },
    async orderFilled(trx, fill) {
      const sale = {
        seller: fill.seller, buyer: fill.buyer, priceWei: fill.priceWei, currency: fill.currency,
        txHash: fill.txHash, logIndex: fill.logIndex, block: fill.block, soldAt: fill.soldAt,
      };
      const options = { recordSale: fill.recordSale };
      if (fill.side === 'listing') await markListingSold(trx, fill.orderId, sale, options);
      else await markOfferAccepted(trx, fill.orderId, sale, options);
    },
    async foreignSale(trx, sale) {
      await recordForeignSale(trx, sale);
    },
    async storedOrderHashes(db, orderHashes) {
      return storedOrderHashes(db, orderHashes);
    },
    async orderCancelled(trx, orderHash, _offerer, log) {
      await cancelOrdersByHash(trx, [orderHash], log);
    },
    async counterIncremented(trx, offerer, newCounter, log) {
      await cancelOrdersByCounter(trx, offerer, newCounter, log);
    },
  };
}
