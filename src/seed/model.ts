import { DAY, HOUR, MINUTE } from '../lib/time.js';
import {
  AIRDROP_CUTOFF, ENS_LAUNCH, ethUsdOnDay, MIGRATION_EXPIRY, PERMANENT_REGISTRAR, PUNKS_LAUNCH, YEAR,
} from './chain.js';
import { demoLabels, type Category } from './labels.js';
import type { Keccak } from './keccak.js';
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
  keccak: Keccak;
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
export function otherOwner(keccak: Keccak, i: number): string {
  return `0x${keccak(Buffer.from(`ens-market demo owner ${i}`, 'utf8')).toString('hex', 12)}`;
}

/** The recent market: the last two years, where most sales fall (charts and analytics read them). */
export const RECENT_MARKET = 2 * YEAR;
/**
 * The base rate of sales per name. With the spread of the draws (a log-normal mean of 1.38, and
 * names that were not registered all along) it gives about 0.2 sales per name at every size:
 * 2,000 at 10,000 names, 200,000 at a million, four in five in the recent market.
 */
const SALES_PER_NAME = 0.15;
/** Relative expected sales of a name of the category over the two recent years (a hot name trades more). */
const RECENT_SALES: Record<Category, number> = { d3: 2.2, d4: 1.2, d5: 0.5, l3: 1, word: 0.3, emoji: 0.35, compound: 0.16, wordnum: 0.1 };

/**
 * How busy the market was on each of the recent days, as a cumulative weight to draw sale times
 * from: busier when ETH is dearer, quieter at weekends, growing towards today.
 */
export class MarketCalendar {
  readonly from: number;
  private readonly cumulative: Float64Array;

  constructor(readonly now: number) {
    const days = Math.ceil(RECENT_MARKET / DAY) + 1;
    this.from = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
    this.cumulative = new Float64Array(days + 1);
    for (let d = 0; d < days; d++) {
      const day = this.from / DAY + d;
      const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 0 is Sunday
      const weight = (ethUsdOnDay(day) / 3000) ** 0.8 * (weekday === 0 || weekday === 6 ? 0.75 : 1) * (0.7 + 0.6 * (d / days));
      this.cumulative[d + 1] = this.cumulative[d] + weight;
    }
  }

  private weightTo(t: number): number {
    const x = Math.min(Math.max((t - this.from) / DAY, 0), this.cumulative.length - 1);
    const d = Math.floor(x);
    const next = this.cumulative[Math.min(d + 1, this.cumulative.length - 1)];
    return this.cumulative[d] + (next - this.cumulative[d]) * (x - d);
  }

  /** A time in [a, b) drawn by the day's weight (inverse of the piecewise linear cumulative weight). */
  draw(rng: Rng, a: number, b: number): number {
    const target = this.weightTo(a) + rng.next() * (this.weightTo(b) - this.weightTo(a));
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] <= target) lo = mid;
      else hi = mid;
    }
    const span = this.cumulative[hi] - this.cumulative[lo];
    const t = this.from + (lo + (span > 0 ? (target - this.cumulative[lo]) / span : 0)) * DAY;
    return Math.min(Math.max(t, a), b - 1);
  }
}

/** Poisson-distributed count (Knuth's method; the means here are small). */
function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = rng.next(); p > limit; p *= rng.next()) k++;
  return k;
}

/**
 * A name's sales, oldest first, sellers and buyers chained so that the last buyer is the owner:
 * a few before the recent market (names that ever traded), and most in the last two years, drawn
 * from the market calendar.
 */
function saleHistory(rng: Rng, market: MarketCalendar, scale: number, category: Category, registeredAt: number, lastTransfer: number, owner: string,
  anyone: () => string): DemoSale[] {
  const times: number[] = [];
  const first = registeredAt + DAY;
  const oldEnd = Math.min(lastTransfer, market.from);
  if (oldEnd - first > DAY && rng.chance(TRADE_RATE[category] * scale)) {
    const count = Number(rng.weighted({ 1: 75, 2: 20, 3: 5 }));
    for (let i = 0; i < count; i++) times.push(rng.between(first, oldEnd));
  }
  const recentStart = Math.max(first, market.from);
  if (lastTransfer - recentStart > DAY) {
    const mean = RECENT_SALES[category] * scale * rng.logNormal(0.8) * ((lastTransfer - recentStart) / RECENT_MARKET);
    const count = Math.min(8, poisson(rng, mean));
    for (let i = 0; i < count; i++) times.push(market.draw(rng, recentStart, lastTransfer));
  }
  times.sort((a, b) => a - b);
  const sales: DemoSale[] = [];
  let buyer = owner;
  for (let i = times.length - 1; i >= 0; i--) {
    const seller = anyone();
    if (seller === buyer) continue;
    sales.unshift({ at: times[i], seller, buyer, eth: 0, currency: 'eth', via: 'external' });
    buyer = seller;
  }
  return sales;
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
  const others = Array.from({ length: Math.max(300, Math.round(o.names / 20)) }, (_, i) => otherOwner(o.keccak, i));
  const demoShare = Math.min(0.12, Math.max(0.002, 1200 / o.names));
  const someOther = () => others[Math.floor(others.length * rng.next() ** 2.5)];
  // The demo accounts are a party to a few hundred sales and renewals at any size, not to one in twenty.
  const demoParty = Math.min(0.05, 500 / o.names);
  const anyone = () => (rng.chance(demoParty) ? rng.pick(o.demoAddresses) : someOther());
  const market = new MarketCalendar(now);

  const labels = demoLabels(o.names, rng);
  // Small data sets hold the most traded kinds of names: the rates are scaled to the set's mix.
  const salesScale = (SALES_PER_NAME * labels.length) / labels.reduce((sum, l) => sum + RECENT_SALES[l.category], 0);
  const names: DemoName[] = labels.map(({ label, category, rank }) => {
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
    const value = valueOf(category, rank, label, rng);
    const sales = saleHistory(rng, market, salesScale, category, registeredAt, Math.min(expiry, now) - HOUR, owner, anyone);
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
