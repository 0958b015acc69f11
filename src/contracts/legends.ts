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
  legends: Type.Record(Type.String(), LegendSummaryEntry, {
    description: 'keyed by legend type (prepunk, OG, Pioneer); only the types the address qualifies for',
    examples: [{ OG: { qualified: true, count: 2, firstMint: '2017-05-04T12:00:00.000Z', lastMint: '2017-06-01T09:30:00.000Z' } }],
  }),
}));

export const LegendDetailsResponse = Envelope(Type.Object({
  address: Address,
  legends: Type.Record(Type.String(), LegendDetailsEntry, {
    description: 'keyed by legend type; only the types the address qualifies for',
    examples: [{ OG: { qualified: true, count: 1, mints: [{
      name: 'apple.eth', txHash: '0x5f1c3d1e0c9a3b7d4e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d', blockNumber: 3648565, blockTime: '2017-05-04T12:00:00.000Z',
      labelhash: '0x4f5b812789fc606be1b3b16908db13fc7a9adf7ca72641f84d75b47069d3d7f0', namehash: '0x80ee7e8c0f4bb14d7a0b0c43d4e1f9b7a58a1c2e6f4ab8c3fa2b2c5e3e7a9d10',
    }] } }],
  }),
}));
