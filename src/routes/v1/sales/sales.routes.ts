import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errors } from '../../../contracts/common.js';
import { AddressSalesQuery, SaleAddressParams, SaleAnalytics, SaleAnalyticsParams, SaleNameParams, SalesMeta, SalesPage, SalesQuery } from '../../../contracts/sales.js';
import { SalesService, type SalesPage as SalesPageResult } from '../../../history/index.js';
import { ok } from '../../../lib/envelope.js';

const PAGING = 'Newest first (sale time, then id). Pagination style B; page × limit at most 10,000 (else 400 on query.page), and `total` stops at 10,000 (`meta.totalCapped`).';
const send = ({ totalCapped, results, pagination }: SalesPageResult) => ok({ results, pagination }, { totalCapped });
const pageResponse = (...codes: Parameters<typeof errors>) => ({ 200: Envelope(SalesPage, SalesMeta), ...errors('VALIDATION_ERROR', ...codes) });

export const salesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sales = new SalesService(app.deps);

  app.get('/sales', {
    config: { cacheSeconds: 15 },
    schema: {
      tags: ['sales'],
      summary: 'Recent sales of every name',
      description: `Sales of our order book (source grails) and other Seaport orders read from the chain (source seaport). ${PAGING} Cache 15 s.`,
      querystring: SalesQuery,
      response: pageResponse(),
    },
  }, async (request) => send(await sales.recent(request.query)));

  app.get('/sales/name/:name', {
    config: { cacheSeconds: 60 },
    schema: {
      tags: ['sales'],
      summary: 'Sales history of one name',
      description: `${PAGING} 400 INVALID_NAME for a name that does not normalize; 404 NAME_NOT_FOUND when it is not stored. Cache 60 s.`,
      params: SaleNameParams,
      querystring: SalesQuery,
      response: pageResponse('INVALID_NAME', 'NAME_NOT_FOUND'),
    },
  }, async (request) => send(await sales.byName(request.params.name, request.query)));

  app.get('/sales/address/:address', {
    config: { cacheSeconds: 15 },
    schema: {
      tags: ['sales'],
      summary: 'Sales of an address as buyer, seller or both',
      description: `\`type\`: buyer, seller or both (default). ${PAGING} Cache 15 s.`,
      params: SaleAddressParams,
      querystring: AddressSalesQuery,
      response: pageResponse(),
    },
  }, async (request) => send(await sales.byAddress(request.params.address, request.query)));

  app.get('/sales/:nameOrId/analytics', {
    config: { cacheSeconds: 60 },
    schema: {
      tags: ['sales'],
      summary: "One name's sale count, price range and dates",
      description: 'Figures over all of the name\'s sales; prices in wei of ETH (USDC at the latest daily ETH/USD price), null without sales. `nameOrId`: the name or its numeric id. 400 INVALID_NAME; 404 NAME_NOT_FOUND. Cache 60 s.',
      params: SaleAnalyticsParams,
      response: { 200: Envelope(SaleAnalytics), ...errors('INVALID_NAME', 'NAME_NOT_FOUND') },
    },
  }, async (request) => ok(await sales.analytics(request.params.nameOrId)));
};
