import type { Hex } from 'viem';
import { buildListingOrder, buildOfferOrder, type Contracts, type Fee } from '../lib/seaport.js';
import { amountText } from '../orders/index.js';
import { DAY, HOUR, MINUTE } from '../lib/time.js';
import type { ActivityLog } from './activity.js';
import { blockAt, priceOf, type Currencies, type Currency } from './chain.js';
import type { CopyWriter } from './copy.js';
import type { DemoName, DemoSale } from './model.js';
import type { NameClubs, NameSummaries } from './names.js';
import type { OrderHasher, OrderSigner } from './orders.js';
import type { Rng } from './random.js';
import { iso } from './iso.js';


export interface MarketWriters {
  listings: CopyWriter;
  offers: CopyWriter;
  sales: CopyWriter;
  notifications: CopyWriter;
}

type Kind = 'listing_sold' | 'listing_expired' | 'offer_received' | 'offer_accepted' | 'offer_rejected' | 'offer_expired';

const sec = (ms: number) => Math.floor(ms / 1000);
/** Orders carry whole seconds (startTime, endTime); the rows' times match them. */
const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;
/** A marketplace's fee recipient, for the listings that carry a broker fee. */
const BROKER = '0x8de9c5a032463c561423387a9648c5c7bcc5bc90';
/** Notifications cover the last eight weeks. */
const NOTIFY_WINDOW = 56 * DAY;
const MIN_FORCED = 2;

/** The activity event that ends a listing or an offer in a status, and its cause (as src/orders logs them). */
const LISTING_ENDS: Partial<Record<string, { type: string; cause: string }>> = {
  cancelled: { type: 'listing_cancelled', cause: 'user' },
  expired: { type: 'listing_expired', cause: 'expiry' },
  unfunded: { type: 'listing_unfunded', cause: 'funds' },
};
// an accepted offer's event is logged with its sale, which carries the fill's transaction
const OFFER_ENDS: Partial<Record<string, { type: string; cause: string }>> = {
  rejected: { type: 'offer_cancelled', cause: 'user' },
  expired: { type: 'offer_expired', cause: 'expiry' },
  unfunded: { type: 'offer_unfunded', cause: 'funds' },
};


/**
 * Listings, offers, sales and the demo accounts' notifications of each name, as signed Seaport
 * orders. Rows get explicit ids (the tables were truncated with RESTART IDENTITY), so sales and
 * notifications can point at listings and offers without reading them back.
 */
export class MarketGenerator {
  private ids = { listing: 0, offer: 0, sale: 0, notification: 0 };
  private readonly demoSet: Set<string>;
  private readonly listed = new Map<string, number>();
  private readonly offered = new Map<string, number>();
  private readonly received = new Map<string, number>();

  constructor(
    private readonly rng: Rng,
    private readonly now: number,
    private readonly w: MarketWriters,
    private readonly hasher: OrderHasher,
    private readonly signer: OrderSigner,
    private readonly contracts: Contracts,
    private readonly currencies: Currencies,
    private readonly demo: readonly string[],
    private readonly someone: () => string,
    private readonly log: ActivityLog,
    /** How often an offer maker is a demo account (beyond the few each is given). */
    private readonly demoOfferShare: number,
    private readonly summaries: NameSummaries,
    /** the names' clubs, which their listings, offers and sales carry (as their insert triggers would copy them) */
    private readonly clubs: NameClubs,
  ) {
    this.demoSet = new Set(demo);
  }

  private amount(eth: number, currency: Currency, at: number): bigint {
    return priceOf(eth, currency, at);
  }

  private async order(kind: 'listing' | 'offer', name: DemoName, offerer: string, amount: bigint, currency: Currency, start: number, end: number, fee?: Fee) {
    const common = { token: { wrapped: name.wrapped, tokenId: name.orderTokenId ?? '0' }, currency: this.currencies[currency], fee, contracts: this.contracts, startTime: sec(start), endTime: sec(end), salt: this.rng.uint256(), counter: '0' };
    const parameters = kind === 'listing'
      ? buildListingOrder({ ...common, seller: offerer, priceWei: amount })
      : buildOfferOrder({ ...common, buyer: offerer, amountWei: amount });
    const hash = this.hasher.hash(parameters);
    const signature = await this.signer.sign(offerer, hash);
    return { hash, data: JSON.stringify({ parameters, signature }) };
  }

