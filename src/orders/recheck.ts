import { sql } from 'kysely';
import { BaseError, ContractFunctionRevertedError, erc1155Abi, erc20Abi, erc721Abi, type Hex, type PublicClient } from 'viem';
import type { Deps } from '../deps.js';
import { ItemType } from '../lib/seaport.js';
import { AUTOMATIC_UNFUNDED_REASONS, markListingUnfunded, markOfferUnfunded, restoreListing, restoreOffer, UnfundedReason } from './state.js';
import { spenderOf } from './validation.js';

const BATCH = 100;

interface StoredOrder {
  parameters?: { conduitKey?: string; offer?: Array<{ itemType?: number; token?: string; identifierOrCriteria?: string; startAmount?: string }> };
}

export interface RecheckResult {
  checked: number;
  unfunded: number;
  restored: number;
  failed: number;
}

/** One run's memo of chain reads, so that many orders of one maker cost one call each. */
class Reads {
  private readonly memo = new Map<string, Promise<unknown>>();
  constructor(private readonly rpc: PublicClient) {}

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let hit = this.memo.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = read();
      this.memo.set(key, hit);
    }
    return hit;
  }

  balance(token: Hex, owner: Hex) {
    return this.once(`b:${token}:${owner}`, () => this.rpc.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }));
  }

  allowance(token: Hex, owner: Hex, spender: Hex) {
    return this.once(`a:${token}:${owner}:${spender}`, () => this.rpc.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] }));
  }

  /** Undefined when the call reverts (a burned or never-minted token has no owner). */
  async ownerOf(token: Hex, id: bigint): Promise<string | undefined> {
    return this.once(`o:${token}:${id}`, async () => {
      try {
        return (await this.rpc.readContract({ address: token, abi: erc721Abi, functionName: 'ownerOf', args: [id] })).toLowerCase();
      } catch (err) {
        // a revert means "no owner"; a failed request is not an answer and is passed on
        if (err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError)) return undefined;
        throw err;
      }
    });
  }

  approved(token: Hex, owner: Hex, operator: Hex) {
    return this.once(`ap:${token}:${owner}:${operator}`, () => this.rpc.readContract({ address: token, abi: erc721Abi, functionName: 'isApprovedForAll', args: [owner, operator] }));
  }

  approvedOne(token: Hex, id: bigint) {
    return this.once(`g:${token}:${id}`, async () => (await this.rpc.readContract({ address: token, abi: erc721Abi, functionName: 'getApproved', args: [id] })).toLowerCase());
  }

  balance1155(token: Hex, owner: Hex, id: bigint) {
    return this.once(`b1155:${token}:${owner}:${id}`, () => this.rpc.readContract({ address: token, abi: erc1155Abi, functionName: 'balanceOf', args: [owner, id] }));
  }
}

/** What an offer needs on chain: the maker holds and has approved the signed amount (else the stored one). */
async function offerProblem(reads: Reads, offer: { buyer_address: string; currency_address: string; offer_amount_wei: string; order_data: unknown }, seaport: string): Promise<string | undefined> {
  const params = (offer.order_data as StoredOrder)?.parameters;
  const signed = params?.offer?.[0]?.startAmount;
  const required = BigInt(signed && /^\d+$/.test(signed) ? signed : offer.offer_amount_wei);
  const spender = spenderOf(params?.conduitKey ?? `0x${'0'.repeat(64)}`, seaport) as Hex;
  const token = offer.currency_address as Hex;
  const buyer = offer.buyer_address as Hex;
  if ((await reads.balance(token, buyer)) < required) return UnfundedReason.INSUFFICIENT_BALANCE;
  if ((await reads.allowance(token, buyer, spender)) < required) return UnfundedReason.INSUFFICIENT_ALLOWANCE;
  return undefined;
}

/** What a listing needs on chain: the seller holds the name token and has approved Seaport (or its conduit). */
async function listingProblem(reads: Reads, listing: { seller_address: string; order_data: unknown }, seaport: string): Promise<string | undefined> {
  const params = (listing.order_data as StoredOrder)?.parameters;
  const item = params?.offer?.[0];
  if (!item?.token || item.identifierOrCriteria === undefined) return undefined;
  const token = item.token as Hex;
  const id = BigInt(item.identifierOrCriteria);
  const seller = listing.seller_address as Hex;
  const operator = spenderOf(params?.conduitKey ?? `0x${'0'.repeat(64)}`, seaport) as Hex;
  if (item.itemType === ItemType.ERC1155) {
    if ((await reads.balance1155(token, seller, id)) === 0n) return UnfundedReason.OWNERSHIP_LOST;
    if (!(await reads.approved(token, seller, operator))) return UnfundedReason.NOT_APPROVED;
    return undefined;
  }
  if ((await reads.ownerOf(token, id)) !== seller) return UnfundedReason.OWNERSHIP_LOST;
  if (!(await reads.approved(token, seller, operator)) && (await reads.approvedOne(token, id)) !== operator) return UnfundedReason.NOT_APPROVED;
  return undefined;
}

