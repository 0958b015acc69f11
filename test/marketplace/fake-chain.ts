import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seaportReadAbi } from '../../src/providers/rpc/abis.js';
import { decodeFunctionData, encodeFunctionResult, erc1155Abi, erc20Abi, erc721Abi, toFunctionSelector, type AbiFunction, type Hex } from 'viem';

/**
 * A tiny Ethereum JSON-RPC server for tests, on 127.0.0.1: eth_chainId, eth_blockNumber and
 * eth_call answered from in-memory token state (ERC-20 balances and allowances, ERC-721 owners and
 * approvals, ERC-1155 balances, Seaport counters), ABI-encoded with viem. Calls nobody set up revert. A call without
 * `to` is viem's deployless signature check (EIP-1271/6492): `acceptContractSignatures` answers it.
 */
export class FakeChain {
  /** `${token}:${owner}` → balance (ERC-20) */
  readonly balances = new Map<string, bigint>();
  /** `${token}:${owner}:${spender}` → allowance */
  readonly allowances = new Map<string, bigint>();
  /** `${token}:${tokenId}` → owner (ERC-721) */
  readonly owners = new Map<string, string>();
  /** `${token}:${owner}:${operator}` → approved for all */
  readonly operators = new Map<string, boolean>();
  /** `${token}:${owner}:${id}` → ERC-1155 balance */
  readonly balances1155 = new Map<string, bigint>();
  /** offerer → Seaport counter (getCounter; 0 when unset, as on chain) */
  readonly counters = new Map<string, bigint>();
  /** What a contract wallet answers to a signature check (a deployless eth_call without `to`). */
  acceptContractSignatures = true;
  calls = 0;
  private server?: Server;
  url = '';

  private readonly bySelector = new Map<string, AbiFunction>();

  constructor(readonly chainId = 1) {
    const items = ([...erc20Abi, ...erc721Abi, ...erc1155Abi, ...seaportReadAbi] as readonly { type: string }[]).filter((i) => i.type === 'function') as AbiFunction[];
    for (const item of items) {
      const selector = toFunctionSelector(item);
      if (!this.bySelector.has(selector)) this.bySelector.set(selector, item);
    }
  }

  private answer(to: string, data: Hex): { result?: Hex; revert?: true } {
    const item = this.bySelector.get(data.slice(0, 10));
    if (!item) return { revert: true };
    const { args = [] } = decodeFunctionData({ abi: [item], data });
    const a = args.map((x) => (typeof x === 'string' ? x.toLowerCase() : x)) as unknown[];
    const key = (...parts: unknown[]) => [to, ...parts].join(':');
    const encode = (result: unknown) => ({ result: encodeFunctionResult({ abi: [item], functionName: item.name, result } as never) });
    switch (`${item.name}/${item.inputs.length}`) {
      case 'balanceOf/1': return encode(this.balances.get(key(a[0])) ?? 0n);
      case 'allowance/2': return encode(this.allowances.get(key(a[0], a[1])) ?? 0n);
      case 'ownerOf/1': {
        const owner = this.owners.get(key(a[0]));
        return owner ? encode(owner) : { revert: true };
      }
      case 'isApprovedForAll/2': return encode(this.operators.get(key(a[0], a[1])) ?? false);
      case 'getApproved/1': return encode('0x0000000000000000000000000000000000000000');
      case 'getCounter/1': return encode(this.counters.get(String(a[0])) ?? 0n);
      case 'balanceOf/2': return encode(this.balances1155.get(key(a[0], a[1])) ?? 0n);
      default: return { revert: true };
    }
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => { raw += c; });
      req.on('end', () => {
        const one = (m: { id: number; method: string; params: unknown[] }) => {
          this.calls++;
          if (m.method === 'eth_chainId') return { jsonrpc: '2.0', id: m.id, result: `0x${this.chainId.toString(16)}` };
          if (m.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: m.id, result: '0x10' };
          if (m.method === 'eth_call') {
            const call = m.params[0] as { to?: string; data: Hex };
            if (!call.to) return { jsonrpc: '2.0', id: m.id, result: `0x${'0'.repeat(63)}${this.acceptContractSignatures ? 1 : 0}` };
            const out = this.answer(call.to.toLowerCase(), call.data);
            return out.revert ? { jsonrpc: '2.0', id: m.id, error: { code: 3, message: 'execution reverted', data: '0x' } } : { jsonrpc: '2.0', id: m.id, result: out.result };
          }
          return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } };
        };
        const parsed = JSON.parse(raw);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed)));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