  private async listing(name: DemoName, seller: string, status: string, eth: number, currency: Currency, created: number, end: number, extra: { updated?: number; unfundedAt?: number; fee?: Fee } = {}) {
    [created, end] = [wholeSecond(created), wholeSecond(end)];
    const id = ++this.ids.listing;
    const price = this.amount(eth, currency, created);
    const { hash, data } = await this.order('listing', name, seller, price, currency, created, end, extra.fee);
    const live = status === 'active' || status === 'unfunded';
    await this.w.listings.add([id, name.id, seller, price.toString(), this.currencies[currency], hash, data, status, this.rng.chance(0.85) ? 'grails' : 'opensea',
      iso(created), iso(extra.updated ?? created), iso(end), live ? iso(this.now - this.rng.between(0, 12 * HOUR)) : null,
      extra.unfundedAt === undefined ? null : iso(extra.unfundedAt), extra.unfundedAt === undefined ? null : 'approval_revoked',
      extra.fee ? extra.fee.recipient : null, extra.fee ? extra.fee.bps : null, `${name.label}.eth`, iso(name.expiry),
      this.summaries.ethValue(price, this.currencies[currency])?.toString() ?? null, this.clubs.text(name.id)]);
    if (status === 'active') this.summaries.listing(name.id, id, price, this.currencies[currency], created, end);
    const event = { nameId: name.id, actor: seller, price: price.toString(), currency: this.currencies[currency], platform: 'grails' };
    this.log.add({ ...event, type: 'listed', metadata: { listing_id: id, cause: 'placed' }, at: created });
    const ending = LISTING_ENDS[status];
    const endedAt = status === 'unfunded' ? extra.unfundedAt : extra.updated;
    if (ending && endedAt !== undefined && endedAt <= this.now) {
      this.log.add({ ...event, type: ending.type, metadata: { listing_id: id, cause: ending.cause, previous_status: 'active' }, at: endedAt });
    }
    return { id, hash, price };
  }

  private async offer(name: DemoName, owner: string, buyer: string, status: string, eth: number, currency: Currency, created: number, end: number, extra: { updated?: number; unfundedAt?: number } = {}) {
    [created, end] = [wholeSecond(created), wholeSecond(end)];
    const id = ++this.ids.offer;
    const amount = this.amount(eth, currency, created);
    const { hash, data } = await this.order('offer', name, buyer, amount, currency, created, end);
    const live = status === 'pending' || status === 'unfunded';
    await this.w.offers.add([id, name.id, buyer, amount.toString(), this.currencies[currency], hash, data, status, this.rng.chance(0.85) ? 'grails' : 'opensea',
      iso(created), iso(extra.updated ?? created), iso(end), live ? iso(this.now - this.rng.between(0, 12 * HOUR)) : null,
      extra.unfundedAt === undefined ? null : iso(extra.unfundedAt), extra.unfundedAt === undefined ? null : 'insufficient_balance', name.owner, this.clubs.text(name.id)]);
    if (status === 'pending') this.summaries.offer(name.id, id, amount, this.currencies[currency], created, end);
    const event = { nameId: name.id, actor: buyer, counterparty: owner, price: amount.toString(), currency: this.currencies[currency], platform: 'grails' };
    this.log.add({ ...event, type: 'offer_made', metadata: { offer_id: id, cause: 'placed' }, at: created });
    const ending = OFFER_ENDS[status];
    const endedAt = status === 'unfunded' ? extra.unfundedAt : status === 'expired' ? end : extra.updated;
    if (ending && endedAt !== undefined && endedAt <= this.now) {
      this.log.add({ ...event, type: ending.type, metadata: { offer_id: id, cause: ending.cause, previous_status: 'pending' }, at: endedAt });
    }
    return { id, hash, amount };
  }

  /**
   * A notification to a demo account, worded and shaped like the ones the marketplace writes
   * (src/orders/effects.ts), for events of the last weeks.
   */
  private async notify(recipient: string, type: Kind, name: DemoName, at: number, o: { id: number; amount: bigint; currency: string; other: string; txHash?: string }) {
    if (!this.demoSet.has(recipient) || at < this.now - NOTIFY_WINDOW || at > this.now) return;
    const n = `${name.label}.eth`;
    const amount = amountText(o.amount, o.currency);
    const offer = { offerId: o.id, amountWei: o.amount.toString(), currency: o.currency };
    const listing = { listingId: o.id, priceWei: o.amount.toString(), currency: o.currency };
    const texts: Record<Kind, [string, string, Record<string, unknown>]> = {
      listing_sold: [`${n} sold`, `Your listing of ${n} was bought by ${o.other} for ${amount}.`, { ...listing, buyer: o.other, txHash: o.txHash ?? null }],
      listing_expired: [`Listing of ${n} expired`, `Your listing of ${n} reached its end time and is no longer for sale.`, listing],
      offer_received: [`New offer on ${n}`, `${o.other} offered ${amount} for ${n}.`, { ...offer, buyer: o.other }],
      offer_accepted: [`Offer on ${n} accepted`, `Your offer of ${amount} on ${n} was accepted.`, offer],
      offer_rejected: [`Offer on ${n} rejected`, `Your offer of ${amount} on ${n} was withdrawn.`, offer],
      offer_expired: [`Offer on ${n} expired`, `Your offer on ${n} reached its end time.`, offer],
    };
    const [title, message, metadata] = texts[type];
    const read = at < this.now - 3 * DAY ? this.rng.chance(0.75) : this.rng.chance(0.2);
    const readAt = read ? Math.min(this.now, at + this.rng.between(10 * MINUTE, 2 * DAY)) : null;
    await this.w.notifications.add([++this.ids.notification, recipient, type, name.id, title, message, JSON.stringify(metadata), iso(at), null, readAt === null ? null : iso(readAt)]);
  }

