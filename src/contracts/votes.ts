import { Type } from 'typebox';
import { Address, asJsonText, CurrencyFields, EnsNameParam, Limit, Page, PaginationB, Wei } from './common.js';

const UserVote = Type.Union([Type.Literal(1), Type.Literal(-1), Type.Null()], { description: "the caller's vote; null without a valid token or without a vote" });

export const CastVoteBody = Type.Object({
  ensName: Type.String({ minLength: 1, maxLength: 255, description: 'ENS name, with or without .eth; normalized (ENSIP-15)', examples: ['vitalik.eth'] }),
  vote: Type.Integer({ minimum: -1, maximum: 1, description: '1 up, -1 down, 0 removes the vote' }),
});

export const VoteStats = Type.Object({
  ensName: Type.String(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  netScore: Type.Integer({ description: 'upvotes minus downvotes' }),
  userVote: UserVote,
});

export const EnsNameParams = Type.Object({ ensName: EnsNameParam });

export const LeaderboardQuery = Type.Object({
  page: Page,
  limit: Limit,
  sortBy: Type.Union([Type.Literal('upvotes'), Type.Literal('downvotes'), Type.Literal('netScore')], { default: 'netScore' }),
});

export const ActiveListing = Type.Object({
  id: Type.Integer(),
  price_wei: Wei,
  currency_address: Address,
  ...CurrencyFields,
  status: Type.String(),
  source: Type.String(),
});

export const LeaderboardEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  tokenId: Type.String(),
  ownerAddress: Type.Union([Address, Type.Null()]),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  netScore: Type.Integer(),
  activeListing: Type.Optional(ActiveListing),
});

export const Leaderboard = Type.Object({ leaderboard: asJsonText(Type.Array(LeaderboardEntry)), pagination: PaginationB });
