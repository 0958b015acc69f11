import { createPublicClient, http, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import type { Config } from '../../config.js';

/** A viem client on ETH_RPC_URL, or undefined when no RPC is configured. */
export function createRpcClient(config: Config): PublicClient | undefined {
  if (!config.ethRpcUrl) return undefined;
  return createPublicClient({
    chain: { ...mainnet, id: config.chainId },
    transport: http(config.ethRpcUrl, { timeout: 10_000, retryCount: 2 }),
  }) as PublicClient;
}
