import { erc20Abi, namehash, zeroAddress, type Hex, type PublicClient } from 'viem';
import { normalizeName } from '../../lib/ens.js';
import { ensRegistryAbi, ensResolverAbi } from './abis.js';

/**
 * The primary name of an address as ENS defines it (ENSIP-3/ENSIP-19 on mainnet): the `name` of
 * its reverse node `<address>.addr.reverse`, accepted only when the name's own resolver points
 * back to the address (forward check; anyone can claim any name in their reverse record), and
 * only when it is already ENSIP-15 normalized. Undefined: no (valid) primary name. Throws when the RPC fails.
 */
export async function readPrimaryName(client: PublicClient, registry: Hex, address: Hex): Promise<string | undefined> {
  const reverseNode = namehash(`${address.slice(2).toLowerCase()}.addr.reverse`);
  const reverseResolver = await client.readContract({ address: registry, abi: ensRegistryAbi, functionName: 'resolver', args: [reverseNode] });
  if (reverseResolver === zeroAddress) return undefined;
  const claimed = await client.readContract({ address: reverseResolver, abi: ensResolverAbi, functionName: 'name', args: [reverseNode] });
  if (!claimed) return undefined;
  let name: string;
  try {
    name = normalizeName(claimed);
  } catch {
    return undefined;
  }
  if (name !== claimed) return undefined;
  const node = namehash(name);
  const forwardResolver = await client.readContract({ address: registry, abi: ensRegistryAbi, functionName: 'resolver', args: [node] });
  if (forwardResolver === zeroAddress) return undefined;
  const resolved = await client.readContract({ address: forwardResolver, abi: ensResolverAbi, functionName: 'addr', args: [node] });
  return resolved.toLowerCase() === address.toLowerCase() ? name : undefined;
}

/** Native balance and ERC-20 `balanceOf` of each token, in wei, read at the latest block. */
export async function readBalances(client: PublicClient, owner: Hex, tokens: readonly Hex[]): Promise<{ native: bigint; tokens: bigint[] }> {
  const [native, ...balances] = await Promise.all([
    client.getBalance({ address: owner }),
    ...tokens.map((token) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })),
  ]);
  return { native, tokens: balances };
}
