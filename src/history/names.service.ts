import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import type { NameListItem, NamePage } from '../contracts/names.js';
import { labelLength } from '../lib/ens.js';
import { pageB, type PageB } from '../lib/pagination.js';
import { DAY } from '../lib/time.js';
import type { SearchFilters } from '../search/filters.js';
import { searchIds, type SortKey } from '../search/query.js';
import { toResult, viewerState } from '../search/results.js';
import { AppError } from '../errors.js';
import { nameHistory } from './activity.repository.js';
import { nameOfParam, resolveName } from './name-ref.js';
import { activeListings, namePageRow, nameRecords, pendingOfferCount } from './names.repository.js';
import { nameExtras, toNameListItem, toNameListing, toNameOffer, toNameTransaction } from './names.mapping.js';
import { userViewer, viewCounterOf } from './views.js';
import { checkWindow } from './window.js';
import { entriesOf } from '../watchlists/index.js';

export interface NamesQuery {
  page: number;
  limit: number;
  owner?: string;
  status?: 'available' | 'listed' | 'expiring' | 'registered' | 'grace' | 'premium';
  sort: 'name' | 'price' | 'expiry' | 'created';
  order: 'asc' | 'desc';
}

const SORTS: Record<NamesQuery['sort'], SortKey> = { name: 'alphabetical', price: 'price', expiry: 'expiry_date', created: 'registration_date' };
const HISTORY_TYPES = ['registration', 'renewal', 'transfer', 'sale'];
/** Pending offers shown on a name page, highest first. */
const MAX_OFFERS = 100;
/** "expiring" in the reference: registered and expiring within 30 days. */
const EXPIRING_DAYS = 30;

/** Who viewed a page: the signed-in user, else the client address. */
export type Viewer = { id: number } | { ip: string };

