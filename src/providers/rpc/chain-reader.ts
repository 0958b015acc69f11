import { numberToHex, type Hex, type PublicClient } from 'viem';

/** A log as eth_getLogs returns it, with the numbers parsed. */
export interface RawLog {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: number;
  transactionHash: string;
  logIndex: number;
}

interface RpcLog {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex | null;
  transactionHash: Hex | null;
  logIndex: Hex | null;
  removed?: boolean;
}

/**
 * The JSON-RPC calls of the event sync, raw (no block or transaction formatting, so any
 * Ethereum-compatible endpoint works). Retries and timeouts come from the viem transport.
 */
export class ChainReader {
  constructor(private readonly client: PublicClient, private readonly concurrency = 8) {}

  async head(): Promise<number> {
    const hex = await this.client.request({ method: 'eth_blockNumber' });
    return Number(BigInt(hex));
  }

  /** Logs of `addresses` with one of `topic0s` in [from, to], in chain order. */
  async logs(from: number, to: number, addresses: readonly string[], topic0s: readonly Hex[]): Promise<RawLog[]> {
    if (addresses.length === 0) return [];
    const raw = (await this.client.request({
      method: 'eth_getLogs',
      params: [{ fromBlock: numberToHex(from), toBlock: numberToHex(to), address: addresses as Hex[], topics: [topic0s as Hex[]] }],
    })) as unknown as RpcLog[];
    if (!Array.isArray(raw)) throw new Error('eth_getLogs answered without a list');
    const logs: RawLog[] = [];
    for (const l of raw) {
      // Pending or reorged-out logs carry no position or `removed: true`; neither is final.
      if (l.removed || l.blockNumber === null || l.logIndex === null || l.transactionHash === null) continue;
      logs.push({
        address: l.address.toLowerCase(),
        topics: l.topics,
        data: l.data,
        blockNumber: Number(BigInt(l.blockNumber)),
        transactionHash: l.transactionHash.toLowerCase(),
        logIndex: Number(BigInt(l.logIndex)),
      });
    }
    return logs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  }

  /** Timestamps of the given blocks (eth_getBlockByNumber without transactions). */
  async blockTimes(blocks: Iterable<number>): Promise<Map<number, Date>> {
    const out = new Map<number, Date>();
    await this.each([...new Set(blocks)], async (n) => {
      const block = (await this.client.request({ method: 'eth_getBlockByNumber', params: [numberToHex(n), false] })) as { timestamp?: Hex } | null;
      if (!block?.timestamp) throw new Error(`block ${n} not found`);
      out.set(n, new Date(Number(BigInt(block.timestamp)) * 1000));
    });
    return out;
  }

  /** Senders of the given transactions (eth_getTransactionByHash). */
  async txSenders(hashes: Iterable<string>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    await this.each([...new Set(hashes)], async (hash) => {
      const tx = (await this.client.request({ method: 'eth_getTransactionByHash', params: [hash as Hex] })) as { from?: string } | null;
      if (!tx?.from) throw new Error(`transaction ${hash} not found`);
      out.set(hash, tx.from.toLowerCase());
    });
    return out;
  }

  private async each<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < items.length) await fn(items[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, items.length) }, worker));
  }
}
