import type { Deps } from '../deps.js';
import { ChainReader } from '../providers/rpc/chain-reader.js';
import { SubgraphClient } from '../providers/subgraph-sync/client.js';
import { EnsSubgraph } from '../providers/subgraph-sync/ens-subgraph.js';
import { syncEvents, type EventSyncResult } from './events.sync.js';
import { syncNames, type NameSyncResult } from './names.sync.js';
import { marketplaceOrderEffects, revalueListings } from '../orders/index.js';
import { readChainlinkPrice, upsertPrices, type DailyPrice } from './prices.js';
import type { SyncProgress } from './progress.js';
import { withSyncLock } from './state.js';

/**
 * Entry points of the chain sync for the jobs and `npm run sync`. Each runs under an advisory
 * lock of its own (one sync of a kind at a time across processes) and says so when the provider
 * it needs is not configured or another process holds the lock.
 */
export type SyncDeps = Pick<Deps, 'config' | 'logger' | 'db' | 'pool' | 'rpc'>;

export type Skipped = { skipped: 'unconfigured' | 'busy' };

export interface RunOptions {
  /** stop after the batch that crosses this many milliseconds (continued by the next run) */
  budgetMs?: number;
  progress?: SyncProgress;
  /** subgraph page size (tests use small pages) */
  pageSize?: number;
}

export async function runNameSync(deps: SyncDeps, options: RunOptions = {}): Promise<NameSyncResult | Skipped> {
  const url = deps.config.ensSubgraphUrl;
  if (!url) return { skipped: 'unconfigured' };
  const subgraph = new EnsSubgraph(new SubgraphClient(url, { timeoutMs: deps.config.subgraphTimeoutMs }));
  const deadline = options.budgetMs === undefined ? undefined : Date.now() + options.budgetMs;
  const result = await withSyncLock(deps.pool, 'sync:names', () =>
    syncNames(deps, subgraph, marketplaceOrderEffects(), { deadline, progress: options.progress, pageSize: options.pageSize }),
  );
  return result ?? { skipped: 'busy' };
}

export async function runEventSync(deps: SyncDeps, options: RunOptions = {}): Promise<EventSyncResult | Skipped> {
  if (!deps.rpc) return { skipped: 'unconfigured' };
  const reader = new ChainReader(deps.rpc);
  const deadline = options.budgetMs === undefined ? undefined : Date.now() + options.budgetMs;
  const result = await withSyncLock(deps.pool, 'sync:events', () =>
    syncEvents(deps, reader, marketplaceOrderEffects(), { deadline, progress: options.progress }),
  );
  return result ?? { skipped: 'busy' };
}

/** Today's ETH/USD price from the Chainlink feed into the daily table. */
export async function runPriceSync(deps: SyncDeps): Promise<DailyPrice | Skipped> {
  if (!deps.rpc) return { skipped: 'unconfigured' };
  const price = await readChainlinkPrice(deps.rpc, deps.config.chainlinkEthUsdAddress);
  await upsertPrices(deps.db, [price]);
  await revalueListings(deps.db);
  return { day: price.day, priceUsd: price.priceUsd };
}

export function isSkipped(result: object): result is Skipped {
  return 'skipped' in result;
}
