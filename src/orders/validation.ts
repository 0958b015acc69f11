import { compactSignatureToSignature, getContractAddress, parseCompactSignature, recoverTypedDataAddress, serializeSignature, verifyTypedData, type Hex } from 'viem';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/client.js';
import { AppError } from '../errors.js';
import { ZERO_ADDRESS } from '../lib/address.js';
import { ItemType, orderDigest, orderHash, orderTypedData, SEAPORT_TYPES, ZERO_BYTES32, type ConsiderationItem, type OfferItem, type OrderComponents } from '../lib/seaport.js';

/**
 * Reading and checking signed Seaport 1.6 orders (seaport-js form: `{parameters, signature}`).
 * Pure checks of the order's shape and terms live here; the services add the database checks
 * (the name exists, the seller owns it, the order is new).
 */

/** The order as the client sent it (schema-validated): numbers as decimal or 0x strings. */
export interface SignedOrderInput {
  parameters: OrderComponents;
  signature: string;
}

export interface ParsedOrder {
  /** Addresses lower-case, numbers as decimal strings: hashes to the same value as the input. */
  components: OrderComponents;
  signature: Hex;
  /** Computed here, never taken from the client. */
  hash: Hex;
  /** What is stored in `order_data`. */
  orderData: { parameters: OrderComponents; signature: Hex };
}

export interface NameToken {
  /** true: NameWrapper ERC-1155 (token id = namehash); false: base registrar ERC-721 (labelhash). */
  wrapped: boolean;
  tokenId: bigint;
}

export interface ListingTerms {
  seller: string;
  token: NameToken;
  /** What the buyer pays in all: the sum of the consideration. */
  priceWei: bigint;
  currency: string;
  expiresAt: Date | null;
  /** The fee item paid to someone other than the seller (the largest one); `feeWei` is its amount. */
  broker: { address: string; feeBps: number; feeWei: bigint } | null;
}

export interface OfferTerms {
  buyer: string;
  token: NameToken;
  /** The ERC-20 amount offered (fees are paid out of it). */
  amountWei: bigint;
  currency: string;
  expiresAt: Date | null;
}

/** End times beyond this (year 9999) mean "no end": stored as a null `expires_at`. */
const MAX_END_TIME = 253_402_300_799n;
const MAX_UINT256 = (1n << 256n) - 1n;
const CONDUIT_CONTROLLER = '0x00000000F9490004C11Cef243f5400493c00Ad63';
const CONDUIT_CODE_HASH = '0x023d904f2503c37127200ca07b976c3a53cc562623f67023115bf311f5805059';

/** Refuses the order: `reason` is a stable word, `field` the part at fault, `extra` what was expected and what came. */
function invalid(reason: string, message: string, field?: string, extra: { expected?: unknown; got?: unknown } = {}): never {
  throw new AppError('INVALID_ORDER', message, { reason, ...(field ? { field } : {}), ...extra });
}

function uint(value: string, field: string): bigint {
  let n: bigint;
  try {
    n = BigInt(value);
  } catch {
    invalid('malformed', `${field} is not a number`, field);
  }
  if (n < 0n || n > MAX_UINT256) invalid('malformed', `${field} is out of range`, field);
  return n;
}

