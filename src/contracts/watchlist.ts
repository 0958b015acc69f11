import { Type } from 'typebox';
import { Address, CurrencyFields, Id, Limit, NullableTimestamp, Page, PaginationB, Timestamp, Wei } from './common.js';
import { SearchQuery } from './search.js';
import { searchResultWith } from './search-result.js';

/** Most names a bulk add or remove takes in one request (one transaction). */
export const BULK_MAX = 500;
/** Named lists a user may create besides the default one. */
export const MAX_NAMED_LISTS = 20;

const ListName = Type.String({ minLength: 1, maxLength: 100, description: 'list name, 1 to 100 characters after trimming; unique per user (case-insensitive)', examples: ['Favorites'] });
const ListIdParam = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'one of your lists; default: your default list', examples: [1] });
const Threshold = Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 1e12 })], { description: 'in ETH: offers valued below it send no new_offer notice; null: every offer', examples: [0.5] });
const PremiumBelow = Type.Union([Type.Null(), Wei], { description: 'wei of ETH: alert when the premium of the name, once in its premium auction, falls below this; null: no alert', examples: ['1000000000000000000'] });

const flag = (what: string, dflt: boolean) => Type.Boolean({ description: `notify when ${what} (default ${dflt})`, examples: [dflt] });
const Flags = {
  notifyOnSale: flag('the name sells', true),
  notifyOnOffer: flag('someone offers on the name', true),
  notifyOnListing: flag('the name is listed', true),
  notifyOnPriceChange: flag("the name's listing price drops", false),
};

export const WatchList = Type.Object({
  id: Type.Integer({ examples: [1] }),
  name: Type.String({ examples: ['Watchlist'] }),
  isDefault: Type.Boolean({ description: 'the default list: made on first use, never deleted or renamed' }),
  itemCount: Type.Integer({ minimum: 0, description: 'entries on the list', examples: [15] }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const WatchLists = Type.Object({ lists: Type.Array(WatchList, { description: 'default list first, then by creation' }) });
export const ListBody = Type.Object({ name: ListName });
export const ListParams = Type.Object({ listId: Id });
export const RenamedList = Type.Object({ id: Type.Integer(), name: Type.String(), isDefault: Type.Boolean({ description: 'always false: the default list keeps its name' }), updatedAt: Timestamp });
export const Message = Type.Object({ message: Type.String({ examples: ['List deleted'] }) });

/** What an entry's owner may set, on adding it or later. */
const ItemSettings = {
  notifyOnSale: Type.Optional(Flags.notifyOnSale),
  notifyOnOffer: Type.Optional(Flags.notifyOnOffer),
  notifyOnListing: Type.Optional(Flags.notifyOnListing),
  notifyOnPriceChange: Type.Optional(Flags.notifyOnPriceChange),
  minOfferThreshold: Type.Optional(Threshold),
  premiumAlertBelowWei: Type.Optional(PremiumBelow),
};

export const AddItemBody = Type.Object({
  ensName: Type.String({ minLength: 1, maxLength: 255, description: 'ENS name, with or without .eth', examples: ['apple.eth'] }),
  listId: Type.Optional(ListIdParam),
  ...ItemSettings,
});

export const UpdateItemBody = Type.Object(ItemSettings);

const Prefs = {
  ...Flags,
  minOfferThreshold: Threshold,
  premiumAlertBelowWei: PremiumBelow,
};

export const WatchItem = Type.Object({
  id: Type.Integer({ description: 'watchlist entry id', examples: [7] }),
  userId: Type.Integer({ description: 'your user id' }),
  ensNameId: Type.Integer(),
  ensName: Type.String({ examples: ['apple.eth'] }),
  listId: Type.Integer({ description: 'the list holding the entry' }),
  ...Prefs,
  addedAt: Timestamp,
});

export const UpdatedItem = Type.Object({ id: Type.Integer(), ...Prefs });

export const ItemParams = Type.Object({ id: Id });

export const ItemsQuery = Type.Object({ page: Page, limit: Limit, listId: Type.Optional(ListIdParam) });

const ActiveListing = Type.Object({
  id: Type.Integer(),
  price_wei: Wei,
  currency_address: Address,
  ...CurrencyFields,
  source: Type.String({ examples: ['grails'] }),
  created_at: Timestamp,
});

export const ItemWithName = Type.Object({
  ...WatchItem.properties,
  listName: Type.String({ description: 'the name of the list', examples: ['Watchlist'] }),
  nameData: Type.Object({
    name: Type.String(),
    tokenId: Type.String({ description: 'ERC-721 token id, decimal' }),
    ownerAddress: Type.Union([Address, Type.Null()]),
    expiryDate: NullableTimestamp,
    hasActiveListing: Type.Boolean({ description: 'has an active, unexpired listing' }),
    activeListing: Type.Union([ActiveListing, Type.Null()], { description: 'the newest active, unexpired listing' }),
  }, { description: "the name's owner, expiry and listing now" }),
});

export const ItemsPage = Type.Object({ watchlist: Type.Array(ItemWithName, { description: 'entries, newest first' }), pagination: PaginationB });

export const BulkAddBody = Type.Object({
  ensNames: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: BULK_MAX, description: `ENS names, 1 to ${BULK_MAX}; repeats count once`, examples: [['apple.eth', 'banana.eth']] }),
  listId: Type.Optional(ListIdParam),
});

export const BulkAddResult = Type.Object({
  added: Type.Integer({ minimum: 0, description: 'names added to the list', examples: [8] }),
  alreadyExisted: Type.Integer({ minimum: 0, description: 'names already on it (left as they were)', examples: [2] }),
  notFound: Type.Integer({ minimum: 0, description: 'names not in the marketplace, or that do not normalize' }),
  results: Type.Array(Type.Object({
    ensName: Type.String({ description: 'as sent' }),
    status: Type.Union([Type.Literal('added'), Type.Literal('already_existed'), Type.Literal('not_found'), Type.Literal('invalid')]),
    id: Type.Union([Type.Integer(), Type.Null()], { description: 'the entry id (added or already there)' }),
  }), { description: 'one answer per name sent, in the order sent' }),
});

export const BulkRemoveBody = Type.Object({
  ids: Type.Array(Id, { minItems: 1, maxItems: BULK_MAX, description: `entry ids, 1 to ${BULK_MAX}`, examples: [[1, 2, 3]] }),
});

export const BulkRemoveResult = Type.Object({
  removed: Type.Integer({ minimum: 0, description: 'entries removed', examples: [5] }),
  results: Type.Array(Type.Object({
    id: Type.Integer(),
    status: Type.Union([Type.Literal('removed'), Type.Literal('not_found')], { description: "not_found: no such entry among yours (someone else's entries are not touched)" }),
  })),
});

export const CheckParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 255, description: 'ENS name, with or without .eth', examples: ['apple.eth'] }) });

