import type { TSchema } from 'typebox';

/**
 * The meaning of fields that mean the same wherever they appear, written once. `glossed` gives the
 * market-history answers (clubs, analytics, charts) MEANING's words; `glossedForReference`, applied
 * to every route when the reference at /docs is built, gives every field still undescribed the
 * words of MEANING and SHARED, and strings and open objects without an example the one in EXAMPLE.
 * A schema's own description always wins.
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
  views: 'name page views: one per name, viewer and UTC day',
  total_views: 'name page views of all time: one per name, viewer and UTC day',
  watchlist_adds: 'names added to watchlists and still on them',
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
  names_viewed: 'names whose page the caller opened while signed in',
  names_watching: 'distinct names on your watchlists',
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

/**
 * The other families' fields (orders, names, accounts, cart, health), given to every route's
 * schema when the reference is built; a word here wins over MEANING's for fields still undescribed.
 */
const SHARED: Record<string, string> = {
  accessToken: 'JWT to send as `Authorization: Bearer <token>`',
  refreshToken: 'opaque token that buys a new access token at POST /auth/refresh (single use)',
  token: 'the token',
  tokenType: 'how to send the access token: Bearer',
  user: 'the signed-in account',
  users: 'one page of accounts, ranked',
  email: 'e-mail address, null when none is set',
  emailVerified: 'whether the e-mail address was confirmed by its link',
  telegram: 'Telegram handle, null when none is set',
  discord: 'Discord handle, null when none is set',
  notifyOnOfferReceived: 'e-mail the account when an offer on one of its names arrives',
  notifyOnListingSold: 'e-mail the account when one of its listings sells',
  ensName: 'ENS name',
  ensNameId: 'id of the ENS name',
  ens_name_id: 'id of the ENS name',
  ensTokenId: 'ERC-721 token id of the name (uint256 of the labelhash, decimal)',
  tokenId: 'ERC-721 token id of the name (uint256 of the labelhash, decimal)',
  token_id: 'ERC-721 token id of the name (uint256 of the labelhash, decimal)',
  chain_id: 'chain the event happened on (1: Ethereum mainnet)',
  block_number: 'block of the transaction, null when not from chain',
  listing_id: 'the listing the sale filled, when it was made here',
  offer_id: 'the offer the sale filled, when it was made here',
  listings: 'active listings of the name',
  is_user_watching: 'whether the caller has the name on a watchlist',
  clubs_count: 'clubs of the name',
  netScore: 'upvotes minus downvotes',
  activeListing: 'the active listing of the name, null when none',
  unfunded_reason: 'why the offer is not backed now (balance or allowance too low), null when it is',
  message: 'what happened, in words',
  items: 'the items, in the order asked',
  cartType: 'which cart the item is in: sales (buy listed names) or registrations (register available names)',
  cartItemId: 'id of the cart item',
  addedCount: 'items added',
  skippedCount: 'items not added (see skipped)',
  skipped: 'the items not added, each with why',
  totalRequested: 'items in the request',
  deletedCount: 'items removed',
  reason: 'why, as a stable word',
  purchase: 'the names to buy (cart type sales)',
  registration: 'the names to register (cart type registrations)',
  byCurrency: 'totals per currency',
  currencyAddress: 'ERC-20 contract, or the zero address for ETH',
  symbol: 'currency symbol',
  decimals: 'decimals of the currency (18 for ETH and WETH, 6 for USDC)',
  ethUsdPrice: 'USD per ETH used for the estimate, null when no price is known',
  checks: 'the state of each dependency',
  database: 'PostgreSQL: ok or the error',
  search_index: 'the search index: ok or what is missing',
  timestamp: 'when the answer was made (ISO 8601 UTC)',
  notifications: 'one page of notifications, newest first',
  unreadCount: 'notifications not read yet',
  isRead: 'whether the notification was marked read',
  title: 'one line for the notification list',
  leaderboard: 'one page of names, ranked',
  names: 'one page of names, in the order asked',
  trending_metrics: 'the figures the name was ranked by',
  period: 'time window: whole UTC hours up to now',
  period_upvotes: 'upvotes within the period',
  period_downvotes: 'downvotes within the period',
  limit: 'rows asked for',
  type: 'what was ranked',
  sort: 'the order the rows come in',
  by: 'field the rows are sorted by',
  order: 'sort direction: asc or desc',
  sortBy: 'field to sort by',
  details: "the name's row",
  transactions: 'on-chain events of the name, newest first',
  renewal_count: 'renewals',
  registration_duration_seconds: 'seconds bought by registrations',
  renewal_duration_seconds: 'seconds bought by renewals',
  total_duration_seconds: 'seconds bought in all',
  attributes: 'traits, as NFT marketplaces read them',
  trait_type: 'name of the trait',
  display_type: 'how to show the value (number, date)',
  value: 'value of the trait',
  image_url: 'token image',
  background_image: 'avatar image behind the token image',
  is_normalized: 'whether the name is in ENSIP-15 normal form',
  segment_length: 'label length in characters',
  fuses: 'NameWrapper fuses burned, as a number (0 when not wrapped)',
  isWrapped: 'whether the name is held by the NameWrapper',
  avgMonthlySearches: 'average monthly Google searches, null when unknown',
  active_offers_count: 'pending offers not past their end time',
  listing_status: 'status of the active listing, null when none',
  listing_source: 'marketplace of the active listing, null when none',
  listing_order_data: 'the signed Seaport order of the active listing, null when none',
};