/** Normalises the order, computes its hash (Seaport's getOrderHash) and checks its basic shape. */
export function parseSignedOrder(input: SignedOrderInput): ParsedOrder {
  const p = input.parameters;
  const at = (i: number, list: string, key: string) => `body.orderData.parameters.${list}.${i}.${key}`;
  const item = (it: SignedOrderInput['parameters']['offer'][number], i: number, list: string): OfferItem => {
    const start = uint(it.startAmount, at(i, list, 'startAmount'));
    const end = uint(it.endAmount, at(i, list, 'endAmount'));
    if (start !== end) invalid('varying_amount', 'Items whose amount changes over time are not supported', at(i, list, 'endAmount'));
    return {
      itemType: it.itemType,
      token: it.token.toLowerCase(),
      identifierOrCriteria: uint(it.identifierOrCriteria, at(i, list, 'identifierOrCriteria')).toString(),
      startAmount: start.toString(),
      endAmount: end.toString(),
    };
  };
  const components: OrderComponents = {
    offerer: p.offerer.toLowerCase(),
    zone: p.zone.toLowerCase(),
    offer: p.offer.map((it, i) => item(it, i, 'offer')),
    consideration: p.consideration.map((it, i): ConsiderationItem => ({ ...item(it, i, 'consideration'), recipient: it.recipient.toLowerCase() })),
    orderType: p.orderType,
    startTime: uint(p.startTime, 'body.orderData.parameters.startTime').toString(),
    endTime: uint(p.endTime, 'body.orderData.parameters.endTime').toString(),
    zoneHash: p.zoneHash.toLowerCase(),
    salt: uint(p.salt, 'body.orderData.parameters.salt').toString(),
    conduitKey: p.conduitKey.toLowerCase(),
    counter: uint(p.counter, 'body.orderData.parameters.counter').toString(),
  };
  if (components.orderType > 3) invalid('order_type', 'Contract orders are not supported', 'body.orderData.parameters.orderType');
  if (BigInt(components.startTime) >= BigInt(components.endTime)) invalid('times', 'startTime must be before endTime', 'body.orderData.parameters.endTime');
  const signature = input.signature.toLowerCase() as Hex;
  const hash = orderHash(components);
  return { components, signature, hash, orderData: { parameters: components, signature } };
}

function expiry(order: OrderComponents, now: Date): Date | null {
  const end = BigInt(order.endTime);
  if (end <= BigInt(Math.floor(now.getTime() / 1000))) invalid('expired', 'The order has already ended', 'body.orderData.parameters.endTime');
  return end > MAX_END_TIME ? null : new Date(Number(end) * 1000);
}

/** The two ways a name trades, as an error's `expected`. */
function nameTokens(config: Pick<Config, 'baseRegistrarAddress' | 'nameWrapperAddress'>) {
  return [
    { itemType: ItemType.ERC721, token: config.baseRegistrarAddress, identifierOrCriteria: 'uint256(labelhash(label))', amount: '1' },
    { itemType: ItemType.ERC1155, token: config.nameWrapperAddress, identifierOrCriteria: 'uint256(namehash(name))', amount: '1' },
  ];
}

/** The ENS name token an item refers to, or undefined when it is not one. */
export function nameTokenOf(item: OfferItem, config: Pick<Config, 'baseRegistrarAddress' | 'nameWrapperAddress'>): NameToken | undefined {
  if (item.itemType === ItemType.ERC721 && item.token === config.baseRegistrarAddress) return { wrapped: false, tokenId: BigInt(item.identifierOrCriteria) };
  if (item.itemType === ItemType.ERC1155 && item.token === config.nameWrapperAddress) return { wrapped: true, tokenId: BigInt(item.identifierOrCriteria) };
  return undefined;
}

function isCurrency(item: OfferItem): boolean {
  return (item.itemType === ItemType.NATIVE && item.token === ZERO_ADDRESS) || item.itemType === ItemType.ERC20;
}

function acceptCurrency(currency: string, config: Pick<Config, 'acceptedCurrencies'>, allowEth: boolean, field: string): void {
  const ok = (allowEth && currency === ZERO_ADDRESS) || config.acceptedCurrencies.includes(currency as `0x${string}`);
  if (!ok) {
    throw new AppError('UNSUPPORTED_CURRENCY', `Currency ${currency} is not accepted here`, { field, accepted: [...(allowEth ? [ZERO_ADDRESS] : []), ...config.acceptedCurrencies] });
  }
}

/**
 * A listing: the offerer gives exactly one name token (ERC-721 of the base registrar or ERC-1155
 * of the NameWrapper, amount 1) and asks for payment in one currency (ETH or an accepted ERC-20).
 * The price is the sum of the consideration; an item paid to someone other than the seller is the
 * broker's fee (the largest one when there are several).
 */
