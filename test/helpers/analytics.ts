import { randomBytes } from 'node:crypto';
import type { Executor } from '../../src/db/client.js';
import { builtInClubsOf } from '../../src/lib/clubs.js';
import { parseEthName } from '../../src/lib/ens.js';
import { createName } from './factories.js';

/** Raw market rows as the chain sync, the order endpoints and the votes write them, at chosen times. */
export const ETH = '0x0000000000000000000000000000000000000000';
export const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
export const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
export const E = (eth: number) => BigInt(Math.round(eth * 1e6)) * 10n ** 12n;

const hash = () => `0x${randomBytes(32).toString('hex')}`;
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
export { addr };

export async function clubName(db: Executor, name: string, owner?: string, expiryDate?: Date) {
  return createName(db, name, { owner, clubs: builtInClubsOf(parseEthName(name).label), expiryDate });
}

export async function sale(db: Executor, s: { nameId: number; price: bigint; at: Date; currency?: string; source?: string; seller?: string; buyer?: string }) {
  return db.insertInto('sales').values({
    ens_name_id: s.nameId, seller_address: s.seller ?? addr(1), buyer_address: s.buyer ?? addr(2), price_wei: s.price,
    currency_address: s.currency ?? ETH, tx_hash: hash(), log_index: 0, source: s.source ?? 'grails', sold_at: s.at,
  }).returning('id').executeTakeFirstOrThrow();
}

export async function registration(db: Executor, r: { nameId: number; cost: bigint; premium?: bigint; at: Date; actor?: string; kind?: 'registration' | 'renewal'; referrer?: string }) {
  return db.insertInto('registrations').values({
    ens_name_id: r.nameId, kind: r.kind ?? 'registration', actor_address: r.actor ?? addr(3), tx_hash: hash(), log_index: 0, block_number: 1,
    block_time: r.at, duration_seconds: 31_536_000, cost_wei: r.cost, premium_wei: r.premium ?? 0n, referrer: r.referrer ?? null,
  }).returning('id').executeTakeFirstOrThrow();
}

export async function listing(db: Executor, l: { nameId: number; price: bigint; at: Date; source?: string; status?: 'active' | 'sold' | 'cancelled' | 'expired' | 'unfunded'; seller?: string; currency?: string; expiresAt?: Date | null }) {
  return db.insertInto('listings').values({
    ens_name_id: l.nameId, seller_address: l.seller ?? addr(1), price_wei: l.price, currency_address: l.currency ?? ETH, order_hash: hash(),
    order_data: '{}', status: l.status ?? 'active', source: l.source ?? 'grails', created_at: l.at, updated_at: l.at, expires_at: l.expiresAt ?? null,
  }).returning('id').executeTakeFirstOrThrow();
}

export async function offer(db: Executor, o: { nameId: number; amount: bigint; at: Date; source?: string; status?: 'pending' | 'accepted' | 'rejected' | 'expired' | 'unfunded'; buyer?: string; currency?: string }) {
  return db.insertInto('offers').values({
    ens_name_id: o.nameId, buyer_address: o.buyer ?? addr(2), offer_amount_wei: o.amount, currency_address: o.currency ?? WETH, order_hash: hash(),
    order_data: '{}', status: o.status ?? 'pending', source: o.source ?? 'grails', created_at: o.at, updated_at: o.at,
  }).returning('id').executeTakeFirstOrThrow();
}

export async function voteEvent(db: Executor, v: { userId: number; nameId: number; vote: number; at: Date }) {
  await db.insertInto('vote_events').values({ user_id: v.userId, ens_name_id: v.nameId, vote: v.vote, cast_at: v.at }).execute();
}

export async function user(db: Executor, address: string) {
  return db.insertInto('users').values({ address }).returning('id').executeTakeFirstOrThrow();
}

/** A watchlist entry of the user's default list (made on first use), added at `at`. */
export async function watch(db: Executor, w: { userId: number; nameId: number; at: Date }) {
  const list = await db.selectFrom('watchlists').select('id').where('user_id', '=', w.userId).where('is_default', '=', true).executeTakeFirst()
    ?? await db.insertInto('watchlists').values({ user_id: w.userId, name: 'Watchlist', is_default: true }).returning('id').executeTakeFirstOrThrow();
  return db.insertInto('watchlist_items').values({ list_id: list.id, user_id: w.userId, ens_name_id: w.nameId, created_at: w.at }).returning('id').executeTakeFirstOrThrow();
}
