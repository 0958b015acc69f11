import type { Deps } from '../deps.js';
import { ACTIVITY_EVENT_TYPES, type ActivityItem } from '../contracts/activity.js';
import { AppError } from '../errors.js';
import { pageB, type PageB } from '../lib/pagination.js';
import { iso } from '../lib/time.js';
import { weiString } from '../lib/wei.js';
import { activityIds, loadActivity, type ActivityFilter, type ActivityRow } from './activity.repository.js';
import { resolveName } from './name-ref.js';
import { checkWindow } from './window.js';

export interface ActivityQuery {
  page: number;
  limit: number;
  event_type?: string[];
  platform?: string;
  club?: string;
  address?: string;
  name?: string;
}

export interface ActivityPage {
  results: ActivityItem[];
  pagination: PageB;
  totalCapped: boolean;
}

/** Event types as sent (repeated and/or comma-separated), each checked against the catalogue. */
function eventTypes(raw: readonly string[] | undefined): string[] | undefined {
  if (!raw) return undefined;
  const types = raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  for (const t of types) {
    if (!(ACTIVITY_EVENT_TYPES as readonly string[]).includes(t)) {
      throw new AppError('VALIDATION_ERROR', `query.event_type: unknown event type ${t}`, { field: 'query.event_type', allowed: ACTIVITY_EVENT_TYPES });
    }
  }
  return types.length > 0 ? [...new Set(types)] : undefined;
}

export function toActivity(r: ActivityRow): ActivityItem {
  return {
    id: r.id,
    ens_name_id: r.ens_name_id,
    event_type: r.event_type,
    actor_address: r.actor_address,
    counterparty_address: r.counterparty_address,
    platform: r.platform,
    chain_id: r.chain_id,
    price_wei: weiString(r.price_wei),
    currency_address: r.currency_address,
    transaction_hash: r.transaction_hash,
    block_number: r.block_number,
    metadata: r.metadata,
    created_at: iso(r.created_at),
    name: r.name,
    token_id: r.token_id,
    clubs: r.clubs,
  };
}

/** Pages of the activity log: everything, one name, one address, the names a user owns. */
export class ActivityService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  async list(q: ActivityQuery): Promise<ActivityPage> {
    const filter: ActivityFilter = { types: eventTypes(q.event_type), platform: q.platform, club: q.club, address: q.address?.toLowerCase() };
    if (q.name !== undefined) filter.ensNameId = (await resolveName(this.deps.db, q.name, 'NAME_NOT_FOUND', 'query.name')).id;
    return this.page(filter, q);
  }

  async byName(name: string, q: ActivityQuery): Promise<ActivityPage> {
    const ref = await resolveName(this.deps.db, name, 'ENS_NAME_NOT_FOUND');
    return this.page({ types: eventTypes(q.event_type), platform: q.platform, ensNameId: ref.id }, q);
  }

  async byAddress(address: string, q: ActivityQuery): Promise<ActivityPage> {
    return this.page({ types: eventTypes(q.event_type), platform: q.platform, address: address.toLowerCase() }, q);
  }

  /** Activity on the names the user's address holds now or the user has on a watchlist. */
  async feed(user: { id: number; address: string }, q: ActivityQuery): Promise<ActivityPage> {
    return this.page({ types: eventTypes(q.event_type), platform: q.platform, club: q.club, ownedBy: user.address.toLowerCase(), watchedBy: user.id }, q);
  }

  private async page(filter: ActivityFilter, q: { page: number; limit: number }): Promise<ActivityPage> {
    const offset = checkWindow(q.page, q.limit);
    const found = await activityIds(this.deps.db, filter, offset, q.limit);
    const rows = await loadActivity(this.deps.db, found.ids);
    return { results: rows.map(toActivity), pagination: pageB(q.page, q.limit, found.total), totalCapped: found.capped };
  }
}
