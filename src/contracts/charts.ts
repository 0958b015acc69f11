import { Type } from 'typebox';
import { Envelope, Timestamp, Wei } from './common.js';
import { glossed } from './glossary.js';

const WORDS = { club: 'the club filter as given (null: none)', clubs: 'the clubs filtered by (null: none)', total: 'all sources' };

const PERIODS = ['1d', '7d', '30d', '1y', 'all'] as const;
const Period = Type.Enum([...PERIODS], { default: '7d', description: '1d: 24 hourly buckets; 7d, 30d, 1y: that many daily buckets (UTC), the current one included; all: daily from the first day with data' });

export const ChartQuery = Type.Object({
  period: Period,
  club: Type.Optional(Type.String({ minLength: 1, maxLength: 1400, description: 'clubs, comma-separated (a name in several counts once); `any`: names in a club; `none`: names in none', examples: ['999,10k'] })),
});

const Echo = {
  period: Period,
  club: Type.Union([Type.String(), Type.Null()]),
  clubs: Type.Union([Type.Array(Type.String()), Type.Null()]),
};

export const CountChartResponse = glossed(Envelope(Type.Object({
  ...Echo,
  points: Type.Array(Type.Object({ date: Timestamp, total: Type.Integer(), grails: Type.Integer(), opensea: Type.Integer() }), { description: 'every bucket, zero-filled; total includes other sources' }),
}, {
  examples: [{
    period: '7d', club: '999', clubs: ['999'],
    points: [{ date: '2026-11-21T00:00:00.000Z', total: 5, grails: 3, opensea: 2 }, { date: '2026-11-22T00:00:00.000Z', total: 0, grails: 0, opensea: 0 }],
  }],
})), WORDS);

export const VolumeChartResponse = glossed(Envelope(Type.Object({
  ...Echo,
  points: Type.Array(Type.Object({ date: Timestamp, total: Wei, grails: Wei, opensea: Wei }), { description: 'ETH and WETH sales only' }),
}, { examples: [{ period: '7d', club: null, clubs: null, points: [{ date: '2026-11-22T00:00:00.000Z', total: '2500000000000000000', grails: '1500000000000000000', opensea: '1000000000000000000' }] }] })), WORDS);

export const RegistrationChartResponse = glossed(Envelope(Type.Object({
  ...Echo,
  points: Type.Array(Type.Object({
    date: Timestamp, count: Type.Integer(), total_cost_wei: Wei, avg_cost_wei: Wei, total_base_cost_wei: Wei, total_premium_wei: Wei, premium_count: Type.Integer(),
  }), { description: 'registrations (not renewals) per bucket' }),
}, {
  examples: [{
    period: '30d', club: null, clubs: null,
    points: [{ date: '2026-11-22T00:00:00.000Z', count: 25, total_cost_wei: '125000000000000000', avg_cost_wei: '5000000000000000', total_base_cost_wei: '100000000000000000', total_premium_wei: '25000000000000000', premium_count: 3 }],
  }],
})), WORDS);