export function listingTerms(order: ParsedOrder, config: Config, now = new Date()): ListingTerms {
  const c = order.components;
  if (c.offer.length !== 1) invalid('offer_items', 'A listing offers exactly one name token', 'body.orderData.parameters.offer');
  const token = nameTokenOf(c.offer[0], config);
  if (!token || c.offer[0].startAmount !== '1') {
    invalid('not_a_name', 'A listing offers one ENS name token (base registrar ERC-721 or NameWrapper ERC-1155)', 'body.orderData.parameters.offer.0', { expected: nameTokens(config), got: c.offer[0] });
  }
  const first = c.consideration[0];
  if (!c.consideration.every((it) => isCurrency(it) && it.itemType === first.itemType && it.token === first.token)) {
    invalid('consideration_items', 'A listing asks for payment in one currency only', 'body.orderData.parameters.consideration');
  }
  acceptCurrency(first.token, config, true, 'body.orderData.parameters.consideration.0.token');
  const priceWei = c.consideration.reduce((sum, it) => sum + BigInt(it.startAmount), 0n);
  if (priceWei === 0n) invalid('zero_price', 'The price must be more than zero', 'body.orderData.parameters.consideration');
  if (!c.consideration.some((it) => it.recipient === c.offerer)) invalid('no_seller_payment', 'No consideration item pays the seller', 'body.orderData.parameters.consideration');
  const fees = c.consideration.filter((it) => it.recipient !== c.offerer).sort((a, b) => (BigInt(b.startAmount) > BigInt(a.startAmount) ? 1 : -1));
  const broker = fees.length === 0 ? null : { address: fees[0].recipient, feeBps: Number((BigInt(fees[0].startAmount) * 10_000n + priceWei / 2n) / priceWei), feeWei: BigInt(fees[0].startAmount) };
  return { seller: c.offerer, token, priceWei, currency: first.token, expiresAt: expiry(c, now), broker };
}

/**
 * An offer: the offerer gives one accepted ERC-20 amount and asks for one name token sent to
 * itself; further consideration items in the same currency are fees paid out of the amount.
 */
export function offerTerms(order: ParsedOrder, config: Config, now = new Date()): OfferTerms {
  const c = order.components;
  if (c.offer.length !== 1) invalid('offer_items', 'An offer gives exactly one currency amount', 'body.orderData.parameters.offer');
  const pay = c.offer[0];
  if (pay.itemType === ItemType.NATIVE || (pay.itemType === ItemType.ERC20 && pay.token === ZERO_ADDRESS)) {
    acceptCurrency(ZERO_ADDRESS, config, false, 'body.orderData.parameters.offer.0.token');
  }
  if (pay.itemType !== ItemType.ERC20) invalid('not_currency', 'An offer gives an ERC-20 amount (WETH by default)', 'body.orderData.parameters.offer.0');
  acceptCurrency(pay.token, config, false, 'body.orderData.parameters.offer.0.token');
  const amountWei = BigInt(pay.startAmount);
  if (amountWei === 0n) invalid('zero_amount', 'The amount must be more than zero', 'body.orderData.parameters.offer.0.startAmount');
  const names = c.consideration.filter((it) => nameTokenOf(it, config) !== undefined);
  if (names.length !== 1) invalid('not_a_name', 'An offer asks for exactly one ENS name token', 'body.orderData.parameters.consideration', { expected: nameTokens(config) });
  const wanted = names[0];
  if (wanted.recipient !== c.offerer || wanted.startAmount !== '1') invalid('name_recipient', 'The name token must go to the offerer, amount 1', 'body.orderData.parameters.consideration');
  const fees = c.consideration.filter((it) => it !== wanted);
  if (!fees.every((it) => it.itemType === ItemType.ERC20 && it.token === pay.token)) invalid('consideration_items', 'Fees must be paid in the offered currency', 'body.orderData.parameters.consideration');
  if (fees.reduce((sum, it) => sum + BigInt(it.startAmount), 0n) >= amountWei) invalid('fees', 'Fees take the whole amount', 'body.orderData.parameters.consideration');
  return { buyer: c.offerer, token: nameTokenOf(wanted, config)!, amountWei, currency: pay.token, expiresAt: expiry(c, now) };
}

