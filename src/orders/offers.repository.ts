import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import type { OfferStatus } from '../db/schema.js';
import { countOfParts, fewRowsPart, isPastEndPart, pageOfParts } from './status-parts.js';

/** An offer joined with its name, as the API shows it (status already accounts for the end time). */
export interface OfferRow {
  id: number;
  ens_name_id: number;
  buyer_address: string;
  offer_amount_wei: string;
  currency_address: string;
  order_hash: string;
  /** The signed order as its stored JSON text (a page writes it as it is: lib/raw-json.ts). */
  order_data: string;
  status: OfferStatus;
  created_at: Date;
  expires_at: Date | null;
  source: string;
  last_validated_at: Date | null;
  unfunded_at: Date | null;
  unfunded_reason: string | null;
  name: string;
  token_id: string;
  owner_address: string | null;
}

export interface OfferFilters {
  buyer?: string;
  ensNameId?: number;
  status?: OfferStatus;
  /** Offers on names this address owns. */
  owner?: string;
}

export type OfferSort = 'created' | 'amount';

/** A live offer (pending, unfunded) past its end time reads as expired until the sweep writes it. */
const EFFECTIVE_STATUS = sql<OfferStatus>`CASE WHEN o.status IN ('pending', 'unfunded') AND o.expires_at <= now() THEN 'expired' ELSE o.status END`;

/**
 * The status filter as index-friendly parts (each an equality on status); `expired` is three:
 * written expired, and pending or unfunded past the end time. No status: one part, no filter.
 */
function statusParts(status: OfferStatus | undefined): Array<RawBuilder<SqlBool> | undefined> {
  switch (status) {
    case undefined:
      return [undefined];
    case 'pending':
    case 'unfunded':
      return [sql<SqlBool>`(o.status = ${status} AND (o.expires_at IS NULL OR o.expires_at > now()))`];
    case 'expired':
      return [sql<SqlBool>`o.status = 'expired'`, sql<SqlBool>`(o.status = 'pending' AND o.expires_at <= now())`, sql<SqlBool>`(o.status = 'unfunded' AND o.expires_at <= now())`];
    case 'accepted':
    case 'rejected':
      return [sql<SqlBool>`o.status = ${status}`];
  }
}

function filtered(db: Executor, f: OfferFilters, part: RawBuilder<SqlBool> | undefined) {
  return db
    .selectFrom('offers as o')
    .$if(part !== undefined, (qb) => qb.where(part!))
    .$if(f.buyer !== undefined, (qb) => qb.where('o.buyer_address', '=', f.buyer!))
    .$if(f.ensNameId !== undefined, (qb) => qb.where('o.ens_name_id', '=', f.ensNameId!))
    .$if(f.owner !== undefined, (qb) => qb.where('o.name_owner_address', '=', f.owner!));
}

const COLUMNS = [
  'o.id', 'o.ens_name_id', 'o.buyer_address', 'o.offer_amount_wei', 'o.currency_address', 'o.order_hash', sql<string>`o.order_data::text`.as('order_data'),
  'o.created_at', 'o.expires_at', 'o.source', 'o.last_validated_at', 'o.unfunded_at', 'o.unfunded_reason',
  'n.name', 'n.token_id', 'n.owner_address',
] as const;

export async function findOffersByIds(db: Executor, ids: readonly number[]): Promise<OfferRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('offers as o')
    .innerJoin('ens_names as n', 'n.id', 'o.ens_name_id')
    .select([...COLUMNS, EFFECTIVE_STATUS.as('status')])
    .where('o.id', 'in', ids)
    .execute();
  return rows as OfferRow[];
}

export async function findOfferById(db: Executor, id: number): Promise<OfferRow | undefined> {
  return (await findOffersByIds(db, [id]))[0];
}

/**
 * One page of offers, newest first by default; ties break on id in the same direction (see
 * listListings for the parts). One plan whatever the values (GENERIC_PLAN): a buyer's, an owner's
 * (0028), a name's and a status's offers are each a range of their index.
 */
export async function listOffers(db: Executor, f: OfferFilters, sort: OfferSort, order: 'asc' | 'desc', limit: number, offset: number): Promise<OfferRow[]> {
  const column = sort === 'amount' ? 'o.offer_amount_wei' : 'o.created_at';
  const dense = (part: RawBuilder<SqlBool> | undefined) =>
    filtered(db, f, part).select(['o.id', sql.ref(column).as('k')]).orderBy(column, order).orderBy('o.id', order);
  const few = (part: RawBuilder<SqlBool> | undefined) =>
    fewRowsPart(db, filtered(db, f, part).select('o.id'), 'offers', column.slice(2), order) as unknown as ReturnType<typeof dense>;
  const parts = statusParts(f.status).map((part, i) => (isPastEndPart(f.status, i) ? few(part) : dense(part)));
  const page = pageOfParts(db, parts, order, limit, offset).as('pg');
  const rows = await db
    .selectFrom('offers as o')
    .innerJoin('ens_names as n', 'n.id', 'o.ens_name_id')
    .innerJoin(page, 'pg.id', 'o.id')
    .modifyFront(GENERIC_PLAN)
    .select([...COLUMNS, EFFECTIVE_STATUS.as('status')])
    .orderBy('pg.k', order).orderBy('pg.id', order)
    .execute();
  return rows as OfferRow[];
}

/** How many offers match, counting at most `cap` (+1 tells "more than cap") per status part; one plan for all values. */
export async function countOffers(db: Executor, f: OfferFilters, cap?: number): Promise<number> {
  return countOfParts(db, statusParts(f.status).map((part) => filtered(db, f, part)), cap);
}

export interface NewOffer {
  ensNameId: number;
  buyer: string;
  amountWei: string;
  currency: string;
  orderHash: string;
  orderData: Record<string, unknown>;
  source: string;
  expiresAt: Date | null;
}

export async function insertOffer(trx: Executor, o: NewOffer): Promise<number> {
  const row = await trx
    .insertInto('offers')
    .values({
      ens_name_id: o.ensNameId,
      buyer_address: o.buyer,
      offer_amount_wei: o.amountWei,
      currency_address: o.currency,
      order_hash: o.orderHash,
      order_data: JSON.stringify(o.orderData),
      source: o.source,
      expires_at: o.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The offer with this order hash (unique), if any. */
export async function findOfferIdByHash(db: Executor, orderHash: string): Promise<number | undefined> {
  return (await db.selectFrom('offers').select('id').where('order_hash', '=', orderHash).executeTakeFirst())?.id;
}
