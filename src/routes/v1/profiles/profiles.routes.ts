import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { ProfileService } from '../../../services/profiles.service.js';
import { errors } from '../../../contracts/common.js';
import { AddressParams, BadgesResponse, BalancesResponse, ProfileParams, ProfileResponse } from '../../../contracts/profiles.js';

const PROFILE = [
  'The profile of an address, or of the current owner of an ENS name (from our tables). `primaryName` is the',
  "address's reverse record, accepted only when the name resolves back to the address; with ETH_RPC_URL it is",
  'read from the chain at most once an hour, and the last one read answers otherwise (`primaryNameSource`).',
  'Holdings, listed and club figures come from the holder roll-up (refreshed every 10 minutes); sales, purchases,',
  'votes and activity from counts bounded by the address. `ownedNames` lists up to 50 held names, soonest expiry',
  'first, with the owner\'s active listing. Everything but the primary name is shared for 15 seconds per address.',
  'No e-mail address is ever part of a profile.',
].join(' ');

export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const profiles = new ProfileService(app.deps);

  app.get('/profiles/:addressOrName', {
    config: { auth: 'optional' },
    schema: {
      tags: ['profiles'],
      summary: 'Profile of an address or ENS name',
      description: PROFILE,
      params: ProfileParams,
      response: { 200: ProfileResponse, ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'PROFILE_NOT_FOUND') },
    },
  }, async (request) => ok(await profiles.profile(request.params.addressOrName)));

  app.get('/users/:address/balances', {
    schema: {
      tags: ['users'],
      summary: 'ETH, WETH and USDC balances of an address',
      description: 'Read through ETH_RPC_URL at the latest block. Without an RPC (or when it fails) every `wei` and `formatted` is null and `reason` says why.',
      params: AddressParams,
      response: { 200: BalancesResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await profiles.balances(request.params.address)));

  app.get('/users/:address/badges', {
    schema: {
      tags: ['users'],
      summary: 'Badges of an address',
      description: 'One badge per legend type the address qualifies for (prepunk, OG, Pioneer: see GET /legends/:address), dated by its first such mint. POAP collections are not connected.',
      params: AddressParams,
      response: { 200: BadgesResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await profiles.badges(request.params.address)));
};