/** Names: the list, one name's page, its metadata, legacy shape, history and bundle. */
export class NamesService {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'cache'>) {}

  /** Counts a view (in memory; flushed in the background). */
  private countView(nameId: number, viewer: Viewer): void {
    // Client addresses are stored hashed: the count needs identity, not the address.
    const key = 'id' in viewer ? userViewer(viewer.id) : `ip:${createHash('sha256').update(viewer.ip).digest('hex').slice(0, 32)}`;
    viewCounterOf(this.deps.db, (err) => this.deps.logger.warn({ err }, 'name views not written')).count(nameId, key);
  }

  async list(q: NamesQuery): Promise<{ names: NameListItem[]; pagination: PageB; totalCapped: boolean }> {
    const offset = checkWindow(q.page, q.limit);
    const { config, db } = this.deps;
    const now = new Date();
    const filters: SearchFilters = { owner: q.owner?.toLowerCase() };
    const extra = [];
    if (q.status === 'listed') filters.listed = true;
    else if (q.status === 'expiring') filters.expiringWithinDays = EXPIRING_DAYS;
    else if (q.status !== undefined) filters.status = [q.status];
    else extra.push(sql`expiry_date > ${new Date(now.getTime() - config.gracePeriodDays * DAY)}`);
    const found = await searchIds(db, { filters, sort: { by: SORTS[q.sort], order: q.order }, offset, limit: q.limit, extra }, {
      now, gracePeriodDays: config.gracePeriodDays, premiumPeriodDays: config.premiumPeriodDays,
    });
    const [records, listings] = await Promise.all([nameRecords(db, found.ids), activeListings(db, found.ids)]);
    const names = found.ids.flatMap((id) => {
      const n = records.get(id);
      return n ? [toNameListItem(n, listings.get(id) ?? [], n.last_transfer_at ?? undefined, config)] : [];
    });
    return { names, pagination: pageB(q.page, q.limit, found.total), totalCapped: found.capped };
  }

  /** The name page; counts a view when `viewer` is given. */
  async detail(param: string, user: { id: number } | null, viewer?: Viewer): Promise<NamePage> {
    const name = nameOfParam(param);
    const { db, config } = this.deps;
    // anonymous: one statement; signed in, a second wave for the caller's votes and watches
    const row = await namePageRow(db, name, MAX_OFFERS);
    if (!row) throw new AppError('NAME_NOT_FOUND', `${name} is not in the marketplace`);
    const [mine, watches] = user ? await Promise.all([viewerState(db, [row.id], user.id), entriesOf(db, user.id, [row.id])]) : [];
    if (viewer) this.countView(row.id, viewer);
    const entry = watches?.get(row.id)?.[0]?.id ?? null;
    return {
      ...toResult(row, mine),
      offers: (row.offers ?? []).map((o) => toNameOffer(o, row)),
      listings: (row.listings ?? []).map((l) => toNameListing(l)),
      ...nameExtras(row, row.last_transfer_at ?? undefined, config, entry),
    };
  }

  async bundle(param: string, user: { id: number } | null, viewer: Viewer) {
    const details = await this.detail(param, user, viewer);
    return {
      details,
      offers: details.offers,
      roles: {
        name: details.name,
        owner: details.owner,
        manager: details.registrant,
        ethAddress: null,
        isWrapped: details.wrapped,
        fuses: null,
        expiryDate: details.expiry_date === null ? null : Math.floor(Date.parse(details.expiry_date) / 1000),
        resolver: null,
      },
    };
  }

  async metadata(param: string) {
    const { db, config } = this.deps;
    const ref = await resolveName(db, param, 'NAME_NOT_FOUND');
    const n = (await nameRecords(db, [ref.id])).get(ref.id)!;
    const [contract, tokenId] = n.wrapped ? [config.nameWrapperAddress, BigInt(n.namehash).toString()] : [config.baseRegistrarAddress, n.token_id];
    const image = `${config.ensMetadataUrl}/${contract.toLowerCase()}/${tokenId}/image`;
    const length = labelLength(n.label);
    const charSet = /^[0-9]+$/.test(n.label) ? 'digit' : /^[a-z]+$/.test(n.label) ? 'letter' : n.has_emoji ? 'emoji' : 'mixed';
    const date = (d: Date | null) => (d === null ? [] : [d.getTime()]);
    return {
      name: n.name,
      description: `${n.name}, an ENS name.`,
      image,
      image_url: image,
      background_image: `${config.ensMetadataUrl}/avatar/${n.name}`,
      url: `${config.appUrl.replace(/\/+$/, '')}/${n.name}`,
      is_normalized: true,
      name_length: length,
      segment_length: length,
      version: n.wrapped ? 1 : 0,
      attributes: [
        ...date(n.registration_date).map((value) => ({ trait_type: 'Created Date', display_type: 'date', value })),
        { trait_type: 'Length', display_type: 'number', value: length },
        { trait_type: 'Segment Length', display_type: 'number', value: length },
        { trait_type: 'Character Set', display_type: 'string', value: charSet },
        ...date(n.registration_date).map((value) => ({ trait_type: 'Registration Date', display_type: 'date', value })),
        ...date(n.expiry_date).map((value) => ({ trait_type: 'Expiration Date', display_type: 'date', value })),
      ],
      metadata: {},
      source: 'database',
    };
  }

  async history(param: string, q: { page: number; limit: number }) {
    const ref = await resolveName(this.deps.db, param, 'NAME_NOT_FOUND');
    const found = await nameHistory(this.deps.db, ref.id, HISTORY_TYPES, checkWindow(q.page, q.limit), q.limit, 'asc');
    return { transactions: found.rows.map(toNameTransaction), pagination: pageB(q.page, q.limit, found.total) };
  }

  async legacy(param: string) {
    const { db, config } = this.deps;
    const ref = await resolveName(db, param, 'NAME_NOT_FOUND');
    const [records, listings, offers, recent] = await Promise.all([
      nameRecords(db, [ref.id]), activeListings(db, [ref.id]), pendingOfferCount(db, ref.id),
      nameHistory(db, ref.id, HISTORY_TYPES, 0, 10, 'desc'),
    ]);
    const mine = listings.get(ref.id) ?? [];
    const record = records.get(ref.id)!;
    const item = toNameListItem(record, mine, record.last_transfer_at ?? undefined, config);
    const top = mine[0] ? toNameListing(mine[0]) : undefined;
    return {
      ...item,
      listing_price: top?.price_wei ?? null,
      listing_status: top?.status ?? null,
      listing_expires_at: top?.expires_at ?? null,
      listing_seller: top?.seller_address ?? null,
      listing_order_data: top?.order_data ?? null,
      listing_currency_address: top?.currency_address ?? null,
      listing_source: top?.source ?? null,
      active_offers_count: String(offers),
      recent_transactions: recent.rows.map(toNameTransaction),
      opensea_listing: null,
      opensea_offer: null,
    };
  }
}
