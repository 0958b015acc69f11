import type { Executor } from '../db/client.js';

/** A Seaport order of an ENS name filled on chain, as the sync read it. */
export interface OrderFill {
  orderHash: string;
  ensNameId: number;
  /** 'listing' when the offerer gave the name, 'offer' when the offerer paid for it */
  side: 'listing' | 'offer';
  seller: string;
  buyer: string;
  priceWei: string;
  currency: string;
  txHash: string;
  logIndex: number;
  soldAt: Date;
  /** id of the sale row the sync wrote for this fill */
  saleId: number;
}

/**
 * What the chain sync asks of the order rules (listings and offers) inside its transaction. The
 * rules themselves belong to the marketplace (src/services/order-state.ts); this is the narrow
 * face the sync depends on, so the sync never carries its own copy of them.
 */
export interface OrderEffects {
  /** A name changed owner: the old owner's listings stop being fillable, the new owner's may be again. */
  ownerChanged(trx: Executor, ensNameId: number, previousOwner: string | null, newOwner: string | null, at: Date): Promise<void>;
  /** An order was filled on chain: our listing is sold / our offer accepted (with notifications). */
  orderFilled(trx: Executor, fill: OrderFill): Promise<void>;
  /** An order was cancelled on chain (OrderCancelled). */
  orderCancelled(trx: Executor, orderHash: string, offerer: string, at: Date): Promise<void>;
  /** An offerer raised their Seaport counter: every order signed with a lower counter is void. */
  counterIncremented(trx: Executor, offerer: string, newCounter: bigint, at: Date): Promise<void>;
}
