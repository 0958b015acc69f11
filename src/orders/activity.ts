import type { ActivityEventType, ActivityInput } from '../history/index.js';
import type { ListingStatus, OfferStatus } from '../db/schema.js';
import type { ListingMove, OfferMove, OrderMove } from './move-types.js';

/**
 * The activity events of order moves, in the spelling of the original's clients (`listed`,
 * `offer_made`, `listing_cancelled`, ...). One user action is one event: a listing that replaces
 * the seller's earlier one is `listing_updated` (the replaced listing logs nothing), a withdrawn
 * offer (status rejected) is `offer_cancelled`. Sales are logged with the sale row (fills.ts),
 * so a listing moving to sold logs nothing here. An unfunded order live again by itself (the
 * funds, the approval or the name are back) is `listing_restored` / `offer_restored`; a buyer
 * asking for it (PUT /offers/:id) is `offer_updated`. A move caused by a chain log (cancels, fills,
 * the listings a transfer moves) carries that log's transaction, block, log index and block time.
 */

const LISTING_EVENTS: Partial<Record<ListingStatus, ActivityEventType>> = {
  active: 'listing_restored',
  cancelled: 'listing_cancelled',
  expired: 'listing_expired',
  unfunded: 'listing_unfunded',
};

const OFFER_EVENTS: Partial<Record<OfferStatus, ActivityEventType>> = {
  accepted: 'offer_accepted',
  rejected: 'offer_cancelled',
  expired: 'offer_expired',
  unfunded: 'offer_unfunded',
};

export function activityOfMoves(moves: readonly OrderMove[]): ActivityInput[] {
  return moves.flatMap((m) => (m.order === 'listing' ? listingEvents(m) : offerEvents(m)));
}

/** The chain coordinates of a move's events, when a log caused it. */
function chainOf(m: OrderMove): Pick<ActivityInput, 'txHash' | 'block' | 'logIndex' | 'at'> {
  return m.chain ? { txHash: m.chain.txHash, block: m.chain.block, logIndex: m.chain.logIndex, at: m.chain.at } : {};
}

function listingEvents(m: ListingMove): ActivityInput[] {
  const base = { ensNameId: m.ensNameId, actor: m.seller, priceWei: m.priceWei, currency: m.currency, platform: 'grails', ...chainOf(m) } as const;
  const metadata = { listing_id: m.id, cause: m.cause };
  if (m.from === null) {
    if (!m.replaces) return [{ ...base, type: 'listed', metadata }];
    const { id, priceWei, currency } = m.replaces;
    return [{ ...base, type: 'listing_updated', metadata: { ...metadata, previous_listing_id: id, previous_price_wei: priceWei, previous_currency: currency } }];
  }
  const type = LISTING_EVENTS[m.to];
  if (!type || m.from === m.to || m.cause === 'replaced') return [];
  return [{ ...base, type, metadata: { ...metadata, previous_status: m.from } }];
}

function offerEvents(m: OfferMove): ActivityInput[] {
  const base = { ensNameId: m.ensNameId, actor: m.buyer, counterparty: m.owner ?? null, priceWei: m.amountWei, currency: m.currency, platform: 'grails', ...chainOf(m) } as const;
  const metadata = { offer_id: m.id, cause: m.cause };
  if (m.from === null) return [{ ...base, type: 'offer_made', metadata }];
  const events: ActivityInput[] = [];
  const restored = m.from === 'unfunded' && m.to === 'pending' && m.cause !== 'user';
  const type = restored ? 'offer_restored' : m.from !== m.to ? OFFER_EVENTS[m.to] : undefined;
  // accepting is the owner's act: the owner is the actor and the buyer the counterparty
  if (type === 'offer_accepted') events.push({ ...base, type, actor: m.owner ?? null, counterparty: m.buyer, metadata: { ...metadata, previous_status: m.from } });
  else if (type) events.push({ ...base, type, metadata: { ...metadata, previous_status: m.from } });
  if (m.amountChange) {
    events.push({
      ...base, type: 'offer_updated', actor: m.amountChange.by,
      counterparty: m.amountChange.by === m.buyer ? base.counterparty : m.buyer,
      metadata: { ...metadata, previous_amount_wei: m.amountChange.previousAmountWei },
    });
  } else if (m.to === 'pending' && m.from !== m.to && m.cause === 'user') {
    events.push({ ...base, type: 'offer_updated', metadata: { ...metadata, previous_status: m.from } });
  }
  return events;
}
