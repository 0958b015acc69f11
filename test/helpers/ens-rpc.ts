import { decodeFunctionData, encodeFunctionResult, erc20Abi, namehash, zeroAddress, type Hex } from 'viem';
import { ensRegistryAbi, ensResolverAbi } from '../../src/providers/rpc/abis.js';
import { MAINNET } from '../../src/config.js';
import { startJsonRpcServer, type RpcServer } from './json-rpc.js';

export const TEST_RESOLVER = '0x4976fb03c32e5b8cfe2b6ccb31c09ba78ebaba41';

export interface ChainState {
  /** reverse records: address → claimed name */
  reverse: Map<string, string>;
  /** forward ETH address records: name → address */
  forward: Map<string, string>;
  /** native balances, wei */
  eth: Map<string, bigint>;
  /** ERC-20 balances: `${token}:${owner}` → wei */
  tokens: Map<string, bigint>;
  /** addresses whose reads fail (a node error) */
  failing: Set<string>;
}

/**
 * A JSON-RPC node for ENS reads: the registry answers TEST_RESOLVER for every node with a record,
 * the resolver answers reverse names and ETH addresses from `state`, ERC-20 `balanceOf` and
 * `eth_getBalance` from the balance maps.
 */
export async function startEnsRpc(state: ChainState): Promise<RpcServer> {
  const nodes = () => {
    const byNode = new Map<string, { kind: 'reverse'; name: string } | { kind: 'forward'; address: string }>();
    for (const [addr, name] of state.reverse) byNode.set(namehash(`${addr.slice(2)}.addr.reverse`), { kind: 'reverse', name });
    for (const [name, addr] of state.forward) byNode.set(namehash(name), { kind: 'forward', address: addr });
    return byNode;
  };
  return startJsonRpcServer((method, params) => {
    if (method === 'eth_chainId') return '0x1';
    if (method === 'eth_getBalance') {
      const owner = String(params[0]).toLowerCase();
      if (state.failing.has(owner)) throw new Error('node failure');
      return `0x${(state.eth.get(owner) ?? 0n).toString(16)}`;
    }
    if (method !== 'eth_call') throw new Error(`unexpected ${method}`);
    const call = params[0] as { to: string; data: Hex };
    const to = call.to.toLowerCase();
    if (to === MAINNET.ensRegistry) {
      const { args } = decodeFunctionData({ abi: ensRegistryAbi, data: call.data });
      return encodeFunctionResult({ abi: ensRegistryAbi, functionName: 'resolver', result: nodes().has(args[0]) ? TEST_RESOLVER : zeroAddress });
    }
    if (to === TEST_RESOLVER) {
      const { functionName, args } = decodeFunctionData({ abi: ensResolverAbi, data: call.data });
      const record = nodes().get(args[0]);
      if (functionName === 'name') return encodeFunctionResult({ abi: ensResolverAbi, functionName, result: record?.kind === 'reverse' ? record.name : '' });
      return encodeFunctionResult({ abi: ensResolverAbi, functionName, result: (record?.kind === 'forward' ? record.address : zeroAddress) as Hex });
    }
    const { args } = decodeFunctionData({ abi: erc20Abi, data: call.data });
    const owner = String(args[0]).toLowerCase();
    if (state.failing.has(owner)) throw new Error('node failure');
    return encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: state.tokens.get(`${to}:${owner}`) ?? 0n });
  });
}
