import type { Hex } from 'viem';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { seaportReadAbi } from '../providers/rpc/abis.js';
import type { ParsedOrder } from './validation.js';

/** The Seaport counter check of new orders (with an RPC): the counter an order signs must be its offerer's current one. */

/** Per request: the offerer's counter read once, however many of its orders are checked. */
export type CounterMemo = Map<string, Promise<bigint | undefined>>;

/**
 * The offerer's Seaport counter on chain (`getCounter`), or undefined without an RPC. A read that
 * fails is 503: an order whose counter cannot be checked is not stored on a guess.
 */
export function chainCounter(deps: Pick<Deps, 'config' | 'rpc' | 'logger'>, offerer: string, memo: CounterMemo = new Map()): Promise<bigint | undefined> {
  const rpc = deps.rpc;
  if (!rpc) return Promise.resolve(undefined);
  let read = memo.get(offerer);
  if (!read) {
    read = rpc.readContract({ address: deps.config.seaportAddress, abi: seaportReadAbi, functionName: 'getCounter', args: [offerer as Hex] }).catch((err: unknown) => {
      deps.logger.warn({ err }, 'Seaport getCounter failed');
      throw new AppError('SERVICE_UNAVAILABLE', "The offerer's Seaport counter could not be read from the chain; try again", { field: 'body.orderData.parameters.counter' });
    });
    memo.set(offerer, read);
  }
  return read;
}

/**
 * With an RPC, the order's counter must be the offerer's current Seaport counter: an order signed
 * under another one can never be filled (raising the counter on chain voids every older order).
 */
export async function checkCounter(deps: Pick<Deps, 'config' | 'rpc' | 'logger'>, order: ParsedOrder, memo?: CounterMemo): Promise<void> {
  const onChain = await chainCounter(deps, order.components.offerer, memo);
  if (onChain === undefined || onChain === BigInt(order.components.counter)) return;
  throw new AppError('INVALID_ORDER', `The order was signed with counter ${order.components.counter}; the offerer's Seaport counter is ${onChain}, so it could never be filled: sign it again with counter ${onChain}`, {
    reason: 'stale_counter', field: 'body.orderData.parameters.counter', expected: onChain.toString(), got: order.components.counter,
  });
}
