import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { EnsRolesService, ROLES_CACHE_SECONDS } from '../../../services/ens-roles.service.js';
import { errors } from '../../../contracts/common.js';
import { CanManageParams, CanManageResponse, ManageableParams, ManageableQuery, ManageableResponse, RoleNameParams, RolesResponse } from '../../../contracts/ens-roles.js';

const SOURCES = 'With ENS_SUBGRAPH_URL the roles are read from the subgraph (registry owner, registrant, wrapped owner, fuses, resolver, ETH address); '
  + 'without it, or when it fails or does not know the name, from our tables (the holder, taken to be the manager too) with `source: database` and `fallbackReason`. Cached 15 seconds.';

export const ensRolesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const roles = new EnsRolesService(app.deps);

  app.get('/ens-roles/names/:name/roles', {
    config: { cacheSeconds: ROLES_CACHE_SECONDS },
    schema: {
      tags: ['ens-roles'],
      summary: 'Owner, registrant, manager and wrapped owner of a name',
      description: SOURCES,
      params: RoleNameParams,
      response: { 200: RolesResponse, ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await roles.roles(request.params.name)));

  app.get('/ens-roles/names/:name/can-manage/:address', {
    config: { cacheSeconds: ROLES_CACHE_SECONDS },
    schema: {
      tags: ['ens-roles'],
      summary: 'Whether an address may update a name\'s records',
      description: `The manager may, unless the name is wrapped with CANNOT_SET_RESOLVER burned. ${SOURCES}`,
      params: CanManageParams,
      response: { 200: CanManageResponse, ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await roles.canManage(request.params.name, request.params.address)));

  app.get('/ens-roles/users/:address/manageable-names', {
    config: { auth: 'optional', cacheSeconds: ROLES_CACHE_SECONDS },
    schema: {
      tags: ['ens-roles'],
      summary: 'Names an address can manage',
      description: 'Names the address holds in our tables (registered or in grace), soonest expiry first, as standard search results with `role`; '
        + 'with a valid token each carries the caller\'s `user_vote`. The total is exact up to 10,000.',
      params: ManageableParams,
      querystring: ManageableQuery,
      response: { 200: ManageableResponse, ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => ok(await roles.manageable(request.params.address, request.query.page, request.query.limit, request.user?.id)));
};