  private async sale(name: DemoName, s: DemoSale): Promise<void> {
    let listingId: number | null = null;
    let offerId: number | null = null;
    let hash: Hex | null = null;
    let offerAmount = 0n;
    const price = this.amount(s.eth, s.currency, s.at);
    if (s.via === 'listing') {
      const created = Math.max(name.registeredAt + HOUR, s.at - this.rng.between(HOUR, 30 * DAY));
      const l = await this.listing(name, s.seller, 'sold', s.eth, s.currency, created, s.at + this.rng.between(DAY, 150 * DAY), { updated: s.at });
      [listingId, hash] = [l.id, l.hash];
    } else if (s.via === 'offer') {
      const created = Math.max(name.registeredAt + HOUR, s.at - this.rng.between(HOUR, 10 * DAY));
      const o = await this.offer(name, s.seller, s.buyer, 'accepted', s.eth, s.currency, created, s.at + this.rng.between(DAY, 30 * DAY), { updated: s.at });
      [offerId, hash, offerAmount] = [o.id, o.hash, o.amount];
    }
    const id = ++this.ids.sale;
    const txHash = `0x${this.hasher.keccak(Buffer.from(`ens-market demo sale ${id}`, 'utf8')).toString('hex')}`;
    const currency = this.currencies[s.currency];
    const logIndex = this.rng.int(0, 300);
    const platform = s.via === 'external' ? 'seaport' : 'grails';
    await this.w.sales.add([id, name.id, s.seller, s.buyer, price.toString(), currency, hash, listingId, offerId, txHash, logIndex, platform, iso(s.at), this.clubs.text(name.id)]);
    this.log.add({
      type: 'sale', nameId: name.id, actor: s.seller, counterparty: s.buyer, price: price.toString(), currency, platform, tx: txHash, block: blockAt(s.at), logIndex,
      metadata: { order_hash: hash, ...(listingId !== null ? { listing_id: listingId } : offerId !== null ? { offer_id: offerId } : {}) }, at: s.at,
    });
    if (offerId !== null) {
      // accepting is the owner's act: the owner is the actor and the buyer the counterparty; the event carries the fill
      this.log.add({
        type: 'offer_accepted', nameId: name.id, actor: s.seller, counterparty: s.buyer, price: offerAmount.toString(), currency, platform: 'grails', tx: txHash,
        block: blockAt(s.at), logIndex, metadata: { offer_id: offerId, cause: 'chain_fill', previous_status: 'pending' }, at: s.at,
      });
    }
    if (listingId !== null) await this.notify(s.seller, 'listing_sold', name, s.at, { id: listingId, amount: price, currency, other: s.buyer, txHash });
    if (offerId !== null) await this.notify(s.buyer, 'offer_accepted', name, s.at, { id: offerId, amount: price, currency, other: s.seller });
  }

  private count(map: Map<string, number>, key: string): number {
    const n = (map.get(key) ?? 0) + 1;
    map.set(key, n);
    return n;
  }

  /** An offer maker other than the owner; demo accounts first until each has made a few offers. */
  private buyerFor(owner: string): string {
    const lagging = this.demo.find((d) => d !== owner && (this.offered.get(d) ?? 0) < MIN_FORCED);
    if (lagging) return lagging;
    for (;;) {
      const b = this.rng.chance(this.demoOfferShare) ? this.rng.pick(this.demo) : this.someone();
      if (b !== owner) return b;
    }
  }

