import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { Executor } from '../../src/db/client.js';
import type { Database } from '../../src/db/schema.js';
import { builtInClubsOf } from '../../src/lib/clubs.js';
import { DAY } from '../../src/lib/time.js';
import { body, show, type TestContext } from './app.js';
import { createName, type NameOptions } from './factories.js';

export const ETH = '0x0000000000000000000000000000000000000000';
export const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const hex32 = () => `0x${randomBytes(32).toString('hex')}`;

export interface SearchNameOptions extends NameOptions {
  /** Active listing: inserted into listings and summarised on the name, as the marketplace does. */
  listing?: { priceWei: string; seller: string; createdAt?: Date; currency?: string; expiresAt?: Date };
  /** Pending offer: inserted into offers and summarised as the name's highest offer. */
  offer?: { amountWei: string; buyer: string; currency?: string };
  votes?: { up: number; down: number };
}

/** A name with the market state search reads; clubs default to the built-in ones of its label. */
export async function createSearchName(db: Executor, name: string, options: SearchNameOptions = {}) {
  const label = name.replace(/\.eth$/, '');
  const row = await createName(db, name, { clubs: builtInClubsOf(label), ...options });
  if (options.listing) await addListing(db, row.id, options.listing);
  if (options.offer) await addOffer(db, row.id, options.offer);
  if (options.votes) {
    await db.updateTable('ens_names').set({ upvotes: options.votes.up, downvotes: options.votes.down }).where('id', '=', row.id).execute();
  }
  return row;
}

export async function addListing(db: Executor, nameId: number, l: NonNullable<SearchNameOptions['listing']>) {
  const createdAt = l.createdAt ?? new Date();
  const currency = l.currency ?? ETH;
  const listing = await db
    .insertInto('listings')
    .values({ ens_name_id: nameId, seller_address: l.seller.toLowerCase(), price_wei: l.priceWei, currency_address: currency, order_hash: hex32(), order_data: '{}', created_at: createdAt, updated_at: createdAt, expires_at: l.expiresAt ?? null })
    .returning(['id', 'order_hash'])
    .executeTakeFirstOrThrow();
  await sql`UPDATE ens_names SET listing_price_wei = ${l.priceWei}::numeric, listing_currency = ${currency}, listing_created_at = ${createdAt},
      listing_expires_at = COALESCE(${l.expiresAt ?? null}::timestamptz, 'infinity')
    WHERE id = ${nameId} AND (listing_price_wei IS NULL OR listing_price_wei > ${l.priceWei}::numeric)`.execute(db);
  return listing;
}

export async function addOffer(db: Executor, nameId: number, o: NonNullable<SearchNameOptions['offer']>) {
  const currency = o.currency ?? WETH;
  const offer = await db
    .insertInto('offers')
    .values({ ens_name_id: nameId, buyer_address: o.buyer.toLowerCase(), offer_amount_wei: o.amountWei, currency_address: currency, order_hash: hex32(), order_data: '{"kind":"offer"}' })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  await sql`UPDATE ens_names SET highest_offer_wei = ${o.amountWei}::numeric, highest_offer_currency = ${currency}, highest_offer_id = ${offer.id}
    WHERE id = ${nameId} AND (highest_offer_wei IS NULL OR highest_offer_wei < ${o.amountWei}::numeric)`.execute(db);
  return offer;
}

/**
 * Inserts `count` plain names `<prefix>00001.eth`… in one statement (hashes are placeholders),
 * without the service's statement timeout: a fixture, not a request (10,005 names, each into
 * three dozen indexes and the search labels, passed 5 s on a loaded machine).
 */
