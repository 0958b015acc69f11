import type { Hex } from 'viem';
import { MAINNET } from '../../src/config.js';
import type { Executor } from '../../src/db/client.js';
import { ZERO_ADDRESS } from '../../src/lib/address.js';
import { parseEthName } from '../../src/lib/ens.js';
import { buildListingOrder, buildOfferOrder, orderHash, orderTypedData, type Fee, type OrderComponents } from '../../src/lib/seaport.js';
import { recalculateHighestOffer, refreshListingSummary } from '../../src/orders/index.js';
import { account } from './accounts.js';

/** Test factories for signed Seaport orders and stored listings/offers (mainnet contract addresses). */
export const ETH = ZERO_ADDRESS;
export const WETH = MAINNET.weth;
export const USDC = MAINNET.usdc;
export const CONTRACTS = { baseRegistrarAddress: MAINNET.baseRegistrar, nameWrapperAddress: MAINNET.nameWrapper };
export const SEAPORT = { chainId: 1, seaportAddress: MAINNET.seaport };
export const ONE_ETH = 10n ** 18n;

let salt = BigInt(Date.now()) * 1000n;
const nextSalt = () => (salt++).toString();

export interface OrderOptions {
  currency?: string;
  fee?: Fee;
  /** Seconds since epoch; default 30 days ahead. */
  endTime?: number;
  startTime?: number;
  /** Trade the NameWrapper ERC-1155 token (namehash) instead of the registrar ERC-721 (labelhash). */
  wrapped?: boolean;
  counter?: string;
}

export interface SignedOrder {
  orderData: { parameters: OrderComponents; signature: Hex };
  hash: Hex;
}

/** Signs order components with demo account i (EIP-712, Seaport 1.6, chain 1, mainnet Seaport). */
export async function signOrder(i: number, order: OrderComponents): Promise<SignedOrder> {
  const signature = await account(i).signTypedData(orderTypedData(order, SEAPORT));
  return { orderData: { parameters: order, signature }, hash: orderHash(order) };
}

function token(name: string, wrapped = false) {
  const n = parseEthName(name);
  return { wrapped, tokenId: wrapped ? n.wrappedTokenId : n.tokenId };
}

function times(o: OrderOptions) {
  const now = Math.floor(Date.now() / 1000);
  return { startTime: o.startTime ?? now - 60, endTime: o.endTime ?? now + 30 * 86_400, salt: nextSalt(), counter: o.counter };
}

/** A listing of `name` by demo account i for `priceWei` (ETH unless `currency`), signed. */
export async function signedListing(i: number, name: string, priceWei: bigint, o: OrderOptions = {}): Promise<SignedOrder> {
  const order = buildListingOrder({ seller: account(i).address, token: token(name, o.wrapped), priceWei, currency: o.currency ?? ETH, fee: o.fee, contracts: CONTRACTS, ...times(o) });
  return signOrder(i, order);
}

/** An offer by demo account i of `amountWei` (WETH unless `currency`) for `name`, signed. */
export async function signedOffer(i: number, name: string, amountWei: bigint, o: OrderOptions = {}): Promise<SignedOrder> {
  const order = buildOfferOrder({ buyer: account(i).address, token: token(name, o.wrapped), amountWei, currency: o.currency ?? WETH, fee: o.fee, contracts: CONTRACTS, ...times(o) });
  return signOrder(i, order);
}

export interface StoredOrderOptions {
  status?: string;
  createdAt?: Date;
  expiresAt?: Date | null;
  currency?: string;
  source?: string;
}

/**
 * Inserts a listing row straight into the database (for read tests that need many listings fast)
 * and refreshes the name's listing summary; the order is really signed, so it is what
 * POST /listings would have stored.
 */
export async function insertListing(db: Executor, i: number, ensNameId: number, name: string, priceWei: bigint, o: StoredOrderOptions = {}) {
  const expiresAt = o.expiresAt === undefined ? new Date(Date.now() + 30 * 86_400_000) : o.expiresAt;
  const endTime = expiresAt === null ? Number.MAX_SAFE_INTEGER : Math.floor(expiresAt.getTime() / 1000);
  const signed = await signedListing(i, name, priceWei, { currency: o.currency, endTime: Math.max(endTime, Math.floor(Date.now() / 1000) - 30) });
  return db
    .insertInto('listings')
    .values({
      ens_name_id: ensNameId,
      seller_address: account(i).address.toLowerCase(),
      price_wei: priceWei.toString(),
      currency_address: (o.currency ?? ETH).toLowerCase(),
      order_hash: signed.hash,
      order_data: JSON.stringify(signed.orderData),
      status: (o.status ?? 'active') as 'active',
      source: o.source ?? 'grails',
      created_at: o.createdAt ?? new Date(),
      expires_at: expiresAt,
    })
    .returning(['id', 'order_hash'])
    .executeTakeFirstOrThrow()
    .then(async (row) => {
      await refreshListingSummary(db, ensNameId);
      return row;
    });
}

/** Inserts an offer row straight into the database (signed by demo account i) and recalculates the name's highest offer. */
export async function insertOffer(db: Executor, i: number, ensNameId: number, name: string, amountWei: bigint, o: StoredOrderOptions = {}) {
  const expiresAt = o.expiresAt === undefined ? new Date(Date.now() + 30 * 86_400_000) : o.expiresAt;
  const endTime = expiresAt === null ? Number.MAX_SAFE_INTEGER : Math.floor(expiresAt.getTime() / 1000);
  const signed = await signedOffer(i, name, amountWei, { currency: o.currency, endTime: Math.max(endTime, Math.floor(Date.now() / 1000) - 30) });
  return db
    .insertInto('offers')
    .values({
      ens_name_id: ensNameId,
      buyer_address: account(i).address.toLowerCase(),
      offer_amount_wei: amountWei.toString(),
      currency_address: (o.currency ?? WETH).toLowerCase(),
      order_hash: signed.hash,
      order_data: JSON.stringify(signed.orderData),
      status: (o.status ?? 'pending') as 'pending',
      source: o.source ?? 'grails',
      created_at: o.createdAt ?? new Date(),
      expires_at: expiresAt,
    })
    .returning(['id', 'order_hash'])
    .executeTakeFirstOrThrow()
    .then(async (row) => {
      await recalculateHighestOffer(db, ensNameId);
      return row;
    });
}
