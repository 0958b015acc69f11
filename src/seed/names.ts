import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { builtInClubsOf } from '../lib/clubs.js';
import { DAY } from '../lib/time.js';
import { ethUsdOnDay, priceOf, type Currencies } from './chain.js';
import { textArray, type CopyWriter } from './copy.js';
import { iso } from './iso.js';
import { hashLabel } from './labels.js';
import type { Keccak } from './keccak.js';
import type { DemoName } from './model.js';

const NO_CLUBS: readonly string[] = [];

/**
 * Each seeded name's built-in clubs, worked out once (10 % of a million names are in one): the
 * names' rows carry them, and so do their orders, sales and registrations' feed rows (0048, 0049)
 * and the clubs' activity (0047), as the insert triggers the seed turns off would copy them.
 */
export class NameClubs {
  private readonly byId: (readonly string[])[] = [];
  private readonly texts: string[] = [];
  private readonly keys: (readonly string[])[] = [];

  constructor(names: readonly DemoName[]) {
    for (const n of names) {
      const clubs = builtInClubsOf(n.label);
      this.byId[n.id] = clubs.length === 0 ? NO_CLUBS : clubs;
    }
  }

  of(id: number): readonly string[] {
    return this.byId[id] ?? NO_CLUBS;
  }

  /** As a COPY array. */
  text(id: number): string {
    const clubs = this.of(id);
    return clubs === NO_CLUBS ? '{}' : (this.texts[id] ??= textArray(clubs));
  }

  /** The keys of club_activity the name's events go under: its clubs and `*`, or none. */
  activityKeys(id: number): readonly string[] {
    const clubs = this.of(id);
    return clubs === NO_CLUBS ? NO_CLUBS : (this.keys[id] ??= [...clubs, '*']);
  }
}

/** The summary columns of a name row (after the columns `writeName` always writes). */
export const SUMMARY_COLUMNS = ['highest_offer_wei', 'highest_offer_currency', 'highest_offer_id', 'upvotes', 'downvotes',
  'listing_price_wei', 'listing_currency', 'listing_created_at', 'listing_expires_at'] as const;

/**
 * The names' hashes, taken before the market pass (its orders need the token ids) and kept as
 * bytes until the names' rows are written: 64 bytes a name instead of three strings.
 */
export class NameHashes {
  private readonly bytes: Buffer;
  private readonly emoji: Uint8Array;
  /** the base registrar token id of wrapped names (the others' is their order token id) */
  private readonly tokenIds = new Map<number, string>();

  constructor(private readonly keccak: Keccak, count: number) {
    this.bytes = Buffer.alloc(64 * count);
    this.emoji = new Uint8Array(count);
  }

  /** Hashes name number `i` (its id - 1) and sets its order token id. */
  add(i: number, n: DemoName): void {
    const h = hashLabel(this.keccak, n.label, n.category === 'emoji');
    this.bytes.write(h.labelhash.slice(2), 64 * i, 'hex');
    this.bytes.write(h.namehash.slice(2), 64 * i + 32, 'hex');
    this.emoji[i] = h.hasEmoji ? 1 : 0;
    n.orderTokenId = n.wrapped ? h.wrappedTokenId : h.tokenId;
    if (n.wrapped) this.tokenIds.set(i, h.tokenId);
  }

  labelhash(i: number): string {
    return `0x${this.bytes.toString('hex', 64 * i, 64 * i + 32)}`;
  }

  namehash(i: number): string {
    return `0x${this.bytes.toString('hex', 64 * i + 32, 64 * i + 64)}`;
  }

  tokenId(i: number, n: DemoName): string {
    return this.tokenIds.get(i) ?? n.orderTokenId ?? '';
  }

  hasEmoji(i: number): boolean {
    return this.emoji[i] === 1;
  }
}

/** An amount's value in wei of ETH, as `eth_value_wei()` (migration 0007) gives it; null when unknown. */
export type EthValue = (amount: bigint, currency: string) => bigint | null;

/**
 * `eth_value_wei()` in node: the currencies table's pegs and decimals, and the seed's latest
 * ETH/USD price (the last row it writes). A USD amount is divided by a price of two decimals, so
 * PostgreSQL's quotient (8 or more decimals, then truncated) is the integer part of the exact one.
 */
