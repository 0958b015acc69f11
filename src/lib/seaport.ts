import { hashStruct, hashTypedData, type Hex } from 'viem';

/**
 * Seaport 1.6 order shapes and hashing (EIP-712). The order hash is the struct hash of the
 * order components, as Seaport's `getOrderHash` computes it; the wallet signs `hashTypedData`.
 */
export const ItemType = {
  NATIVE: 0,
  ERC20: 1,
  ERC721: 2,
  ERC1155: 3,
  ERC721_WITH_CRITERIA: 4,
  ERC1155_WITH_CRITERIA: 5,
} as const;

export const SEAPORT_TYPES = {
  OrderComponents: [
    { name: 'offerer', type: 'address' },
    { name: 'zone', type: 'address' },
    { name: 'offer', type: 'OfferItem[]' },
    { name: 'consideration', type: 'ConsiderationItem[]' },
    { name: 'orderType', type: 'uint8' },
    { name: 'startTime', type: 'uint256' },
    { name: 'endTime', type: 'uint256' },
    { name: 'zoneHash', type: 'bytes32' },
    { name: 'salt', type: 'uint256' },
    { name: 'conduitKey', type: 'bytes32' },
    { name: 'counter', type: 'uint256' },
  ],
  OfferItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
  ],
  ConsiderationItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
  ],
} as const;

/** Numbers travel as decimal strings (seaport-js form); hex strings for bytes32/addresses. */
export interface OfferItem {
  itemType: number;
  token: string;
  identifierOrCriteria: string;
  startAmount: string;
  endAmount: string;
}

export interface ConsiderationItem extends OfferItem {
  recipient: string;
}

export interface OrderComponents {
  offerer: string;
  zone: string;
  offer: OfferItem[];
  consideration: ConsiderationItem[];
  orderType: number;
  startTime: string;
  endTime: string;
  zoneHash: string;
  salt: string;
  conduitKey: string;
  counter: string;
}

export interface SeaportDomainConfig {
  chainId: number;
  seaportAddress: string;
}

export function seaportDomain(config: SeaportDomainConfig) {
  return { name: 'Seaport', version: '1.6', chainId: config.chainId, verifyingContract: config.seaportAddress as Hex } as const;
}

function toMessage(order: OrderComponents) {
  const item = (i: OfferItem) => ({
    itemType: i.itemType,
    token: i.token as Hex,
    identifierOrCriteria: BigInt(i.identifierOrCriteria),
    startAmount: BigInt(i.startAmount),
    endAmount: BigInt(i.endAmount),
  });
  return {
    offerer: order.offerer as Hex,
    zone: order.zone as Hex,
    offer: order.offer.map(item),
    consideration: order.consideration.map((c) => ({ ...item(c), recipient: c.recipient as Hex })),
    orderType: order.orderType,
    startTime: BigInt(order.startTime),
    endTime: BigInt(order.endTime),
    zoneHash: order.zoneHash as Hex,
    salt: BigInt(order.salt),
    conduitKey: order.conduitKey as Hex,
    counter: BigInt(order.counter),
  };
}

/** Seaport's order hash (lower-case hex); throws on malformed components. */
export function orderHash(order: OrderComponents): Hex {
  return hashStruct({ data: toMessage(order), primaryType: 'OrderComponents', types: SEAPORT_TYPES });
}

/** The EIP-712 digest the offerer signs. */
export function orderDigest(order: OrderComponents, config: SeaportDomainConfig): Hex {
  return hashTypedData({ domain: seaportDomain(config), types: SEAPORT_TYPES, primaryType: 'OrderComponents', message: toMessage(order) });
}

/** The typed-data payload for a wallet's signTypedData (tests, seed and scripts sign with it). */
export function orderTypedData(order: OrderComponents, config: SeaportDomainConfig) {
  return { domain: seaportDomain(config), types: SEAPORT_TYPES, primaryType: 'OrderComponents' as const, message: toMessage(order) };
}

export const ZERO_BYTES32 = `0x${'0'.repeat(64)}` as const;
const ZERO = '0x0000000000000000000000000000000000000000';

export interface NameToken {
  /** true: NameWrapper ERC-1155 (token id = uint256(namehash)); false: base registrar ERC-721 (uint256(labelhash)). */
  wrapped: boolean;
  tokenId: string;
}

export interface OrderTimes {
  startTime: number;
  endTime: number;
  salt: string;
  counter?: string;
}

export interface Contracts {
  baseRegistrarAddress: string;
  nameWrapperAddress: string;
}

export interface Fee {
  recipient: string;
  bps: number;
}

function nameItem(token: NameToken, contracts: Contracts): OfferItem {
  return {
    itemType: token.wrapped ? ItemType.ERC1155 : ItemType.ERC721,
    token: token.wrapped ? contracts.nameWrapperAddress : contracts.baseRegistrarAddress,
    identifierOrCriteria: token.tokenId,
    startAmount: '1',
    endAmount: '1',
  };
}

function payment(currency: string, amount: bigint, recipient: string): ConsiderationItem {
  return {
    itemType: currency.toLowerCase() === ZERO ? ItemType.NATIVE : ItemType.ERC20,
    token: currency,
    identifierOrCriteria: '0',
    startAmount: amount.toString(),
    endAmount: amount.toString(),
    recipient,
  };
}

function base(offerer: string, times: OrderTimes) {
  return {
    offerer,
    zone: ZERO,
    orderType: 0,
    startTime: String(times.startTime),
    endTime: String(times.endTime),
    zoneHash: ZERO_BYTES32,
    salt: times.salt,
    conduitKey: ZERO_BYTES32,
    counter: times.counter ?? '0',
  };
}

/**
 * A listing: the seller offers the name token and asks `priceWei` in `currency` (the zero address
 * for ETH). With a fee, the fee recipient gets `bps` of the price and the seller the rest; the
 * buyer pays `priceWei` in all.
 */
export function buildListingOrder(p: { seller: string; token: NameToken; priceWei: bigint; currency: string; fee?: Fee; contracts: Contracts } & OrderTimes): OrderComponents {
  const feeAmount = p.fee ? (p.priceWei * BigInt(p.fee.bps)) / 10_000n : 0n;
  const consideration = [payment(p.currency, p.priceWei - feeAmount, p.seller)];
  if (p.fee && feeAmount > 0n) consideration.push(payment(p.currency, feeAmount, p.fee.recipient));
  return { ...base(p.seller, p), offer: [nameItem(p.token, p.contracts)], consideration };
}

/**
 * An offer: the buyer offers `amountWei` of an ERC-20 (WETH by default) and asks for the name
 * token; a fee, when present, is paid out of the offered amount.
 */
export function buildOfferOrder(p: { buyer: string; token: NameToken; amountWei: bigint; currency: string; fee?: Fee; contracts: Contracts } & OrderTimes): OrderComponents {
  const feeAmount = p.fee ? (p.amountWei * BigInt(p.fee.bps)) / 10_000n : 0n;
  const consideration: ConsiderationItem[] = [{ ...nameItem(p.token, p.contracts), recipient: p.buyer }];
  if (p.fee && feeAmount > 0n) consideration.push(payment(p.currency, feeAmount, p.fee.recipient));
  const offer: OfferItem[] = [{ itemType: ItemType.ERC20, token: p.currency, identifierOrCriteria: '0', startAmount: p.amountWei.toString(), endAmount: p.amountWei.toString() }];
  return { ...base(p.buyer, p), offer, consideration };
}
