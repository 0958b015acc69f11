import { Type, type Static } from 'typebox';
import { Address, asJsonText, CurrencyFields, described, EnsNameParam, Id, Limit, NullableTimestamp, Page, PaginationB, SortOrder, Timestamp, Wei } from './common.js';
import { OfferOrderData, OrderHash, SignedOrder, Source } from './order.js';

export const OfferStatus = Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('rejected'), Type.Literal('expired'), Type.Literal('unfunded')]);

export const Offer = Type.Object({
  id: Type.Integer({ description: 'identifier', examples: [2797] }),
  ens_name_id: Type.Integer({ description: 'identifier of the name', examples: [1751] }),
  buyer_address: Address,
  offer_amount_wei: Wei,
  currency_address: Address,
  ...CurrencyFields,
  order_hash: OrderHash,
  order_data: OfferOrderData,
  status: Type.String({ description: 'pending, accepted, rejected, expired or unfunded', examples: ['pending'] }),
  created_at: Timestamp,
  expires_at: NullableTimestamp,
  source: Source,
  last_validated_at: NullableTimestamp,
  unfunded_at: NullableTimestamp,
  unfunded_reason: Type.Union([Type.String({ description: 'why the offer cannot be filled now: insufficient_balance, insufficient_allowance, marked_by_user', examples: ['insufficient_allowance'] }), Type.Null()]),
  name: Type.String({ description: 'the name the offer is for', examples: ['coffee.eth'] }),
  token_id: Type.String({ description: 'token id of the name: uint256 of its labelhash, decimal', examples: ['47745988384822878386125752626008226207894757330973631232045716595533468831285'] }),
});
export type Offer = Static<typeof Offer>;

const PageQuery = {
  page: Page,
  limit: Limit,
  status: Type.Optional({ ...OfferStatus, description: 'only offers in this status (a pending offer past its end time counts as expired)' }),
  sort: Type.Union([Type.Literal('created'), Type.Literal('amount')], { default: 'created', description: 'created (default) or amount' }),
  order: SortOrder,
};

export const OffersQuery = Type.Object({
  ...PageQuery,
  buyer: Type.Optional({ ...Address, description: 'offers made by this address' }),
  name: Type.Optional({ ...EnsNameParam, description: 'offers on this name' }),
  owner: Type.Optional({ ...Address, description: 'offers on names this address owns' }),
});
export type OffersQuery = Static<typeof OffersQuery>;

export const OffersPathQuery = Type.Object(PageQuery);
export type OffersPathQuery = Static<typeof OffersPathQuery>;

export const OfferPage = Type.Object({ offers: asJsonText(Type.Array(Offer, { description: 'offers of this page' })), pagination: PaginationB });

export const AddressParams = Type.Object({ address: Address });

export const CreateOfferBody = Type.Object({
  orderData: described('the signed order: {parameters, signature}', SignedOrder),
  source: Type.Optional(Source),
  ensNameId: Type.Optional(Id),
  buyerAddress: Type.Optional(Address),
  offerAmountWei: Type.Optional(Wei),
  currencyAddress: Type.Optional(Address),
  expiresAt: Type.Optional(NullableTimestamp),
  orderHash: Type.Optional(described('claimed order hash; must equal the one the service computes', OrderHash)),
});
export type CreateOfferBody = Static<typeof CreateOfferBody>;

export const UpdateOfferBody = Type.Object({
  offerAmountWei: Type.Optional({ ...Wei, description: 'new amount in wei' }),
  status: Type.Optional({ ...OfferStatus, description: 'pending, accepted, rejected, expired or unfunded' }),
  orderData: Type.Optional({ ...SignedOrder, description: 'optional: the buyer\'s re-signed order for the new amount; replaces the stored order' }),
});
export type UpdateOfferBody = Static<typeof UpdateOfferBody>;
