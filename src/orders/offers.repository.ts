import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import { present, readBefore, rowTexts, statusMiddle } from '../db/row-texts.js';
import { runShaped } from '../db/shapes.js';
import { currencyJson, isoText, jsonObject, weiText } from '../db/json-rows.js';
import type { OfferStatus } from '../db/schema.js';
import { countOfParts, type PageRow, fewRowsPart, isPastEndPart, pageOfParts } from './status-parts.js';

export interface OfferFilters {
  buyer?: string;
  ensNameId?: number;
  status?: OfferStatus;
  /** Offers on names this address owns. */
  owner?: string;
}

export type OfferSort = 'created' | 'amount';

/** A live offer (pending, unfunded) past its end time reads as expired until the sweep writes it. */
const EFFECTIVE_STATUS = "CASE WHEN o.status IN ('pending', 'unfunded') AND o.expires_at <= now() THEN 'expired' ELSE o.status END";

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

/** The filters' values (the filters themselves, or a shape's slots for them: db/shapes.ts). */
type FilterValues = Pick<OfferFilters, 'buyer' | 'ensNameId' | 'owner'>;

/** Offers of a status part that pass the filters `f` has, with the values of `v`. */
function filtered(db: Executor, f: OfferFilters, part: RawBuilder<SqlBool> | undefined, v: FilterValues = f) {
  return db
    .selectFrom('offers as o')
    .$if(part !== undefined, (qb) => qb.where(part!))
    .$if(f.buyer !== undefined, (qb) => qb.where('o.buyer_address', '=', v.buyer!))
    .$if(f.ensNameId !== undefined, (qb) => qb.where('o.ens_name_id', '=', v.ensNameId!))
    .$if(f.owner !== undefined, (qb) => qb.where('o.name_owner_address', '=', v.owner!));
}

/**
 * An offer as every response shows it (the `Offer` schema, field for field, in its order), as JSON
 * text written by PostgreSQL (db/json-rows.ts): the one mapping of an offer row to the API. Its
 * fields before and after the status are two lists, so a kept text (db/row-texts.ts) takes a new status.
 */
const OFFER_HEAD = {
  id: 'o.id',
  ens_name_id: 'o.ens_name_id',
  buyer_address: 'o.buyer_address',
  offer_amount_wei: weiText('o.offer_amount_wei'),
  currency_address: 'o.currency_address',
  ...currencyJson('o.currency_address'),
  order_hash: 'o.order_hash',
  order_data: 'o.order_json', // order_data's text, stored with it (0031)
};
const OFFER_TAIL = {
  created_at: isoText('o.created_at'),
  expires_at: isoText('o.expires_at'),
  source: 'o.source',
  last_validated_at: isoText('o.last_validated_at'),
  unfunded_at: isoText('o.unfunded_at'),
  unfunded_reason: 'o.unfunded_reason',
  name: 'n.name',
  token_id: weiText('n.token_id'),
};
/** OFFER_JSON, as text: OFFER_HEAD's fields, the status, OFFER_TAIL's. */
export const OFFER_JSON = jsonObject({ ...OFFER_HEAD, status: EFFECTIVE_STATUS, ...OFFER_TAIL });

/**
 * An offer's row version for its kept text (db/row-texts.ts): the offer's and its name's, the rows
 * OFFER_JSON reads. A page read again returns PAGE_ROW, a page read first PAGE_ROW_WHOLE.
 */
const PAGE_ROW = [sql<number>`o.id`.as('id'), sql.raw<string>("o.xmin::text || ':' || n.xmin::text").as('v'), sql.raw<string>(EFFECTIVE_STATUS).as('status')] as const;
const PAGE_ROW_WHOLE = [...PAGE_ROW, sql<string>`left(${jsonObject(OFFER_HEAD)}, -1)`.as('head'), sql<string>`substr(${jsonObject(OFFER_TAIL)}, 2)`.as('tail')] as const;

/** The offers of a page (PAGE_ROW or PAGE_ROW_WHOLE) as OFFER_JSON texts, in their order (db/row-texts.ts). */
function offerTexts(db: Executor, rows: PageRow[], page: string): Promise<string[]> {
  return rowTexts<PageRow>(db, 'offers', rows, (ids) => db
    .selectFrom('offers as o')
    .innerJoin('ens_names as n', 'n.id', 'o.ens_name_id')
    .modifyFront(GENERIC_PLAN)
    .select(PAGE_ROW_WHOLE)
    .where(sql<SqlBool>`o.id = ANY(${ids}::bigint[])`)
    .execute(), { middle: statusMiddle, page }).then(present);
}

/** The offer as a response shows it (OFFER_JSON), undefined when there is none. */
export async function offerJsonById(db: Executor, id: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('offers as o')
    .innerJoin('ens_names as n', 'n.id', 'o.ens_name_id')
    .select(OFFER_JSON.as('json'))
    .where('o.id', '=', id)
    .executeTakeFirst();
  return row?.json;
}

/**
 * One page of offers, newest first by default; ties break on id in the same direction (see
 * listListings for the parts). One plan whatever the values (GENERIC_PLAN): a buyer's, an owner's
 * (0028), a name's and a status's offers are each a range of their index. Compiled once per
 * shape (db/shapes.ts).
 */
export async function listOffers(db: Executor, f: OfferFilters, sort: OfferSort, order: 'asc' | 'desc', limit: number, offset: number): Promise<string[]> {
  const shape = `offers:page:${f.status ?? ''}:${sort}:${order}:${limit}:${f.buyer !== undefined}:${f.ensNameId !== undefined}:${f.owner !== undefined}`;
  const values = { buyer: f.buyer, ensNameId: f.ensNameId, owner: f.owner, offset, reach: offset + limit };
  const page = `${shape}:${JSON.stringify(values)}`;
  const whole = !readBefore(db, page);
  const rows = await runShaped(db, `${shape}:${whole}`, values, (v) => {
    const column = sort === 'amount' ? 'o.offer_amount_wei' : 'o.created_at';
    const dense = (part: RawBuilder<SqlBool> | undefined) =>
      filtered(db, f, part, v).select(['o.id', sql.ref(column).as('k')]).orderBy(column, order).orderBy('o.id', order);
    const few = (part: RawBuilder<SqlBool> | undefined) =>
      fewRowsPart(db, filtered(db, f, part, v).select('o.id'), 'offers', column.slice(2), order) as unknown as ReturnType<typeof dense>;
    const parts = statusParts(f.status).map((part, i) => (isPastEndPart(f.status, i) ? few(part) : dense(part)));
    const page = pageOfParts(db, parts, order, limit, v.offset, v.reach).as('pg');
    return db
      .selectFrom('offers as o')
      .innerJoin('ens_names as n', 'n.id', 'o.ens_name_id')
      .innerJoin(page, 'pg.id', 'o.id')
      .modifyFront(GENERIC_PLAN)
      .select(whole ? PAGE_ROW_WHOLE : PAGE_ROW)
      .orderBy('pg.k', order).orderBy('pg.id', order);
  });
  return offerTexts(db, rows, page);
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
