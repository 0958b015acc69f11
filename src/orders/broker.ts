import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { ListingTerms, ParsedOrder } from './validation.js';

/**
 * The broker's fee of a listing. A brokered listing is a listing like any other whose signed order
 * also pays the broker: one consideration item to the broker, in the currency the seller is paid
 * in, of `broker_fee_bps` of the price (the price being the sum of the consideration, what the
 * buyer pays). Every listing's fee item is capped (`BROKER_MAX_FEE_BPS`); a brokered listing's fee
 * must also reach the minimum (`BROKER_MIN_FEE_BPS`).
 */

export interface BrokerClaim {
  /** Lower-case address. */
  address: string;
  feeBps: number;
}

const CONSIDERATION = 'body.orderData.parameters.consideration';

/** The claimed fee against the configured bounds, and the broker against the seller, before the order is read. */
export function checkBrokerClaim(claim: BrokerClaim, seller: string, config: Pick<Config, 'broker'>): void {
  if (claim.address === seller) throw new AppError('SELF_BROKER_NOT_ALLOWED', 'A seller cannot be their own broker', { field: 'body.broker_address' });
  const { minFeeBps, maxFeeBps } = config.broker;
  if (claim.feeBps < minFeeBps) {
    throw new AppError('BROKER_FEE_TOO_LOW', `The broker fee must be at least ${minFeeBps} basis points`, { field: 'body.broker_fee_bps', minimum: minFeeBps, got: claim.feeBps });
  }
  if (claim.feeBps > maxFeeBps) {
    throw new AppError('BROKER_FEE_TOO_HIGH', `The broker fee may be at most ${maxFeeBps} basis points`, { field: 'body.broker_fee_bps', maximum: maxFeeBps, got: claim.feeBps });
  }
}

/**
 * The signed order pays the claimed broker its claimed fee: exactly one consideration item to the
 * broker, in the seller's currency, of `feeBps` of the price (rounded either way to the wei).
 * Runs before the listing's terms are read, so a fee in another currency is named as such.
 */
export function checkBrokerItem(order: ParsedOrder, claim: BrokerClaim): void {
  const items = order.components.consideration;
  const seller = order.components.offerer;
  const paid = items.find((it) => it.recipient === seller);
  const toBroker = items.flatMap((it, i) => (it.recipient === claim.address ? [{ it, i }] : []));
  if (toBroker.length === 0) {
    throw new AppError('INVALID_FEE', `No consideration item pays the broker ${claim.address}`, { reason: 'no_broker_item', field: CONSIDERATION, expected: claim.address, got: items.map((it) => it.recipient) });
  }
  if (toBroker.length > 1) throw new AppError('INVALID_FEE', 'The broker is paid by one consideration item only', { reason: 'several_broker_items', field: CONSIDERATION });
  const { it, i } = toBroker[0];
  if (paid && (it.itemType !== paid.itemType || it.token !== paid.token)) {
    throw new AppError('INVALID_FEE', 'The broker fee must be paid in the currency the seller is paid in', {
      reason: 'fee_currency', field: `${CONSIDERATION}.${i}.token`, expected: { itemType: paid.itemType, token: paid.token }, got: { itemType: it.itemType, token: it.token },
    });
  }
  const price = items.reduce((sum, x) => sum + BigInt(x.startAmount), 0n);
  const exact = price * BigInt(claim.feeBps);
  const fee = BigInt(it.startAmount) * 10_000n;
  if (fee <= exact - 10_000n || fee >= exact + 10_000n) {
    throw new AppError('INVALID_FEE', `The broker item must be ${claim.feeBps} basis points of the price`, {
      reason: 'fee_amount', field: `${CONSIDERATION}.${i}.startAmount`, expected: (exact / 10_000n).toString(), got: it.startAmount,
    });
  }
}

/** Every listing: its fee item takes at most `BROKER_MAX_FEE_BPS` of the price. */
export function checkFeeCap(terms: ListingTerms, config: Pick<Config, 'broker'>): void {
  if (!terms.broker) return;
  const cap = config.broker.maxFeeBps;
  if (terms.broker.feeWei * 10_000n > terms.priceWei * BigInt(cap)) {
    throw new AppError('BROKER_FEE_TOO_HIGH', `A fee item may take at most ${cap} basis points of the price`, {
      field: 'body.orderData.parameters.consideration', maximum: cap, got: terms.broker.feeBps,
    });
  }
}
