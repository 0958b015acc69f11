import { Type, type TProperties } from 'typebox';
import { Address, Limit, NullableTimestamp, Page, PaginationB, Timestamp, Wei } from './common.js';
import { searchResultWith } from './search-result.js';

export const HistoryQuery = Type.Object({ page: Page, limit: Limit });

/** A history page: standard search results, each with the fields of its kind of history. */
const page = <P extends TProperties>(extra: P, what: string) => Type.Object({
  names: Type.Array(searchResultWith(extra), { description: `${what}, newest first` }),
  pagination: PaginationB,
});

export const ViewedHistory = page({
  viewed_at: { ...Timestamp, description: 'the UTC day of your latest view of the name (views are counted per day)' },
}, 'names you viewed, each once');

export const WatchedHistory = page({
  added_at: { ...Timestamp, description: 'when you last added the name to one of your lists' },
  notifications: Type.Object({
    on_sale: Type.Boolean({ description: 'notify on sale (on any of your lists holding it)' }),
    on_offer: Type.Boolean({ description: 'notify on new offers' }),
    on_listing: Type.Boolean({ description: 'notify when listed' }),
    on_price_change: Type.Boolean({ description: 'notify when its listing price drops' }),
  }, { description: 'your flags for the name, any list counting' }),
}, 'names on your watchlists, each once');

export const VotedHistory = page({
  my_vote: Type.Union([Type.Literal(1), Type.Literal(-1)], { description: '1 up, -1 down' }),
  voted_at: { ...Timestamp, description: 'when you cast or last changed the vote' },
}, 'names you have a vote on');

export const OfferHistory = page({
  offer: Type.Object({
    id: Type.Integer({ description: 'offer id', examples: [42] }),
    price_wei: Wei,
    currency_address: Address,
    status: Type.String({ description: 'pending, accepted, rejected, expired or unfunded', examples: ['pending'] }),
    created_at: Timestamp,
    expires_at: NullableTimestamp,
  }, { description: 'the offer' }),
}, 'offers you made (a name once per offer)');

const Sale = {
  id: Type.Integer({ description: 'sale record id', examples: [99] }),
  price_wei: Wei,
  currency_address: Address,
  sale_date: Timestamp,
  transaction_hash: Type.Union([Type.String(), Type.Null()], { description: 'null for a sale not read from the chain', examples: ['0xabc123'] }),
};

export const PurchaseHistory = page({ purchase: Type.Object(Sale, { description: 'the purchase' }) }, 'names you bought');
export const SaleHistory = page({
  sale: Type.Object({ ...Sale, buyer_address: Address }, { description: 'the sale' }),
}, 'names you sold');