/**
 * The EIP-712 signature of the order by its offerer: an EOA signature (65 bytes, or 64-byte
 * EIP-2098), else, when an RPC is configured, the offerer's EIP-1271 `isValidSignature`.
 * A refusal says what the service expected (signer, domain, hashes) and, when the signature is
 * the offerer's under another domain, which part of the domain disagreed.
 */
export async function verifyOrderSignature(deps: Pick<Deps, 'config' | 'rpc' | 'logger'>, order: ParsedOrder): Promise<void> {
  const typed = orderTypedData(order.components, { chainId: deps.config.chainId, seaportAddress: deps.config.seaportAddress });
  const address = order.components.offerer as Hex;
  const signature = expandedSignature(order.signature);
  let valid = false;
  try {
    valid = await verifyTypedData({ address, signature, ...typed });
  } catch {
    valid = false;
  }
  if (!valid && deps.rpc) {
    try {
      valid = await deps.rpc.verifyTypedData({ address, signature: order.signature, ...typed });
    } catch (err) {
      deps.logger.warn({ err }, 'EIP-1271 order signature check failed');
      valid = false;
    }
  }
  if (!valid) await refuseSignature(deps.config, order, signature);
}

/** A 64-byte EIP-2098 signature as the 65-byte form; any other input unchanged. */
function expandedSignature(signature: Hex): Hex {
  if (signature.length !== 2 + 128) return signature;
  try {
    return serializeSignature(compactSignatureToSignature(parseCompactSignature(signature)));
  } catch {
    return signature; // verification fails on it
  }
}

/** Seaport 1.5, the version before the one this service takes: a common source of wrong signatures. */
const SEAPORT_1_5 = '0x00000000000000adc04c56bf30ac9d3c0aaf14dc';
/** Chains a wallet may have been on when it signed: mainnet, its test networks, two L2s (few: each try is an ecrecover). */
const OTHER_CHAINS = [1, 11155111, 17000, 10, 8453];

async function signerOf(signature: Hex, domain: { name: string; version: string; chainId: number; verifyingContract: Hex }, order: OrderComponents): Promise<string | null> {
  try {
    const { message } = orderTypedData(order, { chainId: domain.chainId, seaportAddress: domain.verifyingContract });
    return (await recoverTypedDataAddress({ domain, types: SEAPORT_TYPES, primaryType: 'OrderComponents', message, signature })).toLowerCase();
  } catch {
    return null;
  }
}

async function refuseSignature(config: Pick<Config, 'chainId' | 'seaportAddress'>, order: ParsedOrder, signature: Hex): Promise<never> {
  const c = order.components;
  const domain = orderTypedData(c, config).domain;
  const expected = {
    signer: c.offerer,
    domain: { ...domain, verifyingContract: domain.verifyingContract.toLowerCase() },
    primaryType: 'OrderComponents',
    orderHash: order.hash,
    digest: orderDigest(c, config),
  };
  const recovered = await signerOf(signature, domain, c);
  const details: Record<string, unknown> = { field: 'body.orderData.signature', expected, recoveredSigner: recovered };
  let why = recovered === null
    ? 'the signature cannot be read'
    : `it recovers to ${recovered} for this order as the service hashes it (the order changed after signing, or another key signed it)`;
  details.disagrees = 'signer';
  if (recovered !== c.offerer) {
    const seaports: [string, Hex][] = [[domain.version, domain.verifyingContract], ['1.5', SEAPORT_1_5]];
    search: for (const chainId of [config.chainId, ...OTHER_CHAINS.filter((id) => id !== config.chainId)]) {
      for (const [version, verifyingContract] of seaports) {
        if (chainId === config.chainId && version === domain.version) continue;
        if ((await signerOf(signature, { name: 'Seaport', version, chainId, verifyingContract }, c)) !== c.offerer) continue;
        const disagree = chainId !== config.chainId ? 'domain.chainId' : 'domain.version';
        details.disagrees = disagree;
        details.signedFor = { name: 'Seaport', version, chainId, verifyingContract: verifyingContract.toLowerCase() };
        why = disagree === 'domain.chainId'
          ? `it was signed for chain ${chainId}; this service takes chain ${config.chainId}`
          : `it was signed for Seaport ${version} (${verifyingContract.toLowerCase()}); this service takes Seaport ${domain.version} (${expected.domain.verifyingContract})`;
        break search;
      }
    }
  }
  throw new AppError('INVALID_SIGNATURE', `The signature is not the offerer's signature of this order: ${why}`, details);
}

