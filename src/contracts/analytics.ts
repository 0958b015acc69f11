import { Type } from 'typebox';
import { CLUB_NAME_PATTERN } from '../lib/clubs.js';
import { glossed } from './glossary.js';
import { Address, Envelope, Limit, Page, PaginationB, SortOrder, Timestamp, Wei } from './common.js';

const PERIODS = ['24h', '7d', '30d', '90d', '1y', 'all'] as const;
const Period = Type.Enum([...PERIODS], {
  default: '7d',
  description: 'the last 24 hourly buckets (24h), 168 hourly buckets (7d), or 30, 90, 365 daily buckets up to and including the current one; all: all time',
});
export const PeriodQuery = Type.Object({ period: Period });
const Count = Type.Integer({ minimum: 0 });
const Clubs = Type.Array(Type.String());
const ClubValues = Type.Array(Type.String({ minLength: 1, maxLength: 1400 }), { maxItems: 20, description: 'club identifiers, repeatable or comma-separated' });
const Source = Type.String({ minLength: 1, maxLength: 32, description: 'marketplace of origin: grails, opensea…', examples: ['grails'] });

export const MarketResponse = glossed(Envelope(Type.Object({
  period: Period,
  overview: Type.Object({
    total_names: Count, active_listings: Count, active_offers: Count,
    total_watchers: Type.Integer({ minimum: 0, description: 'users watching at least one name' }),
    total_views: Type.Integer({ minimum: 0, description: 'name page views of all time: one per name, viewer and UTC day' }),
  }, { description: 'current totals, recomputed every 5 minutes (total_views every minute)' }),
  volume: Type.Object({
    sales_count: Type.Integer({ description: 'sales of the period, any currency' }),
    total_volume_wei: { ...Wei, description: 'ETH and WETH sales only' },
    avg_sale_price_wei: Wei, max_sale_price_wei: Wei, min_sale_price_wei: Wei,
    unique_names_sold: Count, unique_buyers: Count, unique_sellers: Count,
  }),
  activity: Type.Object({
    views: Type.Integer({ minimum: 0, description: 'name page views of the period: one per name, viewer and UTC day, in the hour the first was counted' }),
    watchlist_adds: Type.Integer({ minimum: 0, description: 'names added to watchlists in the period and still on them' }),
    votes: Count, offers: Count, listings: Count,
  }),
}, {
  examples: [{
    period: '7d',
    overview: { total_names: 10000, active_listings: 390, active_offers: 812, total_watchers: 214, total_views: 48210 },
    volume: {
      sales_count: 42, total_volume_wei: '61200000000000000000', avg_sale_price_wei: '1530000000000000000', max_sale_price_wei: '12000000000000000000',
      min_sale_price_wei: '5000000000000000', unique_names_sold: 41, unique_buyers: 37, unique_sellers: 35,
    },
    activity: { views: 6120, watchlist_adds: 87, votes: 96, offers: 120, listings: 58 },
  }],
})));

export const ClubAnalyticsParams = Type.Object({ club: Type.String({ pattern: CLUB_NAME_PATTERN, description: 'club identifier', examples: ['10k'] }) });

export const ClubAnalyticsResponse = glossed(Envelope(Type.Object({
  club: Type.String(),
  period: Period,
  stats: Type.Object({
    member_count: Count, active_listings: Count, active_offers: Count,
    total_views: Type.Integer({ minimum: 0, description: "views of the club's names of all time (one per name, viewer and UTC day)" }),
    floor_price_wei: Type.Union([Wei, Type.Null()]),
  }),
  volume: Type.Object({ sales_count: Count, total_volume_wei: Wei, avg_sale_price_wei: Wei }),
  activity: Type.Object({
    views: Type.Integer({ minimum: 0, description: "views of the club's names in the period" }),
    watchlist_adds: Type.Integer({ minimum: 0, description: "the club's names added to watchlists in the period and still on them" }),
    votes: Count,
  }),
}, {
  examples: [{
    club: '10k', period: '7d',
    stats: { member_count: 10000, active_listings: 412, active_offers: 230, total_views: 9650, floor_price_wei: '180000000000000000' },
    volume: { sales_count: 12, total_volume_wei: '6000000000000000000', avg_sale_price_wei: '500000000000000000' },
    activity: { views: 1210, watchlist_adds: 31, votes: 50 },
  }],
})));

export const PriceTrendsResponse = glossed(Envelope(Type.Object({
  period: Period,
  trends: Type.Array(Type.Object({ date: Timestamp, sales_count: Count, volume_wei: Wei, avg_price_wei: Wei, max_price_wei: Wei, min_price_wei: Wei }), {
    description: 'days (UTC) with at least one ETH or WETH sale, oldest first',
  }),
}, {
  examples: [{ period: '7d', trends: [{ date: '2026-11-21T00:00:00.000Z', sales_count: 6, volume_wei: '3100000000000000000', avg_price_wei: '516666666666666666', max_price_wei: '1500000000000000000', min_price_wei: '20000000000000000' }] }],
})));

export const VolumeResponse = glossed(Envelope(Type.Object({
  period: Period,
  distribution: Type.Array(Type.Object({ price_range: Type.String(), sales_count: Count, total_volume_wei: Wei }), { description: 'every band, ETH and WETH sales only' }),
}, { examples: [{ period: '7d', distribution: [{ price_range: '< 0.01 ETH', sales_count: 5, total_volume_wei: '25000000000000000' }] }] })));

