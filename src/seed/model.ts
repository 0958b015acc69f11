import { keccak256, toHex } from 'viem';
import { DAY, HOUR, MINUTE } from '../lib/time.js';
import {
  AIRDROP_CUTOFF, ENS_LAUNCH, MIGRATION_EXPIRY, PERMANENT_REGISTRAR, PUNKS_LAUNCH, YEAR,
} from './chain.js';
import { demoLabels, type Category } from './labels.js';
import { Rng } from './random.js';

/** Program start of the referral awards (interface document). */
export const PROGRAM_START = Date.UTC(2026, 3, 1);

export type NameStatus = 'registered' | 'grace' | 'premium' | 'available';

export interface RegEvent {
  kind: 'registration' | 'renewal';
  at: number;
  actor: string;
  durationSeconds: number;
  expiry: number;
  /** Auction-era registrations carry the bid as their cost. */
  bidEth?: number;
}

export interface DemoSale {
  at: number;
  seller: string;
  buyer: string;
  /** Value in ETH; the currency decides the unit on the row. */
  eth: number;
  currency: 'eth' | 'weth' | 'usdc';
  via: 'listing' | 'offer' | 'external';
}

export interface DemoName {
  id: number;
  label: string;
  category: Category;
  /** Rough market value in ETH, the base of prices, offers and sales. */
  value: number;
  owner: string;
  wrapped: boolean;
  status: NameStatus;
  registeredAt: number;
  expiry: number;
  events: RegEvent[];
  sales: DemoSale[];
  /** ERC-721 or ERC-1155 token id used in orders; set when the name row is written. */
  orderTokenId?: string;
}

export interface Population {
  demo: string[];
  others: string[];
  names: DemoName[];
}

export interface ModelOptions {
  names: number;
  now: number;
  demoAddresses: string[];
  gracePeriodDays: number;
  premiumPeriodDays: number;
}

const BASE_VALUE: Record<Category, number> = { d3: 2, d4: 0.35, d5: 0.04, l3: 0.8, word: 0.03, emoji: 0.15, compound: 0.012, wordnum: 0.005 };
/** How likely a name of the category changed hands at least once. */
export const TRADE_RATE: Record<Category, number> = { d3: 0.4, d4: 0.3, d5: 0.12, l3: 0.3, word: 0.08, emoji: 0.1, compound: 0.03, wordnum: 0.02 };

function valueOf(c: Category, rank: number, label: string, rng: Rng): number {
  let v = BASE_VALUE[c];
  if (c === 'word') v += 3 * Math.exp(-rank / 1500) * (label.length <= 5 ? 2 : 1);
  return v * rng.logNormal(0.7);
}

/** Other owners' addresses: the last 20 bytes of keccak256 of a counter, so the same every run. */
export function otherOwner(i: number): string {
  return `0x${keccak256(toHex(`ens-market demo owner ${i}`)).slice(-40)}`;
}

function firstRegistration(rng: Rng, label: string, now: number): number {
  const era = rng.weighted({ prepunk: 4, auction: 10, pioneer: 28, boom: 28, later: 20, program: 10 });
  // The auction registrar only took names of 7+ characters.
  if ((era === 'prepunk' || era === 'auction') && [...label].length < 7) return rng.between(PERMANENT_REGISTRAR + 180 * DAY, now - 2 * DAY);
  switch (era) {
    case 'prepunk': return rng.between(ENS_LAUNCH, PUNKS_LAUNCH);
    case 'auction': return rng.between(PUNKS_LAUNCH, PERMANENT_REGISTRAR);
    case 'pioneer': return rng.between(PERMANENT_REGISTRAR, AIRDROP_CUTOFF);
    case 'boom': return rng.between(AIRDROP_CUTOFF, Date.UTC(2023, 0, 1));
    case 'later': return rng.between(Date.UTC(2023, 0, 1), Math.min(PROGRAM_START, now - 2 * DAY));
    case 'program': return rng.between(Math.min(PROGRAM_START, now - 30 * DAY), now - 2 * DAY);
  }
}

/**
 * The whole population in memory: labels, owners, status, registration history and sales.
 * Names get ids in order of first registration, as a sync from the chain would give them.
 */
