import { Type, type Static } from 'typebox';
import { Address, ApiVersion, EnsNameParam, Limit, Page, PaginationB, Timestamp, Wei } from './common.js';

/**
 * Every kind of event of the activity log and the change that writes it. Names follow the
 * original marketplace's clients where they have one (`listed`, `offer_made`, `sale`, `mint`-era
 * `registration`, `renewal`, `transfer`); `offer_cancelled` is an offer its buyer withdrew
 * (status `rejected` in the interface's terms); `listing_restored` and `offer_restored` (the
 * original has no word for them) an unfunded order live again because the funds, the approval
 * or the name came back.
 */
export const ACTIVITY_EVENT_TYPES = [
  'listed', 'listing_updated', 'listing_cancelled', 'listing_expired', 'listing_unfunded', 'listing_restored', 'sale',
  'offer_made', 'offer_updated', 'offer_accepted', 'offer_cancelled', 'offer_expired', 'offer_unfunded', 'offer_restored',
  'registration', 'renewal', 'transfer', 'grace_started', 'released', 'vote',
] as const;
export type ActivityEventType = (typeof ACTIVITY_EVENT_TYPES)[number];

const NullableAddress = Type.Union([Address, Type.Null()]);
const EXAMPLE_TX = '0x56ca2e00a1f4e3c3b6c2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0';

/** One event of the activity log. */
export const ActivityItem = Type.Object({
  id: Type.Integer({ description: 'sequence number: strictly increasing in the order events were logged' }),
  ens_name_id: Type.Integer(),
  event_type: Type.String({ description: `one of ${ACTIVITY_EVENT_TYPES.join(', ')}` }),
  actor_address: NullableAddress,
  counterparty_address: NullableAddress,
  platform: Type.String({ description: 'grails (our order book), seaport (another Seaport order), ens (ENS contracts)' }),
  chain_id: Type.Integer(),
  price_wei: Type.Union([Wei, Type.Null()], { description: 'amount in the smallest unit of currency_address' }),
  currency_address: NullableAddress,
  transaction_hash: Type.Union([Type.String(), Type.Null()]),
  block_number: Type.Union([Type.Integer(), Type.Null()]),
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'more about the event, by type: order ids, the vote, the previous owner…' }),
  created_at: { ...Timestamp, description: 'when it happened (the block time for chain events)' },
  name: Type.String(),
  token_id: Type.String(),
  clubs: Type.Array(Type.String(), { description: "the name's clubs now" }),
}, {
  examples: [{
    id: 1043, ens_name_id: 42, event_type: 'sale', actor_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    counterparty_address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', platform: 'grails', chain_id: 1,
    price_wei: '250000000000000000', currency_address: '0x0000000000000000000000000000000000000000', transaction_hash: EXAMPLE_TX,
    block_number: 21876543, metadata: { listing_id: 77 }, created_at: '2026-04-07T18:00:00.000Z', name: '042.eth',
    token_id: '62397633858293182845905960543307828249', clubs: ['999'],
  }],
});
export type ActivityItem = Static<typeof ActivityItem>;

const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 20,
  description: `event types to keep (repeat the parameter or separate with commas): ${ACTIVITY_EVENT_TYPES.join(', ')}`,
});
const Platform = Type.String({ pattern: '^[a-z0-9_-]{1,32}$', description: 'grails, seaport or ens' });
const HistoryLimit = { ...Limit, default: 50, description: 'items per page, 1 to 100 (page × limit at most 10,000)' };

export const ActivityQuery = Type.Object({
  page: Page,
  limit: HistoryLimit,
  event_type: Type.Optional(EventTypes),
  platform: Type.Optional(Platform),
});

export const GlobalActivityQuery = Type.Object({
  ...ActivityQuery.properties,
  club: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "a club's name, or `any` for names in at least one club" })),
  address: Type.Optional({ ...Address, description: 'only events with this address as actor or counterparty' }),
  name: Type.Optional({ ...EnsNameParam, description: 'only events of this name' }),
});

export const FeedQuery = Type.Object({
  ...ActivityQuery.properties,
  club: GlobalActivityQuery.properties.club,
});

export const ActivityPage = Type.Object({ results: Type.Array(ActivityItem), pagination: PaginationB });

export const ActivityMeta = Type.Object({
  timestamp: Timestamp,
  version: ApiVersion,
  totalCapped: Type.Boolean({ description: 'true when more than 10,000 events match; total is then 10,000' }),
});

export const ActivityNameParams = Type.Object({ name: EnsNameParam });
export const ActivityAddressParams = Type.Object({ address: Address });
