import { decodeEventLog, toEventSelector, type Abi, type Hex } from 'viem';
import { baseRegistrarAbi, nameWrapperAbi, registrarControllerAbi, seaportAbi } from '../providers/rpc/abis.js';
import type { RawLog } from '../providers/rpc/chain-reader.js';

/** Where an event sits in the chain; (block, logIndex) orders events, (tx, logIndex) names one. */
export interface LogRef {
  block: number;
  logIndex: number;
  tx: string;
}

export interface SeaportItem {
  itemType: number;
  token: string;
  identifier: bigint;
  amount: bigint;
  /** consideration items only */
  recipient?: string;
}

/** The chain events the sync applies, decoded. */
export type ChainEvent = LogRef & (
  | { kind: 'registered'; label: string; labelhash: string; owner: string; cost: bigint; premium: bigint; expires: bigint; referrer: string | null }
  | { kind: 'renewed'; label: string; labelhash: string; cost: bigint; expires: bigint; referrer: string | null }
  | { kind: 'renewal-referred'; label: string; labelhash: string; cost: bigint; duration: bigint; referrer: string }
  | { kind: 'transfer'; tokenId: bigint; from: string; to: string }
  | { kind: 'wrapped-transfer'; ids: bigint[]; from: string; to: string }
  | { kind: 'fulfilled'; orderHash: string; offerer: string; recipient: string; offer: SeaportItem[]; consideration: SeaportItem[] }
  | { kind: 'cancelled'; orderHash: string; offerer: string }
  | { kind: 'counter'; offerer: string; newCounter: bigint }
);

export interface ContractSet {
  controllers: readonly string[];
  baseRegistrar: string;
  nameWrapper: string;
  seaport: string;
}

function selectors(abi: Abi): Hex[] {
  return abi.filter((item) => item.type === 'event').map((item) => toEventSelector(item));
}

/** topic0 of every event the sync reads, per contract kind. */
export const TOPICS = {
  controller: selectors(registrarControllerAbi),
  baseRegistrar: selectors(baseRegistrarAbi),
  nameWrapper: selectors(nameWrapperAbi),
  seaport: selectors(seaportAbi),
};

export const ALL_TOPICS: Hex[] = [...new Set([...TOPICS.controller, ...TOPICS.baseRegistrar, ...TOPICS.nameWrapper, ...TOPICS.seaport])];

const lower = (a: string) => a.toLowerCase();
const bytes32OrNull = (v: unknown): string | null => (typeof v === 'string' && !/^0x0{64}$/i.test(v) ? v.toLowerCase() : null);

/**
 * Decodes a log of one of our contracts; undefined for anything else (another event with the
 * same topic but a different layout, such as an ERC-20 Transfer, does not decode and is skipped).
 */
export function decodeLog(log: RawLog, contracts: ContractSet): ChainEvent | undefined {
  const ref: LogRef = { block: log.blockNumber, logIndex: log.logIndex, tx: log.transactionHash };
  const args = (abi: Abi) => {
    try {
      const decoded = decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
      return { eventName: String(decoded.eventName), args: decoded.args as unknown as Record<string, unknown> };
    } catch {
      return undefined;
    }
  };

  if (contracts.controllers.includes(log.address)) {
    const d = args(registrarControllerAbi);
    if (!d) return undefined;
    const a = d.args;
    // Older controllers call the string `name` and the hash `label`; newer ones `label` and `labelhash`.
    const [label, hash] = typeof a.name === 'string'
      ? [a.name, lower(a.label as string)]
      : [a.label as string, lower((a.labelhash ?? a.labelHash) as string)];
    if (d.eventName === 'NameRegistered') {
      // The legacy controller reports one cost; later ones split base cost and premium.
      const premium = a.premium !== undefined ? (a.premium as bigint) : 0n;
      const cost = a.cost !== undefined ? (a.cost as bigint) : (a.baseCost as bigint) + premium;
      return { ...ref, kind: 'registered', label, labelhash: hash, owner: lower(a.owner as string), cost, premium, expires: a.expires as bigint, referrer: bytes32OrNull(a.referrer) };
    }
    if (d.eventName === 'NameRenewed') {
      return { ...ref, kind: 'renewed', label, labelhash: hash, cost: a.cost as bigint, expires: a.expires as bigint, referrer: bytes32OrNull(a.referrer) };
    }
    if (d.eventName === 'RenewalReferred') {
      return { ...ref, kind: 'renewal-referred', label, labelhash: hash, cost: a.cost as bigint, duration: a.duration as bigint, referrer: lower(a.referrer as string) };
    }
    return undefined;
  }

  if (log.address === contracts.baseRegistrar) {
    const d = args(baseRegistrarAbi);
    if (d?.eventName !== 'Transfer') return undefined;
    return { ...ref, kind: 'transfer', tokenId: d.args.tokenId as bigint, from: lower(d.args.from as string), to: lower(d.args.to as string) };
  }

  if (log.address === contracts.nameWrapper) {
    const d = args(nameWrapperAbi);
    if (d?.eventName === 'TransferSingle') {
      return { ...ref, kind: 'wrapped-transfer', ids: [d.args.id as bigint], from: lower(d.args.from as string), to: lower(d.args.to as string) };
    }
    if (d?.eventName === 'TransferBatch') {
      return { ...ref, kind: 'wrapped-transfer', ids: [...(d.args.ids as readonly bigint[])], from: lower(d.args.from as string), to: lower(d.args.to as string) };
    }
    return undefined;
  }

  if (log.address === contracts.seaport) {
    const d = args(seaportAbi);
    if (!d) return undefined;
    const a = d.args;
    if (d.eventName === 'OrderFulfilled') {
      const item = (i: Record<string, unknown>): SeaportItem => ({
        itemType: Number(i.itemType),
        token: lower(i.token as string),
        identifier: i.identifier as bigint,
        amount: i.amount as bigint,
        ...(typeof i.recipient === 'string' ? { recipient: lower(i.recipient) } : {}),
      });
      return {
        ...ref,
        kind: 'fulfilled',
        orderHash: lower(a.orderHash as string),
        offerer: lower(a.offerer as string),
        recipient: lower(a.recipient as string),
        offer: (a.offer as Record<string, unknown>[]).map(item),
        consideration: (a.consideration as Record<string, unknown>[]).map(item),
      };
    }
    if (d.eventName === 'OrderCancelled') return { ...ref, kind: 'cancelled', orderHash: lower(a.orderHash as string), offerer: lower(a.offerer as string) };
    if (d.eventName === 'CounterIncremented') return { ...ref, kind: 'counter', offerer: lower(a.offerer as string), newCounter: a.newCounter as bigint };
  }
  return undefined;
}
