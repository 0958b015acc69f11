import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * Table types for Kysely. numeric columns (wei, token ids) arrive as decimal strings; bigint ids
 * are parsed to numbers by the pool (they stay far below 2^53).
 */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Numeric = ColumnType<string, string | bigint, string | bigint>;
type Json<T = unknown> = ColumnType<T, string, string>;

export interface UsersTable {
  id: Generated<number>;
  address: string;
  email: string | null;
  email_verified_at: Timestamp | null;
  telegram: string | null;
  discord: string | null;
  notify_on_offer_received: Generated<boolean>;
  notify_on_listing_sold: Generated<boolean>;
  min_offer_threshold: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface AuthNoncesTable {
  nonce: string;
  address: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: Buffer;
  family_id: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  replaced_by: number | null;
  created_at: CreatedAt;
}

export interface EmailVerificationTokensTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  token_hash: Buffer;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface EnsNamesTable {
  id: Generated<number>;
  name: string;
  label: string;
  labelhash: string;
  namehash: string;
  token_id: Numeric;
  wrapped: Generated<boolean>;
  owner_address: string | null;
  registrant_address: string | null;
  registration_date: Timestamp | null;
  expiry_date: Timestamp | null;
  has_emoji: Generated<boolean>;
  clubs: Generated<string[]>;
  last_sale_date: Timestamp | null;
  last_sale_price_wei: Numeric | null;
  last_sale_currency: string | null;
  highest_offer_wei: Numeric | null;
  highest_offer_currency: string | null;
  highest_offer_id: number | null;
  upvotes: Generated<number>;
  downvotes: Generated<number>;
  net_score: ColumnType<number, never, never>;
  listing_price_wei: Numeric | null;
  listing_currency: string | null;
  listing_created_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface ClubsTable {
  name: string;
  description: Generated<string>;
  source: Generated<'rule' | 'csv'>;
  member_count: Generated<number>;
  created_at: CreatedAt;
}

export interface ClubMembersTable {
  club: string;
  label: string;
}

export interface RegistrationsTable {
  id: Generated<number>;
  ens_name_id: number;
  kind: 'registration' | 'renewal';
  actor_address: string;
  tx_hash: string;
  log_index: number;
  block_number: number;
  block_time: Timestamp;
  duration_seconds: number;
  cost_wei: Numeric;
  referrer: string | null;
  expiry_date: Timestamp | null;
}

export interface SalesTable {
  id: Generated<number>;
  ens_name_id: number;
  seller_address: string;
  buyer_address: string;
  price_wei: Numeric;
  currency_address: string;
  order_hash: string | null;
  listing_id: number | null;
  offer_id: number | null;
  tx_hash: string | null;
  log_index: number | null;
  source: Generated<string>;
  sold_at: Timestamp;
}

export type ListingStatus = 'active' | 'sold' | 'cancelled' | 'expired' | 'unfunded';
export type OfferStatus = 'pending' | 'accepted' | 'rejected' | 'expired' | 'unfunded';

export interface ListingsTable {
  id: Generated<number>;
  ens_name_id: number;
  seller_address: string;
  price_wei: Numeric;
  currency_address: string;
  order_hash: string;
  order_data: Json<Record<string, unknown>>;
  status: Generated<ListingStatus>;
  source: Generated<string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  expires_at: Timestamp | null;
  last_validated_at: Timestamp | null;
  unfunded_at: Timestamp | null;
  unfunded_reason: string | null;
  broker_address: string | null;
  broker_fee_bps: number | null;
}

export interface OffersTable {
  id: Generated<number>;
  ens_name_id: number;
  buyer_address: string;
  offer_amount_wei: Numeric;
  currency_address: string;
  order_hash: string;
  order_data: Json<Record<string, unknown>>;
  status: Generated<OfferStatus>;
  source: Generated<string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  expires_at: Timestamp | null;
  last_validated_at: Timestamp | null;
  unfunded_at: Timestamp | null;
  unfunded_reason: string | null;
}

export interface VotesTable {
  user_id: number;
  ens_name_id: number;
  vote: number;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface VoteEventsTable {
  id: Generated<number>;
  user_id: number;
  ens_name_id: number;
  vote: number;
  previous_vote: Generated<number>;
  cast_at: CreatedAt;
}

export interface NotificationsTable {
  id: Generated<number>;
  recipient_address: string;
  type: string;
  ens_name_id: number | null;
  title: string;
  message: string;
  metadata: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  sent_at: Timestamp | null;
  read_at: Timestamp | null;
}

export interface CartTypesTable {
  type: string;
  description: string;
}

export interface CartItemsTable {
  id: Generated<number>;
  user_id: number;
  ens_name_id: number;
  cart_type: string;
  created_at: CreatedAt;
}

export interface AiSuggestionsTable {
  kind: string;
  key: string;
  suggestions: string[];
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface KeywordMetricsTable {
  label: string;
  metrics: Json<Record<string, unknown>> | null;
  fetched_at: CreatedAt;
  expires_at: Timestamp;
}

export interface LegendTypesTable {
  type: string;
  starts_at: Timestamp | null;
  ends_at: Timestamp;
  description: Generated<string>;
}

export interface EthUsdPricesTable {
  day: ColumnType<Date, Date | string, Date | string>;
  price_usd: Numeric;
}

export interface LabelEmbeddingsTable {
  model: string;
  label: string;
  embedding: number[];
  created_at: CreatedAt;
}

export interface SyncStateTable {
  key: string;
  value: Json<unknown>;
  updated_at: CreatedAt;
}

export interface TrendWindowsTable {
  period_hours: number;
  start_hour: Timestamp;
}

export interface TrendBucketsTable {
  hour: Timestamp;
  metric: string;
  ens_name_id: number;
  total: number;
  positive: ColumnType<number, number | undefined, number>;
}

export interface TrendTotalsTable {
  metric: string;
  period_hours: number;
  ens_name_id: number;
  total: number;
  positive: ColumnType<number, number | undefined, number>;
}

export interface ActivityEventsTable {
  id: Generated<number>;
  event_type: string;
  ens_name_id: number;
  actor_address: string | null;
  counterparty_address: string | null;
  price_wei: Numeric | null;
  currency_address: string | null;
  platform: Generated<string>;
  chain_id: Generated<number>;
  transaction_hash: string | null;
  block_number: number | null;
  log_index: number | null;
  metadata: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
}

export interface NameViewsDailyTable {
  ens_name_id: number;
  day: ColumnType<Date, string, string>;
  viewer: string;
}

export interface NameViewCountsTable {
  ens_name_id: number;
  views: ColumnType<number, number | bigint, number | bigint>;
}

/**
 * Later migrations add their tables by augmenting this interface from their own module:
 * `declare module '../db/schema.js' { interface Database { my_table: MyTable } }`.
 */
export interface Database {
  users: UsersTable;
  auth_nonces: AuthNoncesTable;
  refresh_tokens: RefreshTokensTable;
  email_verification_tokens: EmailVerificationTokensTable;
  ens_names: EnsNamesTable;
  clubs: ClubsTable;
  club_members: ClubMembersTable;
  registrations: RegistrationsTable;
  sales: SalesTable;
  listings: ListingsTable;
  offers: OffersTable;
  votes: VotesTable;
  vote_events: VoteEventsTable;
  notifications: NotificationsTable;
  cart_types: CartTypesTable;
  cart_items: CartItemsTable;
  ai_suggestions: AiSuggestionsTable;
  keyword_metrics: KeywordMetricsTable;
  legend_types: LegendTypesTable;
  eth_usd_prices: EthUsdPricesTable;
  sync_state: SyncStateTable;
  trend_windows: TrendWindowsTable;
  trend_buckets: TrendBucketsTable;
  trend_totals: TrendTotalsTable;
  label_embeddings: LabelEmbeddingsTable;
  activity_events: ActivityEventsTable;
  name_views_daily: NameViewsDailyTable;
  name_view_counts: NameViewCountsTable;
}

export type User = Selectable<UsersTable>;
export type EnsNameRow = Selectable<EnsNamesTable>;