const EXAMPLE: Record<string, unknown> = {
  name: 'apple.eth',
  source: 'grails',
  status: 'active',
  clubs: '999',
  token_id: '35894389512200220650174592524497209939937826036346574962003596524044932185086',
  order_hash: '0x9d0c33f5c6b8e2b61c1cf1bd5a7a4e2f0f9f1b6c2e6f0a7b3d4c5e6f7a8b9c0d',
  transaction_hash: '0x5f1c3d1e0c9a3b7d4e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d',
  email: 'alice@example.com',
  telegram: 'alice_eth',
  discord: 'alice#1234',
  ensName: 'apple.eth',
  ensTokenId: '35894389512200220650174592524497209939937826036346574962003596524044932185086',
  tokenId: '35894389512200220650174592524497209939937826036346574962003596524044932185086',
  accessToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
  refreshToken: 'b3a1c9f0e7d24c5f9a8e6d4c2b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a',
  token: 'b3a1c9f0e7d24c5f9a8e6d4c2b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a',
  nonce: 'k3Jx9qP2mV7tR4wZ',
  signature: '0x4c5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d51b',
  message: 'Item removed from cart',
  cartType: 'sales',
  currencyAddress: '0x0000000000000000000000000000000000000000',
  symbol: 'ETH',
  title: 'New offer on apple.eth',
  version: '1.0.0',
  by: 'price',
  order: 'asc',
  q: 'apple',
  startsWith: 'ap',
  endsWith: 'le',
  contains: 'pp',
  doesNotStartWith: 'x',
  doesNotEndWith: 'z',
  doesNotContain: '-',
  owner: '0xd8da6bf26964af9d7eed9e03e53415d37aa96045',
  minCreationDate: '2020-01-01T00:00:00.000Z',
  maxCreationDate: '2026-01-01T00:00:00.000Z',
  lastSoldAfter: '2025-01-01T00:00:00.000Z',
  lastSoldBefore: '2026-01-01T00:00:00.000Z',
  platform: 'grails',
  club: '999',
  competition: 'LOW',
  program_start: '2026-01-01',
  suggestions: 'pear.eth',
  type: 'holders',
  transaction_type: 'transfer',
  block_number: '21876543',
  unfunded_reason: 'insufficient_balance',
  listing_status: 'active',
  listing_source: 'grails',
  active_offers_count: '2',
};

type Node = TSchema & { properties?: Record<string, Node>; items?: Node; anyOf?: Node[]; description?: string; examples?: unknown[]; type?: string };

function gloss(s: Node, key: string | undefined, words: Record<string, string>): Node {
  const out: Node = { ...s };
  if (key !== undefined && out.description === undefined && !out.anyOf?.some((m) => m.description !== undefined) && words[key] !== undefined) out.description = words[key];
  if (key !== undefined && (out.type === 'string' || out.type === 'object') && out.examples === undefined && EXAMPLE[key] !== undefined && typeof EXAMPLE[key] === (out.type === 'string' ? 'string' : 'object')) {
    out.examples = [EXAMPLE[key]];
  }
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, gloss(v, k, words)]));
  if (out.items) out.items = gloss(out.items, key, words);
  if (out.anyOf) out.anyOf = out.anyOf.map((m) => gloss(m, key, words));
  return out;
}

const REFERENCE_WORDS: Record<string, string> = { ...MEANING, ...SHARED };
/** Per route schema object: every app built in a process (tests build many) glosses it once and shares the copy. */
const referenceCopies = new WeakMap<object, TSchema>();

/** Every field of `schema` still undescribed gets the glossary's words: what the reference at /docs shows. */
export function glossedForReference<T extends TSchema>(schema: T): T {
  let copy = referenceCopies.get(schema);
  if (!copy) referenceCopies.set(schema, (copy = gloss(schema as Node, undefined, REFERENCE_WORDS)));
  return copy as T;
}

/** `schema` with the glossary's words on its undescribed properties; `words` overrides them for this schema. */
export function glossed<T extends TSchema>(schema: T, words: Record<string, string> = {}): T {
  return gloss(schema as Node, undefined, { ...MEANING, ...words }) as unknown as T;
}