export async function ethValuer(db: Db, now: number): Promise<EthValue> {
  const { rows } = await sql<{ address: string; decimals: number; peg: string }>`SELECT address, decimals, peg FROM currencies`.execute(db);
  const cents = BigInt(ethUsdOnDay(Math.floor(now / DAY)).toFixed(2).replace('.', ''));
  const known = new Map(rows.filter((r) => r.decimals <= 18).map((r) => [r.address, { scale: 10n ** BigInt(18 - r.decimals), usd: r.peg === 'usd' }]));
  return (amount, currency) => {
    const c = known.get(currency);
    if (c === undefined) return null;
    return c.usd ? (amount * c.scale * 100n) / cents : amount * c.scale;
  };
}

interface Offer { id: number; amount: bigint; value: bigint | null; currency: string; created: number }
interface Listing { id: number; value: bigint; currency: string; created: number; expires: number }

/**
 * What a name's row summarises of its orders and votes, collected as they are generated: the
 * highest live offer and the newest live listing as the marketplace keeps them
 * (`refreshAllMarketSummaries`, which then finds nothing to change), and the vote counts.
 */
export class NameSummaries {
  private readonly up: Uint32Array;
  private readonly down: Uint32Array;
  private readonly offers = new Map<number, Offer>();
  private readonly listings = new Map<number, Listing>();

  constructor(count: number, private readonly now: number, readonly ethValue: EthValue) {
    this.up = new Uint32Array(count + 1);
    this.down = new Uint32Array(count + 1);
  }

  vote(nameId: number, vote: number): void {
    if (vote > 0) this.up[nameId]++;
    else this.down[nameId]++;
  }

  /** A pending offer: the best by value in ETH (unknown last), then amount, the oldest, the lowest id. */
  offer(nameId: number, id: number, amount: bigint, currency: string, created: number, expires: number): void {
    if (expires <= this.now) return;
    const o: Offer = { id, amount, value: this.ethValue(amount, currency), currency, created };
    const best = this.offers.get(nameId);
    if (best === undefined || better(o, best)) this.offers.set(nameId, o);
  }

  /** An active listing: the newest (then the highest id), its price valued in ETH. */
  listing(nameId: number, id: number, price: bigint, currency: string, created: number, expires: number): void {
    if (expires <= this.now) return;
    const newest = this.listings.get(nameId);
    if (newest !== undefined && (newest.created > created || (newest.created === created && newest.id > id))) return;
    this.listings.set(nameId, { id, value: this.ethValue(price, currency) ?? price, currency, created, expires });
  }

  /** The values of SUMMARY_COLUMNS for a name. */
  columns(nameId: number): (string | number | null)[] {
    const o = this.offers.get(nameId);
    const l = this.listings.get(nameId);
    return [o ? o.amount.toString() : null, o ? o.currency : null, o ? o.id : null, this.up[nameId], this.down[nameId],
      l ? l.value.toString() : null, l ? l.currency : null, l ? iso(l.created) : null, l ? iso(l.expires) : null];
  }
}

function better(a: Offer, b: Offer): boolean {
  if (a.value !== b.value) {
    if (a.value === null || b.value === null) return b.value === null;
    return a.value > b.value;
  }
  if (a.amount !== b.amount) return a.amount > b.amount;
  return a.created !== b.created ? a.created < b.created : a.id < b.id;
}

/** The columns `writeName` writes, SUMMARY_COLUMNS last. */
export const NAME_COLUMNS = ['id', 'name', 'label', 'labelhash', 'namehash', 'token_id', 'wrapped', 'owner_address', 'registrant_address', 'registration_date',
  'expiry_date', 'has_emoji', 'clubs', 'last_sale_date', 'last_sale_price_wei', 'last_sale_currency', 'created_at', 'updated_at', ...SUMMARY_COLUMNS] as const;

/** The row of name number `i` (its id - 1). */
export async function writeName(w: CopyWriter, i: number, n: DemoName, hashes: NameHashes, clubs: NameClubs, summaries: NameSummaries, currencies: Currencies, now: number): Promise<void> {
  const last = n.sales.at(-1);
  await w.add([n.id, `${n.label}.eth`, n.label, hashes.labelhash(i), hashes.namehash(i), hashes.tokenId(i, n), n.wrapped, n.owner, n.owner, iso(n.registeredAt),
    iso(n.expiry), hashes.hasEmoji(i), clubs.text(n.id), last ? iso(last.at) : null, last ? priceOf(last.eth, last.currency, last.at).toString() : null,
    last ? currencies[last.currency] : null, iso(n.registeredAt), iso(now), ...summaries.columns(n.id)]);
}
