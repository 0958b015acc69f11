import { Type, type Static } from 'typebox';
import { ORDER_EXAMPLE, storedOrder } from './order.js';
import { Address, ApiVersion, EnsNameParam, Limit, NullableTimestamp, Page, PaginationB, Timestamp, Wei } from './common.js';

const NullableWei = Type.Union([Wei, Type.Null()]);
const NullableId = Type.Union([Type.Integer(), Type.Null()]);

/** One completed sale of a name. */
export const Sale = Type.Object({
  id: Type.Integer(),
  ens_name_id: Type.Integer(),
  seller_address: Address,
  buyer_address: Address,
  sale_price_wei: { ...Wei, description: 'price in the smallest unit of currency_address' },
  currency_address: Address,
  listing_id: NullableId,
  offer_id: NullableId,
  transaction_hash: Type.Union([Type.String(), Type.Null()]),
  block_number: Type.Union([Type.String(), Type.Null()], { description: 'decimal; null when the sale was not read from a block' }),
  order_hash: Type.Union([Type.String(), Type.Null()]),
  order_data: Type.Union([storedOrder(ORDER_EXAMPLE), Type.Null()], { description: 'the filled order of our book, null for other orders' }),
  source: Type.String({ description: 'grails (our order book) or seaport (another Seaport order)' }),
  platform_fee_wei: NullableWei,
  creator_fee_wei: NullableWei,
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'what the marketplace of the sale said of it (collection, item), as it came' }),
  sale_date: Timestamp,
  created_at: Timestamp,
  name: Type.String(),
  token_id: Type.String(),
}, {
  examples: [{
    id: 439, ens_name_id: 423, seller_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', buyer_address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    sale_price_wei: '69000000000000000', currency_address: '0x0000000000000000000000000000000000000000', listing_id: 407, offer_id: null,
    transaction_hash: '0x56ca2e00a1f4e3c3b6c2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0', block_number: null,
    order_hash: '0x6573a9ac00000000000000000000000000000000000000000000000000000001', order_data: { parameters: {}, signature: '0x' },
    source: 'grails', platform_fee_wei: null, creator_fee_wei: null, metadata: { collection: { slug: 'ens' }, item_metadata: { name: '0073.eth' } },
    sale_date: '2026-04-09T15:47:02.435Z', created_at: '2026-04-09T15:47:02.435Z', name: '0073.eth', token_id: '62397633858293182845905960543307828249',
  }],
});
export type Sale = Static<typeof Sale>;

const SalesLimit = { ...Limit, description: 'items per page, 1 to 100 (page × limit at most 10,000)' };

export const SalesQuery = Type.Object({ page: Page, limit: SalesLimit });
export const AddressSalesQuery = Type.Object({
  page: Page,
  limit: SalesLimit,
  type: Type.Union([Type.Literal('buyer'), Type.Literal('seller'), Type.Literal('both')], { default: 'both', description: 'the role of the address' }),
});
export const SalesPage = Type.Object({ results: Type.Array(Sale), pagination: PaginationB });
export const SalesMeta = Type.Object({
  timestamp: Timestamp,
  version: ApiVersion,
  totalCapped: Type.Boolean({ description: 'true when more than 10,000 sales match; total is then 10,000' }),
});

export const SaleNameParams = Type.Object({ name: EnsNameParam });
export const SaleAddressParams = Type.Object({ address: Address });
export const SaleAnalyticsParams = Type.Object({
  nameOrId: Type.String({ minLength: 1, maxLength: 255, description: 'ENS name (example.eth) or the name\'s numeric id', examples: ['apple.eth', '42'] }),
});

export const SaleAnalytics = Type.Object({
  total_sales: Type.String({ description: 'number of sales, decimal' }),
  avg_price_wei: NullableWei,
  min_price_wei: NullableWei,
  max_price_wei: NullableWei,
  first_sale_date: NullableTimestamp,
  last_sale_date: NullableTimestamp,
}, {
  description: 'Prices are values in wei of ETH (ETH and WETH as paid; USDC at the latest daily ETH/USD price); null without sales.',
  examples: [{ total_sales: '5', avg_price_wei: '100000000000000000', min_price_wei: '50000000000000000', max_price_wei: '200000000000000000', first_sale_date: '2025-06-15T12:00:00.000Z', last_sale_date: '2026-04-06T18:00:00.000Z' }],
});