export async function bulkNames(db: Kysely<Database>, prefix: string, count: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = 0`.execute(trx);
    await sql`INSERT INTO ens_names (name, label, labelhash, namehash, token_id, expiry_date, registration_date)
      SELECT l || '.eth', l, '0x' || md5(l) || md5(l || 'h'), '0x' || md5(l || 'n') || md5(l || 'm'),
        ('x' || substr(md5(l), 1, 15))::bit(60)::bigint, now() + interval '100 days', now() - interval '100 days'
      FROM (SELECT ${prefix} || lpad(g::text, 5, '0') AS l FROM generate_series(1, ${count}) g) s`.execute(trx);
  });
}

export const days = (n: number) => new Date(Date.now() + n * DAY);

export interface TestServer {
  url: string;
  /** Every request the server received, in order. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 that answers with `handle`; records what it was sent. */
export async function startServer(handle: (req: { method: string; path: string; headers: IncomingMessage['headers']; body: string }, res: ServerResponse) => void | Promise<void>): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(entry);
      Promise.resolve(handle(entry, res)).catch(() => {
        res.statusCode = 500;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** What the fake model server does with the next chat completion requests. */
export type ModelBehaviour = { kind: 'answer'; content: string } | { kind: 'status'; status: number } | { kind: 'hang' };

/** An OpenAI-compatible chat-completions server; `behave` decides each answer from the prompt. */
export async function startModelServer(behave: (prompt: string) => ModelBehaviour): Promise<TestServer> {
  return startServer((req, res) => {
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions') return json(res, 404, { error: { message: 'not found' } });
    const body = JSON.parse(req.body) as { model: string; messages: Array<{ content: string }> };
    const b = behave(body.messages.map((m) => m.content).join('\n'));
    if (b.kind === 'hang') return; // never answers: the client times out
    if (b.kind === 'status') return json(res, b.status, { error: { message: 'model server trouble', type: 'server_error' } });
    json(res, 200, {
      id: 'chatcmpl-test', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: b.content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
}

export const answer = (suggestions: unknown): ModelBehaviour => ({ kind: 'answer', content: JSON.stringify({ suggestions }) });

/**
 * Google Ads REST and its OAuth token endpoint; `metrics` decides each keyword's answer. Access
 * tokens are `access-1`, `access-2`…; `revokeTokens()` makes every token issued so far invalid.
 */
export async function startGoogleAdsServer(metrics: (keyword: string) => { status: number; body?: unknown }): Promise<TestServer & { env: Record<string, string>; revokeTokens(): void }> {
  let issued = 0;
  let firstValid = 1;
  const server = await startServer((req, res) => {
    if (req.path === '/token') {
      const form = new URLSearchParams(req.body);
      if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== 'refresh-1' || form.get('client_id') !== 'client-1' || form.get('client_secret') !== 'secret-1') {
        return json(res, 400, { error: 'invalid_grant' });
      }
      issued += 1;
      return json(res, 200, { access_token: `access-${issued}`, expires_in: 3599, token_type: 'Bearer' });
    }
    if (req.path !== '/v21/customers/1234567890:generateKeywordHistoricalMetrics' || req.method !== 'POST') return json(res, 404, { error: { code: 404 } });
    const token = /^Bearer access-(\d+)$/.exec(req.headers.authorization ?? '');
    if (!token || Number(token[1]) < firstValid || Number(token[1]) > issued || req.headers['developer-token'] !== 'dev-token-1' || req.headers['login-customer-id'] !== '9876543210') {
      return json(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
    }
    const keyword = (JSON.parse(req.body) as { keywords: string[] }).keywords[0];
    const answerFor = metrics(keyword);
    json(res, answerFor.status, answerFor.body ?? {});
  });
  return {
    ...server,
    revokeTokens: () => { firstValid = issued + 1; },
    env: {
      GOOGLE_ADS_BASE_URL: `${server.url}/v21`,
      GOOGLE_OAUTH_TOKEN_URL: `${server.url}/token`,
      GOOGLE_ADS_DEVELOPER_TOKEN: 'dev-token-1',
      GOOGLE_ADS_CLIENT_ID: 'client-1',
      GOOGLE_ADS_CLIENT_SECRET: 'secret-1',
      GOOGLE_ADS_REFRESH_TOKEN: 'refresh-1',
      GOOGLE_ADS_CUSTOMER_ID: '123-456-7890',
      GOOGLE_ADS_LOGIN_CUSTOMER_ID: '987-654-3210',
    },
  };
}

/** A Google Ads historical-metrics answer for one keyword (int64 as strings, months out of order). */
export function googleMetricsBody(keyword: string) {
  return {
    results: [{
      text: keyword,
      keywordMetrics: {
        avgMonthlySearches: '12100',
        competition: 'HIGH',
        competitionIndex: '87',
        averageCpcMicros: '1250000',
        monthlySearchVolumes: [
          { month: 'JANUARY', year: '2025', monthlySearches: '14800' },
          { month: 'NOVEMBER', year: '2024', monthlySearches: '9900' },
          { month: 'DECEMBER', year: '2024', monthlySearches: '12100' },
        ],
      },
    }],
  };
}

/** Inserts a plain name for each label in one statement (hashes are placeholders); `name` gives a label's name (`<label>.eth`). */
export async function insertLabels(db: Executor, labels: readonly string[], name = (l: string) => `${l}.eth`): Promise<void> {
  await sql`INSERT INTO ens_names (name, label, labelhash, namehash, token_id, expiry_date, registration_date)
    SELECT n, l, '0x' || md5(l) || md5(l || 'h'), '0x' || md5(l || 'n') || md5(l || 'm'),
      ('x' || substr(md5(l), 1, 15))::bit(60)::bigint, now() + interval '100 days', now() - interval '100 days'
    FROM unnest(${[...labels]}::text[], ${labels.map(name)}::text[]) AS x(l, n)`.execute(db);
}

/** GET /api/v1/search?`query` through the app (200 expected): the results' names in order, and the total. */
export async function searchNames(app: TestContext['app'], query: string): Promise<{ names: string[]; total: number }> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/search?${query}` });
  assert.equal(res.statusCode, 200, show(res));
  const data = body(res).data as { results: Array<{ name: string }>; pagination: { total: number } };
  return { names: data.results.map((r) => r.name), total: data.pagination.total };
}