/** The address Seaport pulls tokens through: Seaport itself for a zero conduit key, else the conduit. */
export function spenderOf(conduitKey: string, seaportAddress: string): string {
  if (conduitKey.toLowerCase() === ZERO_BYTES32) return seaportAddress.toLowerCase();
  return getContractAddress({ opcode: 'CREATE2', from: CONDUIT_CONTROLLER, salt: conduitKey as Hex, bytecodeHash: CONDUIT_CODE_HASH }).toLowerCase();
}

export interface NameForOrder {
  id: number;
  name: string;
  wrapped: boolean;
  owner_address: string | null;
  expiry_date: Date | null;
}

/** The name an order's token refers to: by token id (ERC-721) or namehash (ERC-1155). */
export async function findNameByToken(db: Executor, token: NameToken): Promise<NameForOrder | undefined> {
  const q = db.selectFrom('ens_names').select(['id', 'name', 'wrapped', 'owner_address', 'expiry_date']);
  return token.wrapped
    ? q.where('namehash', '=', `0x${token.tokenId.toString(16).padStart(64, '0')}`).executeTakeFirst()
    : q.where('token_id', '=', token.tokenId.toString()).executeTakeFirst();
}

/** The item's token must match how the name is held (wrapped names trade as NameWrapper tokens). */
export function checkTokenKind(name: NameForOrder, token: NameToken): void {
  if (name.wrapped !== token.wrapped) {
    invalid(
      'token_kind',
      name.wrapped ? `${name.name} is wrapped: the order must use the NameWrapper ERC-1155 token` : `${name.name} is not wrapped: the order must use the base registrar ERC-721 token`,
      undefined,
      { expected: name.wrapped ? 'NameWrapper ERC-1155 (token id = namehash)' : 'base registrar ERC-721 (token id = labelhash)', got: token.wrapped ? 'NameWrapper ERC-1155' : 'base registrar ERC-721' },
    );
  }
}

/** Optional flat fields a client may send beside the order; each must agree with the signed order. */
export function checkClaims(claims: Record<string, string | number | null | undefined>, actual: Record<string, string | number | Date | null>): void {
  for (const [key, claimed] of Object.entries(claims)) {
    if (claimed === undefined) continue;
    const value = actual[key];
    let same: boolean;
    if (value instanceof Date || (value === null && (key === 'expiresAt' || key === 'expires_at'))) {
      const claimedMs = claimed === null ? null : Date.parse(String(claimed));
      same = value === null ? claimedMs === null : claimedMs !== null && Math.abs(claimedMs - value.getTime()) < 1000;
    } else if (typeof value === 'string' && typeof claimed === 'string') {
      same = value.toLowerCase() === claimed.toLowerCase();
    } else {
      same = value === claimed;
    }
    if (!same) {
      const signed = value instanceof Date ? value.toISOString() : value;
      invalid('claim_mismatch', `${key} does not match the signed order (the order says ${String(signed)})`, `body.${key}`, { expected: signed, got: claimed });
    }
  }
}
