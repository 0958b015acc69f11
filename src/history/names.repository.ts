import { sql } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';

export interface NameRecord {
  id: number;
  name: string;
  label: string;
  token_id: string;
  namehash: string;
  owner_address: string | null;
  registrant_address: string | null;
  registration_date: Date | null;
  expiry_date: Date | null;
  wrapped: boolean;
  has_emoji: boolean;
  has_numbers: boolean;
  clubs: string[];
  last_sale_date: Date | null;
  last_sale_price_wei: string | null;
  last_sale_currency: string | null;
  highest_offer_wei: string | null;
  highest_offer_currency: string | null;
  highest_offer_id: number | null;
  upvotes: number;
  downvotes: number;
  net_score: number;
  watchers_count: number;
  created_at: Date;
  updated_at: Date;
  views: number;
  /** The time of the name's newest logged transfer (activity_events_name_idx). */
  last_transfer_at: Date | null;
}

export interface ListingRecord {
  id: number;
  ens_name_id: number;
  price_wei: string;
  currency_address: string;
  status: string;
  seller_address: string;
  order_hash: string;
  order_data: Record<string, unknown>;
  expires_at: Date | null;
  created_at: Date;
  source: string;
  broker_address: string | null;
  broker_fee_bps: number | null;
}

/** Names by id (primary key), with their view totals. */
export async function nameRecords(db: Executor, ids: readonly number[]): Promise<Map<number, NameRecord>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('ens_names as n')
    .modifyFront(GENERIC_PLAN)
    .leftJoin('name_view_counts as v', 'v.ens_name_id', 'n.id')
    .select((eb) => [
      'n.id', 'n.name', 'n.label', 'n.token_id', 'n.namehash', 'n.owner_address', 'n.registrant_address', 'n.registration_date', 'n.expiry_date',
      'n.wrapped', 'n.has_emoji', 'n.has_numbers', 'n.clubs', 'n.last_sale_date', 'n.last_sale_price_wei', 'n.last_sale_currency',
      'n.highest_offer_wei', 'n.highest_offer_currency', 'n.highest_offer_id', 'n.upvotes', 'n.downvotes', 'n.net_score', 'n.watchers_count', 'n.created_at', 'n.updated_at',
      sql<number>`coalesce(v.views, 0)::int`.as('views'),
      eb.selectFrom('activity_events as a').select('a.created_at').whereRef('a.ens_name_id', '=', 'n.id').where('a.event_type', '=', 'transfer')
        .orderBy('a.id', 'desc').limit(1).as('last_transfer_at'),
    ])
    .where('n.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Active, unexpired listings of the names, newest first (listings_name_idx). */
export async function activeListings(db: Executor, ids: readonly number[]): Promise<Map<number, ListingRecord[]>> {
  const out = new Map<number, ListingRecord[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('listings')
    .modifyFront(GENERIC_PLAN)
    .select(['id', 'ens_name_id', 'price_wei', 'currency_address', 'status', 'seller_address', 'order_hash', 'order_data', 'expires_at', 'created_at', 'source', 'broker_address', 'broker_fee_bps'])
    .where('ens_name_id', 'in', ids)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  for (const r of rows) out.set(r.ens_name_id, [...(out.get(r.ens_name_id) ?? []), r]);
  return out;
}

/** Pending, unexpired offers of a name (offers_name_idx). */
export async function pendingOfferCount(db: Executor, ensNameId: number): Promise<number> {
  const r = await db
    .selectFrom('offers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ens_name_id', '=', ensNameId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
