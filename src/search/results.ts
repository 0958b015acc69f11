import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import type { SearchResult } from '../contracts/search-result.js';
import { iso } from '../lib/time.js';
import { weiString } from '../lib/wei.js';
import { currencyFields } from '../lib/currencies.js';

/** An active listing as the name query returns it (JSON: amounts and times as text). */
interface ListingJson {
  id: number;
  price_wei: string;
  currency_address: string;
  seller_address: string;
  order_hash: string;
  order_data: Record<string, unknown>;
  expires_at: string | null;
  source: string;
  broker_address: string | null;
  broker_fee_bps: number | null;
}

/**
 * Loads standard search results for name ids, in the order given. Indexed queries whatever the
 * page size: the names, their active unexpired listings, and (with a viewer) the viewer's votes
 * and watches. `viewerId` undefined means anonymous: `user_vote` and `is_user_watching` are left out.
 */
export async function loadSearchResults(db: Executor, ids: readonly number[], viewerId?: number): Promise<SearchResult[]> {
  if (ids.length === 0) return [];
  const [names, votes, watched] = await Promise.all([
    db
      .selectFrom('ens_names')
      .select([
        'id', 'name', 'token_id', 'owner_address', 'expiry_date', 'registration_date', 'clubs', 'has_emoji',
        'last_sale_date', 'last_sale_price_wei', 'last_sale_currency', 'highest_offer_wei', 'highest_offer_currency',
        'highest_offer_id', 'upvotes', 'downvotes', 'net_score', 'watchers_count',
        sql<boolean>`label ~ '[0-9]'`.as('has_numbers'),
        // The name's active unexpired listings, newest first, in the same round trip (amounts as text: JSON numbers lose digits).
        sql<ListingJson[] | null>`(SELECT json_agg(json_build_object('id', l.id, 'price_wei', l.price_wei::text, 'currency_address', l.currency_address,
          'seller_address', l.seller_address, 'order_hash', l.order_hash, 'order_data', l.order_data, 'expires_at', l.expires_at, 'source', l.source,
          'broker_address', l.broker_address, 'broker_fee_bps', l.broker_fee_bps) ORDER BY l.created_at DESC, l.id DESC)
          FROM listings l WHERE l.ens_name_id = ens_names.id AND l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now()))`.as('listings'),
      ])
      .where('id', 'in', ids)
      .execute(),
    viewerId === undefined
      ? Promise.resolve([])
      : db.selectFrom('votes').select(['ens_name_id', 'vote']).where('user_id', '=', viewerId).where('ens_name_id', 'in', ids).execute(),
    viewerId === undefined
      ? Promise.resolve([])
      : db.selectFrom('watchlist_items').select('ens_name_id').distinct().where('user_id', '=', viewerId).where('ens_name_id', 'in', ids).execute(),
  ]);
  const watching = new Set(watched.map((w) => w.ens_name_id));
  const toListing = (l: ListingJson): SearchResult['listings'][number] => ({
    id: l.id,
    price: weiString(l.price_wei),
    currency_address: l.currency_address,
    ...currencyFields(l.currency_address),
    seller_address: l.seller_address,
    order_hash: l.order_hash,
    order_data: l.order_data,
    expires_at: iso(l.expires_at),
    source: l.source,
    broker_address: l.broker_address,
    broker_fee_bps: l.broker_fee_bps,
  });
  const voteByName = new Map(votes.map((v) => [v.ens_name_id, v.vote as 1 | -1]));
  const byId = new Map(names.map((n) => [n.id, n]));

  return ids.flatMap((id) => {
    const n = byId.get(id);
    if (!n) return [];
    const result: SearchResult = {
      id: n.id,
      name: n.name,
      token_id: n.token_id,
      owner: n.owner_address,
      expiry_date: iso(n.expiry_date),
      registration_date: iso(n.registration_date),
      clubs: n.clubs,
      has_numbers: n.has_numbers,
      has_emoji: n.has_emoji,
      last_sale_date: iso(n.last_sale_date),
      last_sale_price: weiString(n.last_sale_price_wei),
      last_sale_currency: n.last_sale_currency,
      listings: n.listings?.map(toListing) ?? [],
      highest_offer_wei: weiString(n.highest_offer_wei),
      highest_offer_currency: n.highest_offer_currency,
      highest_offer_id: n.highest_offer_id,
      upvotes: n.upvotes,
      downvotes: n.downvotes,
      net_score: n.net_score,
      watchers_count: n.watchers_count,
    };
    if (viewerId !== undefined) {
      result.is_user_watching = watching.has(id);
      result.user_vote = voteByName.get(id) ?? null;
    }
    return [result];
  });
}
