import type { Deps } from '../deps.js';
import type { Sale } from '../contracts/sales.js';
import { AppError } from '../errors.js';
import { pageB, type PageB } from '../lib/pagination.js';
import { iso } from '../lib/time.js';
import { RawJson } from '../lib/raw-json.js';
import { weiString } from '../lib/wei.js';
import { resolveName } from './name-ref.js';
import { loadSales, saleIds, saleIdsOfAddress, saleStats, type SaleRole, type SaleRow } from './sales.repository.js';
import { checkWindow } from './window.js';

export interface SalesPage {
  results: Sale[];
  pagination: PageB;
  totalCapped: boolean;
}

export function toSale(r: SaleRow): Sale {
  return {
    id: r.id,
    ens_name_id: r.ens_name_id,
    seller_address: r.seller_address,
    buyer_address: r.buyer_address,
    sale_price_wei: weiString(r.price_wei),
    currency_address: r.currency_address,
    listing_id: r.listing_id,
    offer_id: r.offer_id,
    transaction_hash: r.tx_hash,
    block_number: null,
    order_hash: r.order_hash,
    order_data: r.order_data === null ? null : new RawJson(r.order_data),
    source: r.source,
    platform_fee_wei: null,
    creator_fee_wei: null,
    metadata: { collection: { slug: 'ens' }, item_metadata: { name: r.name } },
    sale_date: iso(r.sold_at),
    created_at: iso(r.sold_at),
    name: r.name,
    token_id: r.token_id,
  };
}

/** Completed sales: recent, per name, per address, and one name's figures. */
export class SalesService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  recent(q: { page: number; limit: number }): Promise<SalesPage> {
    return this.page(q, (offset) => saleIds(this.deps.db, undefined, offset, q.limit));
  }

  async byName(name: string, q: { page: number; limit: number }): Promise<SalesPage> {
    const ref = await resolveName(this.deps.db, name, 'NAME_NOT_FOUND');
    return this.page(q, (offset) => saleIds(this.deps.db, ref.id, offset, q.limit));
  }

  byAddress(address: string, q: { page: number; limit: number; type: SaleRole }): Promise<SalesPage> {
    return this.page(q, (offset) => saleIdsOfAddress(this.deps.db, address.toLowerCase(), q.type, offset, q.limit));
  }

  /** `nameOrId`: a name (with or without .eth) or the name's numeric id. */
  async analytics(nameOrId: string) {
    const { db } = this.deps;
    let id: number;
    if (/^[0-9]{1,15}$/.test(nameOrId)) {
      const row = await db.selectFrom('ens_names').select('id').where('id', '=', Number(nameOrId)).executeTakeFirst();
      if (!row) throw new AppError('NAME_NOT_FOUND', `No name has id ${nameOrId}`);
      id = row.id;
    } else {
      id = (await resolveName(db, nameOrId, 'NAME_NOT_FOUND', 'params.nameOrId')).id;
    }
    const s = await saleStats(db, id);
    return {
      total_sales: String(s.total_sales),
      avg_price_wei: s.avg_price_wei,
      min_price_wei: s.min_price_wei,
      max_price_wei: s.max_price_wei,
      first_sale_date: iso(s.first_sale_date),
      last_sale_date: iso(s.last_sale_date),
    };
  }

  private async page(q: { page: number; limit: number }, ids: (offset: number) => Promise<{ ids: number[]; total: number; capped: boolean }>): Promise<SalesPage> {
    const found = await ids(checkWindow(q.page, q.limit));
    const rows = await loadSales(this.deps.db, found.ids);
    return { results: rows.map(toSale), pagination: pageB(q.page, q.limit, found.total), totalCapped: found.capped };
  }
}
