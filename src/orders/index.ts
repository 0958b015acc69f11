/**
 * The order domain's only door. Listings and offers, their state machine (moves.ts: which move is
 * allowed; locks.ts: the lock order; state.ts, fills.ts, endings.ts, user-moves.ts: the only writers of an
 * order's status and, through summaries.ts, of a name's highest offer and active listing;
 * effects.ts: what every move leaves behind), order validation, the funds re-check, the expiry
 * sweep, their repositories and jobs. Other code imports from here, never a file inside.
 */
export { ListingService } from './listings.service.js';
export { OfferService } from './offers.service.js';
export { OrderService } from './orders.service.js';
export { OrderToolsService } from './order-tools.service.js';
export { orderJobs, orderExpiryJob, orderValidationJob, sweepExpiredOrders } from './jobs.js';
export { marketplaceOrderEffects } from './sync-effects.js';
export { recheckOrders, type RecheckResult } from './recheck.js';
export { amountText, type MoveCause, type OrderMove } from './effects.js';
export { LISTING_AUTOMATIC_MOVES, LISTING_MOVES, OFFER_AUTOMATIC_MOVES, OFFER_MOVES } from './moves.js';
export { markListingUnfunded, markOfferUnfunded, onOwnershipChanged, restoreListing, restoreOffer, UnfundedReason } from './state.js';
export { markListingSold, markOfferAccepted } from './fills.js';
export { cancelOrdersByCounter, cancelOrdersByHash, expireDueOrders } from './endings.js';
/** Set-based rebuild of every name's summaries, for the seed and bulk loaders that write orders directly. */
export { recalculateHighestOffer, refreshAllMarketSummaries, refreshListingSummary, revalueListings } from './summaries.js';
export { BrokeredListingService } from './brokered.service.js';
