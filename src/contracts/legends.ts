import { Type } from 'typebox';
import { Address, Envelope, Timestamp } from './common.js';

export const LegendParams = Type.Object({ address: Address });

export const LegendDetailsQuery = Type.Object({
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'keep one legend type (any case), e.g. OG' })),
});

const LegendSummaryEntry = Type.Object({
  qualified: Type.Boolean(),
  count: Type.Integer(),
  firstMint: Timestamp,
  lastMint: Timestamp,
});

const LegendMint = Type.Object({
  name: Type.String(),
  txHash: Type.String(),
  blockNumber: Type.Integer(),
  blockTime: Timestamp,
  labelhash: Type.String(),
  namehash: Type.String(),
});

const LegendDetailsEntry = Type.Object({
  qualified: Type.Boolean(),
  count: Type.Integer(),
  mints: Type.Array(LegendMint, { description: 'oldest first' }),
});

export const LegendSummaryResponse = Envelope(Type.Object({
  address: Address,
  legends: Type.Record(Type.String(), LegendSummaryEntry, { description: 'keyed by legend type (prepunk, OG, Pioneer); only the types the address qualifies for' }),
}));

export const LegendDetailsResponse = Envelope(Type.Object({
  address: Address,
  legends: Type.Record(Type.String(), LegendDetailsEntry, { description: 'keyed by legend type; only the types the address qualifies for' }),
}));