const LengthRow = {
  name_length: Type.Integer(), count: Count, total_cost_wei: Wei, avg_cost_wei: Wei, avg_base_cost_wei: Wei, avg_premium_wei: Wei,
};

export const ByLengthResponse = glossed(Envelope(Type.Object({
  period: Period,
  breakdown: Type.Array(Type.Object({
    ...LengthRow, min_cost_wei: Wei, max_cost_wei: Wei,
    median_cost_wei: { ...Wei, description: 'from the period snapshot (every 5 minutes; hourly for 1y and all)' },
    premium_count: Count,
  })),
}, {
  examples: [{
    period: '7d',
    breakdown: [{
      name_length: 3, count: 15, total_cost_wei: '750000000000000000', avg_cost_wei: '50000000000000000', avg_base_cost_wei: '45000000000000000',
      avg_premium_wei: '5000000000000000', min_cost_wei: '10000000000000000', max_cost_wei: '200000000000000000', median_cost_wei: '40000000000000000', premium_count: 3,
    }],
  }],
})));

export const FeedPeriodQuery = {
  period: Period,
  sortOrder: SortOrder,
  page: { ...Page, maximum: 10_000 },
  limit: Limit,
  'clubs[]': Type.Optional(ClubValues),
  clubs: Type.Optional(ClubValues),
};

export const RegistrationsQuery = Type.Object({ ...FeedPeriodQuery, sortBy: Type.Enum(['date', 'cost', 'length'], { default: 'date', description: 'registration time, total cost or label length' }) });

export const RegistrationsResponse = glossed(Envelope(Type.Object({
  period: Period,
  summary: Type.Object({
    registration_count: Count, total_base_cost_wei: Wei, total_premium_wei: Wei, total_cost_wei: Wei, avg_base_cost_wei: Wei, avg_premium_wei: Wei,
    avg_cost_wei: Wei, premium_registrations: Count,
    unique_registrants: Type.Integer({ description: 'over all names of the period (not narrowed by clubs), from the period snapshot' }),
  }),
  by_length: Type.Array(Type.Object(LengthRow)),
  results: Type.Array(Type.Object({
    id: Type.Integer(), name: Type.String(), registrant_address: Address, owner_address: Type.Union([Address, Type.Null()]),
    base_cost_wei: Wei, premium_wei: Wei, total_cost_wei: Wei, name_length: Type.Integer(), registration_date: Timestamp, clubs: Clubs,
    source: Type.Union([Type.Literal('grails'), Type.Null()], { description: 'grails when registered with our referrer code' }),
  })),
  pagination: PaginationB,
})));

const SaleSort = { sortBy: Type.Enum(['date', 'price'], { default: 'date', description: 'price: amount in the currency of the row' }), source: Type.Optional(Source) };

export const SalesFeedQuery = Type.Object({ ...FeedPeriodQuery, ...SaleSort });
export const ListingsFeedQuery = Type.Object({
  ...FeedPeriodQuery, ...SaleSort,
  status: Type.Optional(Type.Enum(['active', 'sold', 'cancelled', 'expired', 'unfunded'], { description: 'active excludes listings past their end time; expired includes them' })),
});
export const OffersFeedQuery = Type.Object({
  ...FeedPeriodQuery, ...SaleSort,
  status: Type.Optional(Type.Enum(['pending', 'active', 'accepted', 'rejected', 'cancelled', 'expired', 'unfunded'], { description: 'active is pending, cancelled is rejected (the original marketplace\'s words)' })),
});

const Named = { id: Type.Integer(), name: Type.String(), token_id: Wei, currency_address: Address, source: Type.String(), clubs: Clubs };

export const SalesFeedResponse = glossed(Envelope(Type.Object({
  results: Type.Array(Type.Object({
    ...Named, sale_price_wei: Wei, buyer_address: Address, seller_address: Address, sale_date: Timestamp, transaction_hash: Type.Union([Type.String(), Type.Null()]),
  })),
  pagination: PaginationB,
})));

export const ListingsFeedResponse = glossed(Envelope(Type.Object({
  results: Type.Array(Type.Object({ ...Named, price_wei: Wei, seller_address: Address, status: Type.String(), created_at: Timestamp })),
  pagination: PaginationB,
})));

export const OffersFeedResponse = glossed(Envelope(Type.Object({
  results: Type.Array(Type.Object({ ...Named, offer_amount_wei: Wei, buyer_address: Address, status: Type.String(), created_at: Timestamp })),
  pagination: PaginationB,
})));

export const UserMeResponse = glossed(Envelope(Type.Object({
  activity: Type.Object({
    names_viewed: Type.Integer({ minimum: 0, description: 'names whose page the caller opened while signed in' }),
    names_watching: Type.Integer({ minimum: 0, description: 'names on any of the caller\'s watchlists' }),
    votes_cast: Type.Integer({ description: 'names the caller has a vote on' }),
    offers_made: Count, names_purchased: Count, names_sold: Count,
  }),
  portfolio: Type.Object({
    owned_names_count: Type.Integer({ description: 'registered and grace names' }), listed_names_count: Count,
    total_listing_value_wei: { ...Wei, description: 'active listings, valued in ETH' },
    total_offer_value_wei: { ...Wei, description: "the caller's pending offers, valued in ETH" },
  }),
}, {
  examples: [{
    activity: { names_viewed: 150, names_watching: 42, votes_cast: 30, offers_made: 3, names_purchased: 15, names_sold: 10 },
    portfolio: { owned_names_count: 25, listed_names_count: 5, total_listing_value_wei: '5000000000000000000', total_offer_value_wei: '7500000000000000000' },
  }],
})));
