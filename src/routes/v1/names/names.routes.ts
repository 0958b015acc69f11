import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errors } from '../../../contracts/common.js';
import { NameBundle, NameHistoryPage, NameHistoryQuery, NameLegacy, NameMetadata, NamePage, NamePathParams, NamesMeta, NamesPage, NamesQuery } from '../../../contracts/names.js';
import { NamesService, viewCounterOf } from '../../../history/index.js';
import { ok } from '../../../lib/envelope.js';

const NAME_ERRORS = 'A name that does not normalize is 400 INVALID_NAME; one the marketplace does not have is 404 NAME_NOT_FOUND.';
const VIEWS = 'Each call counts a view of the name, once per viewer (signed-in user, else client address) and UTC day; views are written in the background within seconds.';

export const namesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const names = new NamesService(app.deps);
  app.addHook('onClose', async () => { await viewCounterOf(app.deps.db).close(); });
  const viewer = (request: { user: { id: number } | null; ip: string }) => request.user ?? { ip: request.ip };

  app.get('/names', {
    config: { cacheSeconds: 15 },
    schema: {
      tags: ['names'],
      summary: 'Names with filters and sorts',
      description: '`owner`; `status` available (registrable), listed, expiring (within 30 days), registered, grace or premium; without a status, names past their grace period are left out. `sort` name, price (lowest active listing in ETH value; unlisted names last), expiry, created (registration date); `order` asc or desc. Pagination style B; page × limit at most 10,000, and `total` stops at 10,000 (`meta.totalCapped`). Cache 15 s.',
      querystring: NamesQuery,
      response: { 200: Envelope(NamesPage, NamesMeta), ...errors('VALIDATION_ERROR') },
    },
  }, async (request) => {
    const { totalCapped, ...data } = await names.list(request.query);
    return ok(data, { totalCapped });
  });

  app.get('/names/:name', {
    config: { auth: 'optional' },
    schema: {
      tags: ['names'],
      summary: 'One name: its search result, active listings with their signed orders, pending offers, status',
      description: `Authentication optional (adds \`user_vote\`). No cache. \`listings\` are the active, unexpired listings, newest first, each with the \`order_data\` a buyer fulfils; \`offers\` the pending, unexpired offers, highest first (at most 100). \`status\` registered, grace, premium or available; \`wrapped\`; \`view_count\`. ${VIEWS} ${NAME_ERRORS}`,
      params: NamePathParams,
      response: { 200: Envelope(NamePage), ...errors('INVALID_NAME', 'UNAUTHORIZED', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await names.detail(request.params.name, request.user, viewer(request))));

  app.get('/names/:name/bundle', {
    config: { auth: 'optional' },
    schema: {
      tags: ['names'],
      summary: 'Everything the web app renders a name page from, in one call',
      description: `\`details\` is GET /names/:name, \`offers\` its pending offers, \`roles\` owner and manager as stored. No cache. ${VIEWS} ${NAME_ERRORS}`,
      params: NamePathParams,
      response: { 200: Envelope(NameBundle), ...errors('INVALID_NAME', 'UNAUTHORIZED', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await names.bundle(request.params.name, request.user, viewer(request))));

  app.get('/names/:name/metadata', {
    schema: {
      tags: ['names'],
      summary: 'ERC-721 metadata of the name token',
      description: `What the ENS metadata service serves for the token (name, description, attributes, image under ENS_METADATA_URL), from stored data. No cache. ${NAME_ERRORS}`,
      params: NamePathParams,
      response: { 200: Envelope(NameMetadata), ...errors('INVALID_NAME', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await names.metadata(request.params.name)));

  app.get('/names/:name/legacy', {
    config: { cacheSeconds: 15 },
    schema: {
      tags: ['names'],
      summary: 'One name in the legacy flat shape',
      description: `The list item of GET /names plus the newest active listing inline (\`listing_*\`), the pending offer count and the 10 newest chain transactions. Cache 15 s. ${NAME_ERRORS}`,
      params: NamePathParams,
      response: { 200: Envelope(NameLegacy), ...errors('INVALID_NAME', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await names.legacy(request.params.name)));

  app.get('/names/:name/history', {
    config: { cacheSeconds: 15 },
    schema: {
      tags: ['names'],
      summary: "The name's registrations, renewals, transfers and sales, oldest first",
      description: `From the activity log, in the order they happened. Pagination style B. Cache 15 s. ${NAME_ERRORS}`,
      params: NamePathParams,
      querystring: NameHistoryQuery,
      response: { 200: Envelope(NameHistoryPage), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await names.history(request.params.name, request.query)));
};
