import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Executor } from '../../src/db/client.js';
import { builtInClubsOf } from '../../src/lib/clubs.js';
import { parseEthName } from '../../src/lib/ens.js';
import { DAY } from '../../src/lib/time.js';
import { createName } from './factories.js';

export const ETH = '0x0000000000000000000000000000000000000000';
export const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
export const ONE_ETH = 10n ** 18n;

export function randomHash(): `0x${string}` {
  return `0x${randomBytes(32).toString('hex')}`;
}

/** A name owned by `owner`, expiring `expiresInDays` from now (negative: in the past), with its built-in clubs. */
export async function createOwnedName(db: Executor, name: string, owner: string, expiresInDays = 365) {
  const label = parseEthName(name).label;
  return createName(db, name, { owner, expiryDate: new Date(Date.now() + expiresInDays * DAY), clubs: builtInClubsOf(label) });
}

export interface SaleInput {
  nameId: number;
  seller: string;
  buyer?: string;
  priceWei: bigint;
  currency: string;
  soldAt?: Date;
}

export async function createSale(db: Executor, s: SaleInput) {
  return db
    .insertInto('sales')
    .values({
      ens_name_id: s.nameId,
      seller_address: s.seller.toLowerCase(),
      buyer_address: (s.buyer ?? '0x000000000000000000000000000000000000dead').toLowerCase(),
      price_wei: s.priceWei,
      currency_address: s.currency.toLowerCase(),
      tx_hash: randomHash(),
      log_index: 0,
      sold_at: s.soldAt ?? new Date(Date.now() - DAY),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export interface ListingInput {
  nameId: number;
  seller: string;
  priceWei?: bigint;
  currency?: string;
  status?: 'active' | 'sold' | 'cancelled' | 'expired' | 'unfunded';
  expiresAt?: Date | null;
}

/** A listing row as the marketplace stores it (the order itself is not checked here). */
export async function createListing(db: Executor, l: ListingInput) {
  return db
    .insertInto('listings')
    .values({
      ens_name_id: l.nameId,
      seller_address: l.seller.toLowerCase(),
      price_wei: l.priceWei ?? ONE_ETH,
      currency_address: (l.currency ?? ETH).toLowerCase(),
      order_hash: randomHash(),
      order_data: JSON.stringify({}),
      status: l.status ?? 'active',
      expires_at: l.expiresAt === undefined ? new Date(Date.now() + 30 * DAY) : l.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export interface RegistrationInput {
  nameId: number;
  kind?: 'registration' | 'renewal';
  actor: string;
  blockTime: Date | string;
  blockNumber?: number;
  logIndex?: number;
  durationSeconds: number;
  costWei?: bigint;
  referrer?: string | null;
}

let nextBlock = 1_000_000;

export async function createRegistration(db: Executor, r: RegistrationInput) {
  const tx = randomHash();
  const row = await db
    .insertInto('registrations')
    .values({
      ens_name_id: r.nameId,
      kind: r.kind ?? 'registration',
      actor_address: r.actor.toLowerCase(),
      tx_hash: tx,
      log_index: r.logIndex ?? 0,
      block_number: r.blockNumber ?? nextBlock++,
      block_time: r.blockTime,
      duration_seconds: r.durationSeconds,
      cost_wei: r.costWei ?? 0n,
      referrer: r.referrer ?? null,
    })
    .returning(['id', 'tx_hash', 'block_number'])
    .executeTakeFirstOrThrow();
  return row;
}

export async function setEthUsdPrice(db: Executor, day: string, priceUsd: string) {
  await db
    .insertInto('eth_usd_prices')
    .values({ day, price_usd: priceUsd })
    .onConflict((oc) => oc.column('day').doUpdateSet({ price_usd: priceUsd }))
    .execute();
}

export interface TestHttpServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 (a random port) answering with `handler`. */
export async function startHttpServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>): Promise<TestHttpServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Promise.resolve(handler(req, res, Buffer.concat(chunks).toString('utf8'))).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/subgraphs/name/ens`,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const s = await startHttpServer((_req, res) => void res.end());
  const url = s.url;
  await s.close();
  return url;
}
