import type { TSchema } from 'typebox';

/**
 * The meaning of the fields the market-history answers share (clubs, analytics, charts), written
 * once: `glossed` gives every property without a description the one named here (a route may
 * override a word), and strings without an example the example here.
 */
const MEANING: Record<string, string> = {
  success: 'true on success',
  data: 'the answer',
  meta: 'about the response: time and API version',
  version: 'API version',
  id: 'identifier of the row',
  name: 'ENS name',
  display_name: 'name to show',
  description: 'what the club gathers',
  header_url: 'club header image: not served, null',
  source: 'marketplace the row came from',
  status: 'status as users see it (an order past its end time reads expired)',
  clubs: 'clubs of the name',
  club: 'the club',
  total: 'how many in all',
  count: 'how many in the bucket or group',
  results: 'one page of rows, in the order asked',
  transaction_hash: 'transaction of the sale on chain, when known',
  stats: 'current figures',
  volume: 'sales of the period',
  activity: 'what happened in the period',
  overview: 'current totals',
  summary: 'totals of the period',
  portfolio: "the caller's names and orders now",
  views: 'name page views (not counted yet: 0)',
  total_views: 'name page views (not counted yet: 0)',
  watchlist_adds: 'watchlist additions (watchlists do not exist yet: 0)',
  votes: 'votes cast (removals not counted)',
  offers: 'offers made',
  listings: 'listings created',
  member_count: 'names in the club',
  active_listings: 'active listings not past their end time',
  active_offers: 'pending offers not past their end time',
  total_names: 'names in the database',
  sales_count: 'sales',
  unique_names_sold: 'distinct names sold',
  unique_buyers: 'distinct buyers',
  unique_sellers: 'distinct sellers',
  trends: 'one row per day',
  breakdown: 'one row per label length',
  by_length: 'one row per label length',
  name_length: 'label length in characters',
  premium_count: 'registrations that paid a premium',
  registration_count: 'registrations (renewals not counted)',
  premium_registrations: 'registrations that paid a premium',
  names_purchased: 'sales with the caller as buyer',
  names_sold: 'sales with the caller as seller',
  names_viewed: 'names viewed (not counted yet: 0)',
  names_watching: 'names watched (watchlists do not exist yet: 0)',
  offers_made: 'offers the caller made, any status',
  listed_names_count: 'names with an active listing by the caller',
  price_range: 'price band, in ETH',
  grails: 'of them made on this marketplace',
  opensea: 'of them from OpenSea',
  holders: 'owners, by names held',
  name_count: 'registered and grace names the owner holds there',
  upvotes: 'upvotes of the name',
  downvotes: 'downvotes of the name',
  net_score: 'upvotes minus downvotes',
  has_emoji: 'whether the label holds an emoji',
  has_numbers: 'whether the label holds a digit',
  highest_offer_id: 'the pending offer with the highest value in ETH',
  broker_fee_bps: 'broker fee in basis points',
  order_hash: 'Seaport order hash',
};

const EXAMPLE: Record<string, string> = {
  name: 'apple.eth',
  source: 'grails',
  status: 'active',
  clubs: '999',
  token_id: '35894389512200220650174592524497209939937826036346574962003596524044932185086',
  order_hash: '0x9d0c33f5c6b8e2b61c1cf1bd5a7a4e2f0f9f1b6c2e6f0a7b3d4c5e6f7a8b9c0d',
  transaction_hash: '0x5f1c3d1e0c9a3b7d4e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d',
};

type Node = TSchema & { properties?: Record<string, Node>; items?: Node; anyOf?: Node[]; description?: string; examples?: unknown[]; type?: string };

function gloss(s: Node, key: string | undefined, words: Record<string, string>): Node {
  const out: Node = { ...s };
  if (key !== undefined && out.description === undefined && !out.anyOf?.some((m) => m.description !== undefined) && words[key] !== undefined) out.description = words[key];
  if (key !== undefined && out.type === 'string' && out.examples === undefined && EXAMPLE[key] !== undefined) out.examples = [EXAMPLE[key]];
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, gloss(v, k, words)]));
  if (out.items) out.items = gloss(out.items, key, words);
  if (out.anyOf) out.anyOf = out.anyOf.map((m) => gloss(m, key, words));
  return out;
}

/** `schema` with the glossary's words on its undescribed properties; `words` overrides them for this schema. */
export function glossed<T extends TSchema>(schema: T, words: Record<string, string> = {}): T {
  return gloss(schema as Node, undefined, { ...MEANING, ...words }) as unknown as T;
}