  /** Writes the market rows of one name: its sales history, listings, offers and notifications. */
  async name(name: DemoName): Promise<void> {
    for (const s of name.sales) await this.sale(name, s);
    const now = this.now;
    const owner = name.owner;
    const eligible = name.status === 'registered' || name.status === 'grace';
    const isDemo = this.demoSet.has(owner);
    const since = Math.max(name.registeredAt, name.sales.at(-1)?.at ?? 0) + HOUR;
    const nth = eligible && isDemo ? this.count(this.listed, owner) : 0;

    if (eligible && (isDemo ? nth <= MIN_FORCED || this.rng.chance(0.3) : this.rng.chance(0.04 + 0.1 * Math.min(1, name.value)))) {
      const created = Math.max(since, now - this.rng.between(HOUR, 60 * DAY));
      const end = Math.max(created + this.rng.between(30 * DAY, 180 * DAY), now + this.rng.between(2 * DAY, 10 * DAY));
      const currency = this.rng.weighted<Currency>({ eth: 85, weth: 10, usdc: 5 });
      const fee = this.rng.chance(0.08) ? { recipient: BROKER, bps: this.rng.pick([100, 150, 250, 500]) } : undefined;
      await this.listing(name, owner, 'active', name.value * this.rng.between(1.1, 3), currency, created, end, { fee });
    }
    if (since < now - 3 * DAY && this.rng.chance(isDemo ? 0.3 : 0.06)) {
      const status = this.rng.weighted({ expired: 40, cancelled: 35, unfunded: eligible ? 25 : 0 });
      const created = Math.max(since, now - this.rng.between(3 * DAY, 365 * DAY));
      const eth = name.value * this.rng.between(1.2, 4);
      if (status === 'expired') {
        const end = created + this.rng.between(HOUR, Math.min(90 * DAY, now - HOUR - created));
        const l = await this.listing(name, owner, 'expired', eth, 'eth', created, end, { updated: end });
        await this.notify(owner, 'listing_expired', name, end, { id: l.id, amount: l.price, currency: this.currencies.eth, other: owner });
      } else if (status === 'cancelled') {
        await this.listing(name, owner, 'cancelled', eth, 'eth', created, created + this.rng.between(30 * DAY, 90 * DAY), { updated: Math.min(now, created + this.rng.between(HOUR, 10 * DAY)) });
      } else {
        const unfundedAt = Math.min(now - MINUTE, created + this.rng.between(HOUR, 5 * DAY));
        await this.listing(name, owner, 'unfunded', eth, 'eth', created, now + this.rng.between(5 * DAY, 60 * DAY), { updated: unfundedAt, unfundedAt });
      }
    }

    if (!eligible) return;
    const forced = isDemo && this.count(this.received, owner) <= MIN_FORCED + 1;
    if (!forced && !this.rng.chance(isDemo ? 0.5 : 0.03 + 0.12 * Math.min(1, name.value))) return;
    const offers = this.rng.int(1, 4);
    for (let i = 0; i < offers; i++) {
      const buyer = this.buyerFor(owner);
      if (this.demoSet.has(buyer)) this.count(this.offered, buyer);
      const status = i === 0 && forced ? 'pending' : this.rng.weighted({ pending: 55, expired: 20, rejected: 15, unfunded: 10 });
      const eth = name.value * this.rng.between(0.2, 0.9);
      const currency: Currency = status !== 'pending' && this.rng.chance(0.1) ? 'usdc' : 'weth';
      let created: number, end: number, updated: number | undefined, unfundedAt: number | undefined;
      if (status === 'pending') {
        created = Math.max(since, now - this.rng.between(HOUR, 20 * DAY));
        end = now + this.rng.between(3 * DAY, 30 * DAY);
      } else if (status === 'expired') {
        created = Math.max(since, now - this.rng.between(10 * DAY, 200 * DAY));
        end = Math.min(now - HOUR, created + this.rng.between(DAY, 7 * DAY));
        updated = end;
      } else if (status === 'rejected') {
        created = Math.max(since, now - this.rng.between(DAY, 120 * DAY));
        end = created + this.rng.between(7 * DAY, 30 * DAY);
        updated = Math.min(now, created + this.rng.between(HOUR, 3 * DAY));
      } else {
        created = Math.max(since, now - this.rng.between(DAY, 60 * DAY));
        end = now + this.rng.between(DAY, 30 * DAY);
        unfundedAt = updated = Math.min(now - MINUTE, created + this.rng.between(HOUR, 5 * DAY));
      }
      if (created >= now) created = now - MINUTE;
      if (end <= created) end = created + HOUR;
      const o = await this.offer(name, owner, buyer, status, eth, currency, created, end, { updated, unfundedAt });
      const meta = { id: o.id, amount: o.amount, currency: this.currencies[currency], other: buyer };
      await this.notify(owner, 'offer_received', name, created, meta);
      if (status === 'rejected' && updated !== undefined) await this.notify(buyer, 'offer_rejected', name, updated, meta);
      if (status === 'expired') await this.notify(buyer, 'offer_expired', name, end, meta);
    }
  }
}
