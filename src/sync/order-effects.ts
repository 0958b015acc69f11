import type { Executor } from '../db/client.js';

/** The log an order event came from: what its activity event carries, as a sale's does. */
export interface ChainLog {
  txHash: string;
  block: number;
  logIndex: number;
  /** the block's time */
  at: Date;
}

/** A Seaport order of our book (a listing or an offer of an ENS name) filled on chain. */
export interface OrderFill {
  /** id of the listing (side 'listing') or the offer (side 'offer') */
  orderId: number;
  ensNameId: number;
  /** 'listing' when the offerer gave the name, 'offer' when the offerer paid for it */
  side: 'listing' | 'offer';
  seller: string;
  buyer: string;
  priceWei: string;
  currency: string;
  txHash: string;
  logIndex: number;
  block: number;
  /** the block's time */
  soldAt: Date;
  /**
   * false when this transaction already recorded the sale of this name (a listing and an offer
   * matched against each other fill two orders for one sale)
   */
  recordSale: boolean;
}

/**
 * What the chain sync asks of the order rules (listings and offers) inside its transaction. The
 * rules themselves belong to the marketplace (src/orders/, through its index.ts); this is the narrow
 * face the sync depends on, so the sync never carries its own copy of them.
 */
export interface OrderEffects {
  /**
   * A name changed owner: the old owner's listings stop being fillable, the new owner's may be
   * again. `log`, the event that moved it (none for a subgraph snapshot), goes on their activity events.
   */
  ownerChanged(trx: Executor, ensNameId: number, previousOwner: string | null, newOwner: string | null, at: Date, log?: ChainLog): Promise<void>;
  /**
   * An order of our book was filled on chain: the listing is sold / the offer accepted, the sale
   * recorded (unique on tx hash and log index) with the name's last sale, and the counterpart
   * notified. The fill's log goes on the activity events.
   */
  orderFilled(trx: Executor, fill: OrderFill): Promise<void>;
  /**
   * A Seaport order outside our book sold the name (the sale row is the sync's): what the
   * marketplace tells people of a sale (today the name's watchers).
   */
  foreignSale?(trx: Executor, sale: { ensNameId: number; seller: string; buyer: string; priceWei: string; currency: string; txHash: string }): Promise<void>;
  /**
   * Which of these order hashes (lower-case) are orders of our book. The sync reads every Seaport
   * cancel; it fetches the block time (for the activity event) only of those that end one of ours.
   */
  storedOrderHashes(db: Executor, orderHashes: readonly string[]): Promise<Set<string>>;
  /** An order was cancelled on chain (OrderCancelled). */
  orderCancelled(trx: Executor, orderHash: string, offerer: string, log: ChainLog): Promise<void>;
  /** An offerer raised their Seaport counter: every order signed with a lower counter is void. */
  counterIncremented(trx: Executor, offerer: string, newCounter: bigint, log: ChainLog): Promise<void>;
}
