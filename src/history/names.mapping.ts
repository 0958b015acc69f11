import type { NameListItem, NameTransaction } from '../contracts/names.js';
import { DAY, iso } from '../lib/time.js';
import { weiString } from '../lib/wei.js';
import type { ActivityRow } from './activity.repository.js';
import type { ListingRecord, NameRecord, OfferJson } from './names.repository.js';
import { currencyFields } from '../lib/currencies.js';
import { RawJson } from '../lib/raw-json.js';

export type NameStatusValue = 'registered' | 'grace' | 'premium' | 'available';

export interface ExpiryPeriods {
  gracePeriodDays: number;
  premiumPeriodDays: number;
}

/** Where a name stands by its expiry (a name never registered is available). */
export function statusOf(expiry: Date | null, p: ExpiryPeriods, now = new Date()): NameStatusValue {
  if (!expiry) return 'available';
  const since = now.getTime() - expiry.getTime();
  if (since < 0) return 'registered';
  if (since < p.gracePeriodDays * DAY) return 'grace';
  if (since < (p.gracePeriodDays + p.premiumPeriodDays) * DAY) return 'premium';
  return 'available';
}

/** A listing as stored, or as a statement's JSON gives it (times as text). */
type ListingFields = Omit<ListingRecord, 'ens_name_id' | 'expires_at' | 'created_at'> & { expires_at: Date | string | null; created_at: Date | string };

export function toNameListing(l: ListingFields) {
  return {
    id: l.id,
    price: weiString(l.price_wei),
    price_wei: weiString(l.price_wei),
    currency_address: l.currency_address,
    ...currencyFields(l.currency_address),
    status: l.status,
    seller_address: l.seller_address,
    order_hash: l.order_hash,
    order_data: new RawJson(l.order_data),
    expires_at: iso(l.expires_at),
    created_at: iso(l.created_at),
    source: l.source,
    broker_address: l.broker_address,
    broker_fee_bps: l.broker_fee_bps,
  };
}

/** A pending offer of the name page (`namePageRow`) as the page shows it. */
export function toNameOffer(o: OfferJson, n: { id: number; name: string; token_id: string }) {
  return {
    id: o.id,
    ens_name_id: n.id,
    buyer_address: o.buyer_address,
    offer_amount_wei: o.offer_amount_wei,
    currency_address: o.currency_address,
    ...currencyFields(o.currency_address),
    order_hash: o.order_hash,
    order_data: new RawJson(o.order_data),
    status: o.status,
    created_at: iso(o.created_at),
    expires_at: iso(o.expires_at),
    source: o.source,
    last_validated_at: iso(o.last_validated_at),
    unfunded_at: iso(o.unfunded_at),
    unfunded_reason: o.unfunded_reason,
    name: n.name,
    token_id: n.token_id,
  };
}

type ExtraFields = 'expiry_date' | 'wrapped' | 'registrant_address' | 'registration_date' | 'created_at' | 'updated_at' | 'views' | 'watchers_count';

/** The fields the name page adds to a search result (see contracts/names.ts); `watchEntry`: the caller's oldest entry. */
export function nameExtras(n: Pick<NameRecord, ExtraFields>, lastTransfer: Date | undefined, p: ExpiryPeriods, watchEntry: number | null = null) {
  return {
    status: statusOf(n.expiry_date, p),
    wrapped: n.wrapped,
    registrant: n.registrant_address,
    creation_date: iso(n.registration_date),
    last_transfer_date: iso(lastTransfer ?? null),
    last_sale_price_usd: null,
    metadata: {},
    metadata_updated_at: null,
    created_at: iso(n.created_at),
    updated_at: iso(n.updated_at),
    view_count: n.views,
    watchers_count: n.watchers_count,
    is_user_watching: watchEntry !== null,
    watchlist_record_id: watchEntry,
  };
}

export function toNameListItem(n: NameRecord, listings: ListingRecord[], lastTransfer: Date | undefined, p: ExpiryPeriods): NameListItem {
  return {
    id: n.id,
    name: n.name,
    token_id: n.token_id,
    owner_address: n.owner_address,
    expiry_date: iso(n.expiry_date),
    registration_date: iso(n.registration_date),
    last_sale_date: iso(n.last_sale_date),
    last_sale_price: weiString(n.last_sale_price_wei),
    last_sale_currency: n.last_sale_currency,
    resolver_address: null,
    has_emoji: n.has_emoji,
    has_numbers: n.has_numbers,
    clubs: n.clubs,
    upvotes: n.upvotes,
    downvotes: n.downvotes,
    net_score: n.net_score,
    highest_offer_wei: weiString(n.highest_offer_wei),
    highest_offer_currency: n.highest_offer_currency,
    highest_offer_id: n.highest_offer_id,
    last_offer_update: null,
    listings: listings.map((l) => ({
      id: l.id, price_wei: weiString(l.price_wei), currency_address: l.currency_address, ...currencyFields(l.currency_address), status: l.status, source: l.source,
      expires_at: iso(l.expires_at), created_at: iso(l.created_at),
    })),
    ...nameExtras(n, lastTransfer, p),
  };
}

/** A logged chain event as a transaction of the name: who it moved from and to. */
export function toNameTransaction(r: ActivityRow): NameTransaction {
  const [from, to] = r.event_type === 'registration' ? [null, r.actor_address]
    : r.event_type === 'renewal' ? [r.actor_address, null]
    : [r.actor_address, r.counterparty_address];
  return {
    id: r.id,
    ens_name_id: r.ens_name_id,
    transaction_hash: r.transaction_hash,
    block_number: r.block_number === null ? null : String(r.block_number),
    from_address: from,
    to_address: to,
    price_wei: weiString(r.price_wei),
    currency_address: r.currency_address,
    transaction_type: r.event_type,
    timestamp: iso(r.created_at),
    created_at: iso(r.created_at),
  };
}
