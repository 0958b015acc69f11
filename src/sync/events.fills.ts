import { numberToHex } from 'viem';
import { transactionOf, type Executor } from '../db/client.js';
import { setLastSale } from '../db/repositories/ens-names.repository.js';
import { recordActivity } from '../history/index.js';
import { ItemType } from '../lib/seaport.js';
import { bumpTrend } from '../trends/index.js';
import type { ChainEvent, ContractSet, SeaportItem } from './events.decode.js';
import type { OrderEffects } from './order-effects.js';

/** Seaport fills in the event sync: which are sales of one ENS name, in which order, and their records. */

export const hex32 = (n: bigint) => numberToHex(n, { size: 32 });

/** The ENS name token a Seaport item moves, as a name key; undefined for anything else. */
export function ensKeyOf(item: SeaportItem, contracts: ContractSet): { labelhash?: string; namehash?: string } | undefined {
  if (item.itemType === ItemType.ERC721 && item.token === contracts.baseRegistrar) return { labelhash: hex32(item.identifier) };
  if (item.itemType === ItemType.ERC1155 && item.token === contracts.nameWrapper) return { namehash: hex32(item.identifier) };
  return undefined;
}

/** Whether an OrderFulfilled moves exactly one ENS name (the only fills the sync records). */
export function isEnsFill(event: ChainEvent, contracts: ContractSet): boolean {
  if (event.kind !== 'fulfilled') return false;
  return [...event.offer, ...event.consideration].filter((i) => ensKeyOf(i, contracts)).length === 1;
}

/**
 * The events in chain order, except that a transaction's Seaport fills come before its transfers.
 * Seaport logs a basic order's OrderFulfilled before the transfers it makes and other fills after
 * them; applied first, the listing being bought goes straight to sold (one `sale` event) instead of
 * unfunded by the transfer, then sold. Fills write no name state, so the name's chain position is
 * unaffected.
 */
export function fillsBeforeTransfers(events: readonly ChainEvent[]): ChainEvent[] {
  const fills = new Map<string, ChainEvent[]>();
  for (const e of events) {
    if (e.kind !== 'fulfilled') continue;
    const ofTx = fills.get(e.tx);
    if (ofTx) ofTx.push(e);
    else fills.set(e.tx, [e]);
  }
  if (fills.size === 0) return [...events];
  const ordered: ChainEvent[] = [];
  const placed = new Set<ChainEvent>();
  const place = (e: ChainEvent) => {
    if (placed.has(e)) return;
    placed.add(e);
    ordered.push(e);
  };
  for (const e of events) {
    if (e.kind === 'transfer' || e.kind === 'wrapped-transfer') for (const f of fills.get(e.tx) ?? []) place(f);
    place(e);
  }
  return ordered;
}

/**
 * OrderFulfilled of one ENS name. An order of our book goes to the order rules (sold / accepted,
 * with the sale row, the name's last sale and the notification); a fill of any other Seaport
 * order of the name is recorded as a sale here (source `seaport`). A sale is recorded once per
 * transaction and name, since a listing and an offer matched against each other fill two orders.
 * Returns whether a new sale was recorded, 'unknown' for a name that is not stored, and false for
 * fills that are not a sale of one name for ETH or an ERC-20.
 */
export async function recordFill(
  trx: Executor,
  e: Extract<ChainEvent, { kind: 'fulfilled' }>,
  ctx: { contracts: ContractSet; effects: OrderEffects },
  byLabelhash: ReadonlyMap<string, { id: number }>,
  byNamehash: ReadonlyMap<string, { id: number }>,
  soldAt: Date,
): Promise<boolean | 'unknown'> {
  const { contracts } = ctx;
  const ensInOffer = e.offer.filter((i) => ensKeyOf(i, contracts));
  const ensInConsideration = e.consideration.filter((i) => ensKeyOf(i, contracts));
  if (ensInOffer.length + ensInConsideration.length !== 1) return false;
  const side = ensInOffer.length === 1 ? 'listing' : 'offer';
  const key = ensKeyOf(side === 'listing' ? ensInOffer[0] : ensInConsideration[0], contracts)!;
  const row = key.labelhash ? byLabelhash.get(key.labelhash) : byNamehash.get(key.namehash!);
  if (!row) return 'unknown';

  const isPayment = (i: SeaportItem) => i.itemType === ItemType.NATIVE || i.itemType === ItemType.ERC20;
  const payments = (side === 'listing' ? e.consideration : e.offer).filter(isPayment);
  if (payments.length === 0) return false;
  const currency = payments[0].token;
  const priceWei = payments.filter((p) => p.token === currency).reduce((sum, p) => sum + p.amount, 0n).toString();
  const [seller, buyer] = side === 'listing' ? [e.offerer, e.recipient] : [e.recipient, e.offerer];

  const recorded = async () => Boolean(await trx.selectFrom('sales').select('id').where('tx_hash', '=', e.tx).where('ens_name_id', '=', row.id).executeTakeFirst());
  const before = await recorded();
  const ours = side === 'listing'
    ? await trx.selectFrom('listings').select('id').where('order_hash', '=', e.orderHash).executeTakeFirst()
    : await trx.selectFrom('offers').select('id').where('order_hash', '=', e.orderHash).executeTakeFirst();
  if (ours) {
    await ctx.effects.orderFilled(trx, {
      orderId: ours.id, ensNameId: row.id, side, seller, buyer, priceWei, currency, txHash: e.tx, logIndex: e.logIndex, block: e.block, soldAt, recordSale: !before,
    });
    return !before && (await recorded());
  }
  if (before) return false;
  await trx
    .insertInto('sales')
    .values({
      ens_name_id: row.id, seller_address: seller, buyer_address: buyer, price_wei: priceWei, currency_address: currency,
      order_hash: e.orderHash, listing_id: null, offer_id: null, tx_hash: e.tx, log_index: e.logIndex, source: 'seaport', sold_at: soldAt,
    })
    .onConflict((oc) => oc.columns(['tx_hash', 'log_index']).doNothing())
    .execute();
  await recordActivity(trx, {
    type: 'sale', ensNameId: row.id, actor: seller, counterparty: buyer, priceWei, currency, platform: 'seaport',
    txHash: e.tx, block: e.block, logIndex: e.logIndex, at: soldAt, metadata: { order_hash: e.orderHash },
  });
  await bumpTrend(transactionOf(trx), 'sales', row.id, soldAt, 1);
  await setLastSale(trx, row.id, { soldAt, priceWei, currency });
  await ctx.effects.foreignSale?.(trx, { ensNameId: row.id, seller, buyer, priceWei, currency, txHash: e.tx });
  return true;
}