export function buildPopulation(o: ModelOptions): Population {
  const rng = new Rng(`ens-market demo v1 model ${o.names}`);
  const now = o.now;
  const grace = o.gracePeriodDays * DAY;
  const premiumEnd = grace + o.premiumPeriodDays * DAY;
  const others = Array.from({ length: Math.max(300, Math.round(o.names / 20)) }, (_, i) => otherOwner(i));
  const demoShare = Math.min(0.12, Math.max(0.002, 1200 / o.names));
  const someOther = () => others[Math.floor(others.length * rng.next() ** 2.5)];
  const anyone = () => (rng.chance(0.05) ? rng.pick(o.demoAddresses) : someOther());

  const names: DemoName[] = demoLabels(o.names, rng).map(({ label, category, rank }) => {
    const owner = rng.chance(demoShare) ? rng.pick(o.demoAddresses) : someOther();
    const status = rng.weighted<NameStatus>({ registered: 82, grace: 6, premium: 3, available: 9 });
    let expiry: number;
    switch (status) {
      case 'registered': expiry = now + (rng.chance(0.6) ? rng.between(DAY, YEAR) : rng.between(YEAR, 6 * YEAR)); break;
      case 'grace': expiry = now - rng.between(HOUR, grace - HOUR); break;
      case 'premium': expiry = now - rng.between(grace + HOUR, premiumEnd - HOUR); break;
      case 'available': expiry = now - rng.between(premiumEnd + DAY, premiumEnd + 4 * YEAR); break;
    }
    let registeredAt = firstRegistration(rng, label, now);
    const firstExpiryOf = (at: number) => (at < PERMANENT_REGISTRAR ? MIGRATION_EXPIRY : at + 28 * DAY);
    if (firstExpiryOf(registeredAt) > expiry) registeredAt = rng.between(PERMANENT_REGISTRAR, Math.max(PERMANENT_REGISTRAR + DAY, expiry - YEAR));

    // Owners over time: registrant, then one per sale; the last is the current owner.
    const sales: DemoSale[] = [];
    const lastTransfer = Math.min(expiry, now) - HOUR;
    if (rng.chance(TRADE_RATE[category]) && lastTransfer - registeredAt > 2 * DAY) {
      const count = rng.weighted({ 1: 70, 2: 20, 3: 10 });
      const times = Array.from({ length: Number(count) }, () => rng.between(registeredAt + DAY, lastTransfer)).sort((a, b) => a - b);
      let buyer = owner;
      for (let i = times.length - 1; i >= 0; i--) {
        const seller = anyone();
        if (seller === buyer) continue;
        sales.unshift({ at: times[i], seller, buyer, eth: 0, currency: 'eth', via: 'external' });
        buyer = seller;
      }
    }
    const ownerAt = (t: number) => {
      let who = sales.length > 0 ? sales[0].seller : owner;
      for (const s of sales) if (s.at <= t) who = s.buyer;
      return who;
    };

    const events: RegEvent[] = [];
    const years = () => Number(rng.weighted({ 1: 45, 2: 18, 3: 14, 5: 15, 10: 8 }));
    let exp = registeredAt < PERMANENT_REGISTRAR ? MIGRATION_EXPIRY : Math.min(expiry, registeredAt + years() * YEAR);
    if (exp - registeredAt < 28 * DAY) exp = registeredAt + 28 * DAY;
    if (exp > expiry) expiry = exp;
    events.push({ kind: 'registration', at: registeredAt, actor: ownerAt(registeredAt), durationSeconds: Math.round((exp - registeredAt) / 1000), expiry: exp, bidEth: registeredAt < PERMANENT_REGISTRAR ? 0.01 * rng.logNormal(1.2) : undefined });
    let last = registeredAt;
    while (exp < expiry) {
      // Renewed ahead of expiry, sometimes a little into the grace period.
      let at = exp - rng.between(0, 200 * DAY) + (rng.chance(0.1) ? rng.between(0, 60 * DAY) : 0);
      let next = Math.min(expiry, exp + years() * YEAR);
      // Not due yet: the owner already renewed early, once, up to today's expiry.
      if (at > now - HOUR) [at, next] = [rng.between(Math.min(Math.max(last, exp - YEAR), now - 2 * HOUR), now - HOUR), expiry];
      at = Math.min(Math.max(Math.min(at, next - DAY), last + MINUTE), now - MINUTE);
      events.push({ kind: 'renewal', at, actor: rng.chance(0.9) ? ownerAt(at) : anyone(), durationSeconds: Math.round((next - exp) / 1000), expiry: next });
      exp = next;
      last = at;
    }
    // Renewals in the referral program's window, so the awards have figures.
    if (status === 'registered' && now > PROGRAM_START && last < now - 2 * DAY && rng.chance(0.15)) {
      const at = rng.between(Math.max(PROGRAM_START, last + HOUR), now - HOUR);
      const add = years() * YEAR;
      expiry += add;
      events.push({ kind: 'renewal', at, actor: ownerAt(at), durationSeconds: add / 1000, expiry });
    }

    const value = valueOf(category, rank, label, rng);
    for (const s of sales) {
      s.eth = value * rng.logNormal(0.5) * (s.at < Date.UTC(2021, 0, 1) ? 0.4 : 1);
      s.currency = rng.weighted({ eth: 60, weth: 30, usdc: 10 });
      s.via = rng.weighted({ listing: 55, offer: 25, external: 20 });
      // Offers are made in an ERC-20: an accepted offer paid WETH, not ETH.
      if (s.via === 'offer' && s.currency === 'eth') s.currency = 'weth';
    }
    return { id: 0, label, category, value, owner, wrapped: rng.chance(0.06), status, registeredAt, expiry, events, sales };
  });

  names.sort((a, b) => a.registeredAt - b.registeredAt || (a.label < b.label ? -1 : 1));
  names.forEach((n, i) => { n.id = i + 1; });
  return { demo: o.demoAddresses, others, names };
}