/** What keeps a signed listing from being filled now, by the re-check's reads; undefined when nothing (POST /orders/validate). */
export function listingChainProblem(rpc: PublicClient, seaport: string, listing: { seller_address: string; order_data: unknown }): Promise<string | undefined> {
  return listingProblem(new Reads(rpc), listing, seaport);
}

/** What keeps a signed offer from being filled now (balance, allowance); undefined when nothing. */
export function offerChainProblem(rpc: PublicClient, seaport: string, offer: { buyer_address: string; currency_address: string; offer_amount_wei: string; order_data: unknown }): Promise<string | undefined> {
  return offerProblem(new Reads(rpc), offer, seaport);
}

/**
 * Re-checks live orders against the chain: offers (pending, or unfunded for a reason of ours)
 * whose maker no longer holds or approves enough of the currency become unfunded
 * (insufficient_balance / insufficient_allowance) and pending again when the funds are back;
 * listings whose seller no longer owns the name or no longer approves Seaport become unfunded
 * (ownership_lost / not_approved) and active again. Every checked order gets last_validated_at.
 * An order whose chain read fails is left as it was and counted in `failed`.
 */
export async function recheckOrders(deps: Pick<Deps, 'db' | 'rpc' | 'config' | 'logger'>, target: { offerIds?: number[]; listingIds?: number[] } = {}): Promise<RecheckResult> {
  const result: RecheckResult = { checked: 0, unfunded: 0, restored: 0, failed: 0 };
  if (!deps.rpc) return result;
  const { db, config } = deps;
  const reads = new Reads(deps.rpc);
  const byIds = target.offerIds !== undefined || target.listingIds !== undefined;

  const offers = byIds && !target.offerIds?.length ? [] : await db
    .selectFrom('offers')
    .select(['id', 'buyer_address', 'currency_address', 'offer_amount_wei', 'order_data', 'status'])
    .where(sql<boolean>`(expires_at IS NULL OR expires_at > now())`)
    .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'unfunded'), eb('unfunded_reason', 'in', AUTOMATIC_UNFUNDED_REASONS)])]))
    .$if(byIds, (qb) => qb.where('id', 'in', target.offerIds!))
    .$if(!byIds, (qb) => qb.orderBy(sql`last_validated_at NULLS FIRST`).orderBy('id').limit(BATCH))
    .execute();
  const listings = byIds && !target.listingIds?.length ? [] : await db
    .selectFrom('listings')
    .select(['id', 'seller_address', 'order_data', 'status'])
    .where(sql<boolean>`(expires_at IS NULL OR expires_at > now())`)
    .where((eb) => eb.or([eb('status', '=', 'active'), eb.and([eb('status', '=', 'unfunded'), eb('unfunded_reason', 'in', AUTOMATIC_UNFUNDED_REASONS)])]))
    .$if(byIds, (qb) => qb.where('id', 'in', target.listingIds!))
    .$if(!byIds, (qb) => qb.orderBy(sql`last_validated_at NULLS FIRST`).orderBy('id').limit(BATCH))
    .execute();

  const apply = async (kind: 'offers' | 'listings', id: number, status: string, problem: string | undefined) => {
    await db.transaction().execute(async (trx) => {
      if (problem !== undefined && (status === 'pending' || status === 'active')) {
        const moved = kind === 'offers' ? await markOfferUnfunded(trx, id, problem) : await markListingUnfunded(trx, id, problem);
        if (moved) result.unfunded++;
      } else if (problem === undefined && status === 'unfunded') {
        const back = kind === 'offers' ? await restoreOffer(trx, id) : await restoreListing(trx, id);
        if (back) result.restored++;
      }
      await trx.updateTable(kind).set({ last_validated_at: sql`now()` }).where('id', '=', id).execute();
    });
    result.checked++;
  };

  for (const o of offers) {
    try {
      await apply('offers', o.id, o.status, await offerProblem(reads, o, config.seaportAddress));
    } catch (err) {
      result.failed++;
      deps.logger.warn({ err, offerId: o.id }, 'offer re-check failed');
    }
  }
  for (const l of listings) {
    try {
      await apply('listings', l.id, l.status, await listingProblem(reads, l, config.seaportAddress));
    } catch (err) {
      result.failed++;
      deps.logger.warn({ err, listingId: l.id }, 'listing re-check failed');
    }
  }
  return result;
}
