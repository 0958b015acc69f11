import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { WatchlistService } from '../../../watchlists/index.js';
import { WatchlistSearchService } from '../../../services/watchlist-search.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { SearchMeta } from '../../../contracts/search.js';
import {
  AddItemBody, BULK_MAX, BulkAddBody, BulkAddResult, BulkRemoveBody, BulkRemoveResult, CheckParams, CheckResult, ItemParams, ItemsPage,
  ItemsQuery, ListBody, ListParams, MAX_NAMED_LISTS, Message, RenamedList, UpdatedItem, UpdateItemBody, WatchItem, WatchList, WatchLists,
  WatchSearchPage, WatchSearchQuery,
} from '../../../contracts/watchlist.js';

const tags = ['watchlist'];
const auth = { auth: 'required' as const };
const ISOLATION = "You only ever see and change your own lists and entries.";

export const watchlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const watchlists = new WatchlistService(app.deps);
  const search = new WatchlistSearchService(app.deps);

  app.get('/watchlist/lists', {
    config: auth,
    schema: {
      tags, summary: 'Your watchlists with item counts',
      description: `Your default list ("Watchlist", made on first use) first, then your named lists by creation. ${ISOLATION} Not cached.`,
      response: { 200: Envelope(WatchLists), ...errors('UNAUTHORIZED') },
    },
  }, async (request) => ok(await watchlists.lists(requireUser(request).id)));

  app.post('/watchlist/lists', {
    config: auth,
    schema: {
      tags, summary: 'Create a named watchlist',
      description: `At most ${MAX_NAMED_LISTS} lists besides the default one (400 LIST_LIMIT_REACHED); names are trimmed and unique per user regardless of case (409 DUPLICATE_LIST_NAME).`,
      body: ListBody,
      response: { 201: Envelope(WatchList), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'LIST_LIMIT_REACHED', 'DUPLICATE_LIST_NAME') },
    },
  }, async (request, reply) => reply.code(201).send(ok(await watchlists.createList(requireUser(request).id, request.body.name))));

  app.patch('/watchlist/lists/:listId', {
    config: auth,
    schema: {
      tags, summary: 'Rename a watchlist',
      description: 'The default list keeps its name (400 CANNOT_RENAME_DEFAULT). Another user\'s list: 403 FORBIDDEN; no such list: 404 NOT_FOUND.',
      params: ListParams, body: ListBody,
      response: { 200: Envelope(RenamedList), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CANNOT_RENAME_DEFAULT', 'DUPLICATE_LIST_NAME') },
    },
  }, async (request) => ok(await watchlists.renameList(requireUser(request).id, request.params.listId, request.body.name)));

  app.delete('/watchlist/lists/:listId', {
    config: auth,
    schema: {
      tags, summary: 'Delete a watchlist and its entries',
      description: 'The default list cannot be deleted (400 CANNOT_DELETE_DEFAULT). Watcher counts of the names on it drop in the same transaction.',
      params: ListParams,
      response: { 200: Envelope(Message), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CANNOT_DELETE_DEFAULT') },
    },
  }, async (request) => ok(await watchlists.deleteList(requireUser(request).id, request.params.listId)));

  app.get('/watchlist', {
    config: auth,
    schema: {
      tags, summary: 'A page of one of your watchlists',
      description: 'Newest entries first, each with the name\'s owner, expiry and newest active listing. Without `listId`, your default list. Someone else\'s list: 404 LIST_NOT_FOUND.',
      querystring: ItemsQuery,
      response: { 200: Envelope(ItemsPage), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'LIST_NOT_FOUND') },
    },
  }, async (request) => ok(await watchlists.items(requireUser(request).id, request.query)));

  app.post('/watchlist', {
    config: auth,
    schema: {
      tags, summary: 'Watch a name',
      description: 'Adds the name to the list (default: your default list) with its notification flags; if it is already there, the flags sent are updated instead. ' +
        'The name\'s watcher count (one per user, whatever the lists) and the watchlist trend counter move in the same transaction.',
      body: AddItemBody,
      response: { 200: Envelope(WatchItem), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND', 'LIST_NOT_FOUND') },
    },
  }, async (request) => ok(await watchlists.add(requireUser(request).id, request.body)));

  app.post('/watchlist/bulk', {
    config: auth,
    schema: {
      tags, summary: `Watch up to ${BULK_MAX} names at once`,
      description: `1 to ${BULK_MAX} names (more: 400), added in one transaction; names already on the list are kept as they are. \`results\` answers each name sent: ` +
        'added, already_existed, not_found (not in the marketplace) or invalid (does not normalize). None found: 404 ENS_NAMES_NOT_FOUND and nothing changes.',
      body: BulkAddBody,
      response: { 200: Envelope(BulkAddResult), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'ENS_NAMES_NOT_FOUND', 'LIST_NOT_FOUND') },
    },
  }, async (request) => ok(await watchlists.bulkAdd(requireUser(request).id, request.body.ensNames, request.body.listId)));

  app.delete('/watchlist/bulk', {
    config: auth,
    schema: {
      tags, summary: `Remove up to ${BULK_MAX} entries at once`,
      description: `1 to ${BULK_MAX} entry ids, removed in one transaction. Ids that are not yours (or do not exist) are reported not_found and left alone.`,
      body: BulkRemoveBody,
      response: { 200: Envelope(BulkRemoveResult), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await watchlists.bulkRemove(requireUser(request).id, request.body.ids)));

  app.get('/watchlist/check/:name', {
    config: auth,
    schema: {
      tags, summary: 'Whether you watch a name, and on which lists',
      params: CheckParams,
      response: { 200: Envelope(CheckResult), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await watchlists.check(requireUser(request).id, request.params.name)));

  app.get('/watchlist/search', {
    config: auth,
    schema: {
      tags, summary: 'Search one of your watchlists with the global search filters',
      description: 'Every text match, filter and sort of `GET /api/v1/search` (see its description), limited to the names on the list ' +
        '(default: your default list). Each result carries `watchlist` (its entry on this list) and `watchlistEntries` (your entries on every list). ' +
        '`export=true` answers the whole match (up to 10,000 names) as a CSV attachment named `filename`.csv instead.',
      querystring: WatchSearchQuery,
      response: { 200: Envelope(WatchSearchPage, SearchMeta), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'LIST_NOT_FOUND') },
    },
  }, async (request, reply) => {
    const userId = requireUser(request).id;
    if (request.query.export === true) {
      const csv = await search.csv(userId, request.query);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${request.query.filename ?? 'watchlist-export'}.csv"`).send(csv as never); // text/csv: sent as is, not serialized against the JSON schema
    }
    const { results, pagination, sort, totalCapped } = await search.page(userId, request.query);
    return ok({ results, pagination }, { sort, totalCapped });
  });

  app.patch('/watchlist/:id', {
    config: auth,
    schema: {
      tags, summary: "Change an entry's notification flags",
      description: 'At least one field (400 NO_UPDATES). Someone else\'s entry: 403 FORBIDDEN; no such entry: 404 NOT_FOUND.',
      params: ItemParams, body: UpdateItemBody,
      response: { 200: Envelope(UpdatedItem), ...errors('VALIDATION_ERROR', 'NO_UPDATES', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND') },
    },
  }, async (request) => ok(await watchlists.update(requireUser(request).id, request.params.id, request.body)));

  app.delete('/watchlist/:id', {
    config: auth,
    schema: {
      tags, summary: 'Remove an entry',
      description: 'Someone else\'s entry: 403 FORBIDDEN; no such entry: 404 NOT_FOUND.',
      params: ItemParams,
      response: { 200: Envelope(Message), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND') },
    },
  }, async (request) => ok(await watchlists.remove(requireUser(request).id, request.params.id)));
};
