import { sql } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import { resultRowsWith, type ResultRow } from '../search/results.js';

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
  /** the signed order as its stored JSON text (written as it is: lib/raw-json.ts) */
  order_data: string;
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
    .select(['id', 'ens_name_id', 'price_wei', 'currency_address', 'status', 'seller_address', 'order_hash', sql<string>`order_json::text`.as('order_data'), 'expires_at', 'created_at', 'source', 'broker_address', 'broker_fee_bps'])
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

/** A pending offer as the name page's statement returns it (JSON: amounts and times as text). */
export interface OfferJson {
  id: number;
  buyer_address: string;
  offer_amount_wei: string;
  currency_address: string;
  order_hash: string;
  /** the signed order as its stored JSON text */
  order_data: string;
  status: string;
  created_at: string;
  expires_at: string | null;
  source: string;
  last_validated_at: string | null;
  unfunded_at: string | null;
  unfunded_reason: string | null;
}

/** The name page's row: the search result row with the record's further columns and the name's pending offers. */
export type NamePageRow = ResultRow & Pick<NameRecord, 'label' | 'namehash' | 'registrant_address' | 'wrapped' | 'created_at' | 'updated_at' | 'views' | 'last_transfer_at'> & {
  /** pending unexpired offers, highest first (null when none) */
  offers: OfferJson[] | null;
};

/**
 * The name page of a stored, searchable name (normalized) in one statement, planned once per
 * connection: the name by its unique key, its search result row with its active listings, the
 * record's further columns, its view total, its newest logged transfer (activity_events_name_idx)
 * and its pending unexpired offers, highest first, at most `maxOffers` (offers_name_idx). The
 * event type is a parameter: a literal would let the generic plan follow its statistics (a type
 * with no rows yet) to the type index, walking every transfer for a name without one. Five
 * statements in two round trips before; each cost the service and PostgreSQL more than its
 * lookups do. Undefined when the name is not here.
 */
export async function namePageRow(db: Executor, name: string, maxOffers: number): Promise<NamePageRow | undefined> {
  const [row] = await resultRowsWith<Omit<NamePageRow, keyof ResultRow>>(
    db,
    sql`(SELECT f.id, 1 AS ord FROM ens_names f WHERE f.name = ${name} AND f.searchable) p`,
    { plan: 'generic', extra: sql`, n.label, n.namehash, n.registrant_address, n.wrapped, n.created_at, n.updated_at,
      coalesce((SELECT v.views FROM name_view_counts v WHERE v.ens_name_id = n.id), 0)::int AS views,
      (SELECT a.created_at FROM activity_events a WHERE a.ens_name_id = n.id AND a.event_type = ${'transfer'} ORDER BY a.id DESC LIMIT 1) AS last_transfer_at,
      (SELECT json_agg(json_build_object('id', o.id, 'buyer_address', o.buyer_address, 'offer_amount_wei', o.offer_amount_wei::text,
          'currency_address', o.currency_address, 'order_hash', o.order_hash, 'order_data', o.order_json::text, 'status', o.status,
          'created_at', o.created_at, 'expires_at', o.expires_at, 'source', o.source, 'last_validated_at', o.last_validated_at,
          'unfunded_at', o.unfunded_at, 'unfunded_reason', o.unfunded_reason) ORDER BY o.offer_amount_wei DESC, o.id)
        FROM (SELECT o.id, o.buyer_address, o.offer_amount_wei, o.currency_address, o.order_hash, o.order_json, o.status, o.created_at, o.expires_at,
            o.source, o.last_validated_at, o.unfunded_at, o.unfunded_reason
          FROM offers o WHERE o.ens_name_id = n.id AND o.status = 'pending' AND (o.expires_at IS NULL OR o.expires_at > now())
          ORDER BY o.offer_amount_wei DESC, o.id LIMIT ${sql.lit(maxOffers)}) o) AS offers` },
  );
  return row;
}
