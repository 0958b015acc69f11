import { Type, type Static } from 'typebox';
import { Address, CurrencyFields, described, Envelope, NullableTimestamp, Timestamp, Wei } from './common.js';

const NullableString = (description: string, example?: string) => Type.Union([Type.String(), Type.Null()], { description, ...(example ? { examples: [example] } : {}) });

export const ProfileParams = Type.Object({
  addressOrName: Type.String({ minLength: 1, maxLength: 255, description: 'an address (0x + 40 hex) or an ENS name (with or without .eth)', examples: ['vitalik.eth'] }),
});

export const AddressParams = Type.Object({ address: Address });

const ProfileListing = Type.Object({
  id: Type.Integer({ description: 'listing id' }),
  price_wei: Wei,
  currency_address: Address,
  ...CurrencyFields,
  source: Type.String({ description: 'where the listing was made', examples: ['grails'] }),
  created_at: Timestamp,
}, { description: "the owner's active listing of the name" });

const OwnedName = Type.Object({
  id: Type.Integer({ description: 'name id' }),
  token_id: Type.String({ description: 'ERC-721 token id of the base registrar, decimal' }),
  name: Type.String({ examples: ['example.eth'] }),
  expiry_date: NullableTimestamp,
  registration_date: NullableTimestamp,
  created_at: described('when the marketplace first stored the name', Timestamp),
  is_listed: Type.Boolean({ description: 'whether the owner has an active listing of it' }),
  active_listing: Type.Union([ProfileListing, Type.Null()]),
});

const ClubCount = Type.Object({
  club: Type.String({ examples: ['999'] }),
  count: Type.Integer({ description: 'names of the club the address holds (registered or in grace)', examples: [3] }),
});

const LegendEntry = Type.Object({
  qualified: Type.Boolean(),
  count: Type.Integer(),
  firstMint: Timestamp,
  lastMint: Timestamp,
});

export const PrimaryNameSource = Type.Union([Type.Literal('rpc'), Type.Literal('cache'), Type.Null()], {
  description: '`rpc`: read from the chain now; `cache`: the last one read (ETH_RPC_URL unset or failing, or read within the hour); null: never read',
});

export const Profile = Type.Object({
  address: described('the profile address, lower-case', Address),
  primaryName: NullableString('primary ENS name (reverse record, checked forward), or null', 'example.eth'),
  primaryNameSource: PrimaryNameSource,
  primaryNameCheckedAt: described('when the primary name was last read from the chain', NullableTimestamp),
  ensRecords: Type.Null({ description: 'ENS text records are not served (and an e-mail address never is)' }),
  persona: Type.Null({ description: 'no persona classification yet' }),
  memberSince: described('when the address first signed in to the marketplace; null if it never has', NullableTimestamp),
  ownedNames: Type.Array(OwnedName, { description: 'up to 50 names the address holds (registered or in grace), soonest expiry first; `stats.totalNames` counts all' }),
  clubs: Type.Array(ClubCount, { description: 'club holdings, most names first' }),
  legends: Type.Record(Type.String(), LegendEntry, { description: 'legend summary (as GET /legends/:address)', examples: [{ OG: { qualified: true, count: 1, firstMint: '2017-05-04T12:00:00.000Z', lastMint: '2017-05-04T12:00:00.000Z' } }] }),
  stats: Type.Object({
    totalNames: Type.Integer({ description: 'names held, registered or in grace' }),
    listedNames: Type.Integer({ description: 'names with an active listing' }),
    expiredNames: Type.Integer({ description: 'names past their grace period still recorded with the address' }),
    namesInClubs: Type.Integer({ description: 'held names that belong to a club' }),
    namesSold: Type.Integer({ description: 'sales as seller, in ETH or WETH' }),
    salesVolumeWei: described('value of those sales, in wei', Wei),
    purchases: Type.Integer({ description: 'purchases as buyer (counted up to 10,000)' }),
    totalActivity: Type.Integer({ description: 'activity events the address made (counted up to 10,000)' }),
    votes: Type.Object({
      cast: Type.Integer({ description: 'names the address votes on now' }),
      up: Type.Integer({ description: 'upvotes among them' }),
      down: Type.Integer({ description: 'downvotes among them' }),
    }, { description: 'votes of the address (0 if it never signed in)' }),
  }, { description: 'aggregated figures: holdings from the holder roll-up (refreshed every 10 minutes), the rest from indexed counts' }),
});
export type Profile = Static<typeof Profile>;

export const ProfileResponse = Envelope(Profile);

const Balance = Type.Object({
  symbol: Type.String({ examples: ['WETH'] }),
  address: Type.Union([Address, Type.Null()], { description: 'token contract; null for ETH' }),
  wei: Type.Union([Wei, Type.Null()], { description: 'balance in the smallest unit; null when it could not be read' }),
  formatted: NullableString('balance in whole units', '0.25'),
  decimals: Type.Integer({ examples: [18] }),
});

export const BalancesResponse = Envelope(Type.Object({
  address: Address,
  balances: Type.Record(Type.String(), Balance, { description: 'keyed by lower-case symbol: eth, weth, usdc', examples: [{ eth: { symbol: 'ETH', address: null, wei: '1500000000000000000', formatted: '1.5', decimals: 18 } }] }),
  reason: Type.Union([Type.Literal('rpc_not_configured'), Type.Literal('rpc_failed'), Type.Null()], {
    description: 'why the balances are null: `rpc_not_configured` (ETH_RPC_URL unset), `rpc_failed` (the node did not answer); null when they were read',
  }),
}));

const Badge = Type.Object({
  event: Type.Object({
    id: Type.String({ description: 'badge id', examples: ['legend:OG'] }),
    name: Type.String({ examples: ['OG'] }),
    description: Type.String({ examples: ['Minted before the permanent registrar (2019-05-04)'] }),
  }, { description: 'what the badge is for' }),
  tokenId: Type.Null({ description: 'no token: the badge is earned from chain history' }),
  owner: Address,
  created: described('when it was earned (the first qualifying mint)', Timestamp),
});

export const BadgesResponse = Envelope(Type.Object({
  address: Address,
  badges: Type.Array(Badge, { description: 'legend badges the address earned (POAP collections are not connected)' }),
}));