const Entry = Type.Object({
  listId: Type.Integer({ description: 'the list' }),
  listName: Type.String({ description: 'its name', examples: ['Watchlist'] }),
  listIsDefault: Type.Boolean({ description: 'whether it is your default list' }),
  watchlistEntryId: Type.Integer({ description: 'the entry id on that list' }),
  ...Prefs,
  addedAt: Timestamp,
});

export const CheckResult = Type.Object({
  isWatching: Type.Boolean({ description: 'on at least one of your lists' }),
  watchlistEntry: Type.Union([Type.Object({
    id: Type.Integer(),
    ensNameId: Type.Integer(),
    ensName: Type.String(),
    ...Prefs,
    addedAt: Timestamp,
  }), Type.Null()], { description: 'the oldest entry (older clients read this one)' }),
  lists: Type.Array(Entry, { description: 'every list of yours holding the name' }),
});

export const SearchEntry = Type.Object({
  watchlistId: Type.Integer({ description: 'the entry id' }),
  listId: Type.Integer({ description: 'the list' }),
  listName: Type.String({ description: 'its name', examples: ['Watchlist'] }),
  ...Prefs,
  addedAt: Timestamp,
});

export const WatchSearchResult = searchResultWith({
  watchlist: { ...SearchEntry, description: 'the entry on the list searched' },
  watchlistEntries: Type.Array(SearchEntry, { description: 'your entries for the name on every list' }),
});

export const WatchSearchQuery = Type.Object({
  ...SearchQuery.properties,
  listId: Type.Optional(ListIdParam),
  export: Type.Optional(Type.Boolean({ description: 'true: the matching entries (up to 10,000) as a CSV download' })),
  filename: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$', description: 'CSV file name, without .csv (default watchlist-export)', examples: ['my-names'] })),
});

export const WatchSearchPage = Type.Object({ results: Type.Array(WatchSearchResult), pagination: PaginationB });
