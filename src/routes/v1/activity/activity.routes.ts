import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACTIVITY_EVENT_TYPES, ActivityAddressParams, ActivityMeta, ActivityNameParams, ActivityPage, ActivityQuery, GlobalActivityQuery } from '../../../contracts/activity.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { ActivityService, type ActivityPage as ActivityPageResult } from '../../../history/index.js';
import { ok } from '../../../lib/envelope.js';

/** Reference cache time of every activity page. */
const CACHE_SECONDS = 15;

/** What every activity page shares: order, paging, event types. */
export const ACTIVITY_RULES = `
Newest first (by \`id\`, the log's sequence number). \`event_type\` keeps the given types (repeat the
parameter or separate with commas): ${ACTIVITY_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}; an
unknown type is 400 VALIDATION_ERROR naming it. \`platform\`: \`grails\` (our order book), \`seaport\`
(other Seaport orders), \`ens\` (registrations, renewals, transfers, expiry). Pagination style B; the
first 10,000 events can be paged (page × limit at most 10,000, else 400 on query.page) and \`total\`
stops at 10,000 (\`meta.totalCapped\` true), so a page never counts the whole log.
`.trim();

const response = (...codes: Parameters<typeof errors>) => ({ 200: Envelope(ActivityPage, ActivityMeta), ...errors('VALIDATION_ERROR', ...codes) });
/** The page in its envelope: `results` and `pagination` in data, `totalCapped` in meta. */
export const send = ({ totalCapped, results, pagination }: ActivityPageResult) => ok({ results, pagination }, { totalCapped });

export const activityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const activity = new ActivityService(app.deps);

  app.get('/activity', {
    config: { cacheSeconds: CACHE_SECONDS },
    schema: {
      tags: ['activity'],
      summary: 'The activity log of every name, with filters',
      description: `${ACTIVITY_RULES} \`club\` keeps names of that club (\`any\`: names in at least one club); \`address\` events where it is actor or counterparty; \`name\` one name (400 INVALID_NAME, 404 NAME_NOT_FOUND). Cache 15 s.`,
      querystring: GlobalActivityQuery,
      response: response('INVALID_NAME', 'NAME_NOT_FOUND'),
    },
  }, async (request) => send(await activity.list(request.query)));

  app.get('/activity/address/:address', {
    config: { cacheSeconds: CACHE_SECONDS },
    schema: {
      tags: ['activity'],
      summary: 'Activity of an address, as actor or counterparty',
      description: `${ACTIVITY_RULES} Cache 15 s.`,
      params: ActivityAddressParams,
      querystring: ActivityQuery,
      response: response(),
    },
  }, async (request) => send(await activity.byAddress(request.params.address, request.query)));

  app.get('/activity/:name', {
    config: { cacheSeconds: CACHE_SECONDS },
    schema: {
      tags: ['activity'],
      summary: 'Activity of one name',
      description: `${ACTIVITY_RULES} 400 INVALID_NAME for a name that does not normalize; 404 ENS_NAME_NOT_FOUND when it is not stored. Cache 15 s.`,
      params: ActivityNameParams,
      querystring: ActivityQuery,
      response: response('INVALID_NAME', 'ENS_NAME_NOT_FOUND'),
    },
  }, async (request) => send(await activity.byName(request.params.name, request.query)));
};
