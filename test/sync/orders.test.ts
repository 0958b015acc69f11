import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { labelhash } from 'viem';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { insertListing, insertOffer, ONE_ETH, WETH } from '../helpers/marketplace.js';
import { CONTRACTS, EVENTS, FakeChain, startChainServer, syncEnv, tokenIdOf, txHash } from '../helpers/sync.js';
import type { RpcServer } from '../helpers/json-rpc.js';
import { isSkipped, runEventSync } from '../../src/sync/sync.service.js';

const ZERO = '0x0000000000000000000000000000000000000000';
const FEES = '0x0000a26b00c1f0df003000390027140000faa719';

/** Listings and offers following the chain: ownership, fills, cancellations. */
describe('event sync and the order book', () => {
  let t: TestContext;
  let rpc: RpcServer;
  const chain = new FakeChain();
  const A = addressOf(1);
  const B = addressOf(2);
  const C = addressOf(3);
  const D = addressOf(4);

  before(async () => {
    rpc = await startChainServer(chain);
    t = await createTestApp(syncEnv({ rpcUrl: rpc.url, confirmations: 2 }));
  });
  after(async () => {
    await t?.close();
    await rpc?.close();
  });

  /** Mines up to `block` (+ confirmations) and runs the event sync. */
  async function syncTo(block: number) {
    chain.head = Math.max(chain.head, block + 2);
    const result = await runEventSync(t.container);
    assert.ok(!isSkipped(result));
    return result;
  }

  const getListing = async (id: number) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${id}` });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data;
  };
  const getOffer = async (id: number) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/offers/${id}` });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data;
  };
  const notificationsOf = async (i: number) => {
    const { headers } = await signIn(t.app, i);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data.notifications as { type: string; ensName: string | null; metadata: Record<string, unknown> }[];
  };
  const transfer = (block: number, label: string, from: string, to: string, tx?: `0x${string}`) =>
    chain.emit(block, CONTRACTS.baseRegistrar, EVENTS.transfer, { from, to, tokenId: tokenIdOf(label) }, { tx });

  it('a transfer moves the seller\'s listing to unfunded, and back to active when the name returns', async () => {
    const name = await createName(t.container.db, 'golf.eth', { owner: A });
    const listing = await insertListing(t.container.db, 1, name.id, 'golf.eth', ONE_ETH);

    transfer(10, 'golf', A, B);
    await syncTo(10);
    let l = await getListing(listing.id);
    assert.equal(l.status, 'unfunded', JSON.stringify(l));
    assert.equal(l.unfunded_reason, 'ownership_lost');
    assert.equal(l.current_owner, B);

    transfer(20, 'golf', B, A);
    await syncTo(20);
    l = await getListing(listing.id);
    assert.equal(l.status, 'active', JSON.stringify(l));
    assert.equal(l.unfunded_reason, null);
    assert.equal(l.current_owner, A);
  });

  it('a fulfilled listing becomes a sale, the name\'s last sale and a notification to the seller', async () => {
    const name = await createName(t.container.db, 'hotel.eth', { owner: A });
    const listing = await insertListing(t.container.db, 1, name.id, 'hotel.eth', 2n * ONE_ETH);
    const tx = txHash();
    // Seaport moves the token to the buyer, then reports the fill: 97.5% to the seller, 2.5% in fees.
    transfer(30, 'hotel', A, B, tx);
    chain.orderFulfilled(30, {
      orderHash: listing.order_hash as `0x${string}`, offerer: A, recipient: B,
      offer: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('hotel'), amount: 1n }],
      consideration: [
        { itemType: 0, token: ZERO, identifier: 0n, amount: 2n * ONE_ETH * 975n / 1000n, recipient: A },
        { itemType: 0, token: ZERO, identifier: 0n, amount: 2n * ONE_ETH * 25n / 1000n, recipient: FEES },
      ],
    }, { tx });
    const result = await syncTo(30);
    assert.equal(result.counts.sales, 1);

    const l = await getListing(listing.id);
    assert.equal(l.status, 'sold', JSON.stringify(l));
    assert.equal(l.current_owner, B);
    assert.ok(l.last_sale_date, 'the name shows its last sale');
    const sales = await t.container.db.selectFrom('sales').selectAll().where('ens_name_id', '=', name.id).execute();
    assert.equal(sales.length, 1);
    assert.deepEqual(
      [sales[0].seller_address, sales[0].buyer_address, sales[0].price_wei, sales[0].currency_address, sales[0].listing_id, sales[0].tx_hash],
      [A, B, (2n * ONE_ETH).toString(), ZERO, listing.id, tx],
    );
    assert.equal(sales[0].sold_at.getTime(), chain.timeOf(30) * 1000);
    const n = await t.container.db.selectFrom('ens_names').select(['last_sale_price_wei', 'last_sale_currency']).where('id', '=', name.id).executeTakeFirstOrThrow();
    assert.deepEqual([n.last_sale_price_wei, n.last_sale_currency], [(2n * ONE_ETH).toString(), ZERO]);
    const sold = (await notificationsOf(1)).filter((x) => x.type === 'listing_sold');
    assert.deepEqual(sold.map((x) => x.ensName), ['hotel.eth']);
  });

  it('a fulfilled offer is accepted, recorded as a sale and notified to the buyer; other fills are sales too', async () => {
    const india = await createName(t.container.db, 'india.eth', { owner: C });
    const offer = await insertOffer(t.container.db, 4, india.id, 'india.eth', 3n * ONE_ETH / 2n);
    let tx = txHash();
    transfer(40, 'india', C, D, tx);
    chain.orderFulfilled(40, {
      orderHash: offer.order_hash as `0x${string}`, offerer: D, recipient: C,
      offer: [{ itemType: 1, token: WETH, identifier: 0n, amount: 3n * ONE_ETH / 2n }],
      consideration: [
        { itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('india'), amount: 1n, recipient: D },
        { itemType: 1, token: WETH, identifier: 0n, amount: 3n * ONE_ETH / 200n, recipient: FEES },
      ],
    }, { tx });
    // juliet sells through an order that is not in our book.
    const juliet = await createName(t.container.db, 'juliet.eth', { owner: A });
    const watcher = await signIn(t.app, 9);
    const watched = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: watcher.headers, payload: { ensName: 'juliet.eth' } });
    assert.equal(watched.statusCode, 200, show(watched));
    tx = txHash();
    transfer(41, 'juliet', A, C, tx);
    chain.orderFulfilled(41, {
      orderHash: txHash(), offerer: A, recipient: C,
      offer: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('juliet'), amount: 1n }],
      consideration: [{ itemType: 0, token: ZERO, identifier: 0n, amount: ONE_ETH / 10n, recipient: A }],
    }, { tx });
    // An NFT trade that is not an ENS name is none of our business.
    chain.orderFulfilled(42, {
      orderHash: txHash(), offerer: A, recipient: C,
      offer: [{ itemType: 2, token: '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d', identifier: 1n, amount: 1n }],
      consideration: [{ itemType: 0, token: ZERO, identifier: 0n, amount: ONE_ETH, recipient: A }],
    });

    const result = await syncTo(42);
    assert.equal(result.counts.sales, 2);
    const o = await getOffer(offer.id);
    assert.equal(o.status, 'accepted', JSON.stringify(o));
    const accepted = (await notificationsOf(4)).filter((x) => x.type === 'offer_accepted');
    assert.deepEqual(accepted.map((x) => x.ensName), ['india.eth']);
    const highest = await t.container.db.selectFrom('ens_names').select('highest_offer_id').where('id', '=', india.id).executeTakeFirstOrThrow();
    assert.equal(highest.highest_offer_id, null, 'an accepted offer is no longer the highest offer');

    const sales = await t.container.db.selectFrom('sales').select(['ens_name_id', 'seller_address', 'buyer_address', 'price_wei', 'currency_address', 'offer_id', 'source']).where('ens_name_id', 'in', [india.id, juliet.id]).orderBy('id').execute();
    assert.deepEqual(sales, [
      { ens_name_id: india.id, seller_address: C, buyer_address: D, price_wei: (3n * ONE_ETH / 2n).toString(), currency_address: WETH, offer_id: offer.id, source: 'grails' },
      { ens_name_id: juliet.id, seller_address: A, buyer_address: C, price_wei: (ONE_ETH / 10n).toString(), currency_address: ZERO, offer_id: null, source: 'seaport' },
    ]);
    // a watcher hears of the sale outside our book as of any other
    const heard = (await notificationsOf(9)).filter((x) => x.type === 'sale');
    assert.deepEqual(heard.map((x) => [x.ensName, x.metadata.priceWei]), [['juliet.eth', (ONE_ETH / 10n).toString()]]);
  });

  it('OrderCancelled and CounterIncremented cancel our orders, each with an event carrying its log', async () => {
    const kilo = await createName(t.container.db, 'kilo.eth', { owner: A });
    const listing = await insertListing(t.container.db, 1, kilo.id, 'kilo.eth', ONE_ETH);
    const offer = await insertOffer(t.container.db, 2, kilo.id, 'kilo.eth', ONE_ETH / 2n);
    const second = await insertOffer(t.container.db, 2, kilo.id, 'kilo.eth', ONE_ETH / 4n);
    const cancel = chain.emit(50, CONTRACTS.seaport, EVENTS.orderCancelled, { orderHash: listing.order_hash, offerer: A, zone: ZERO });
    const counter = chain.emit(51, CONTRACTS.seaport, EVENTS.counterIncremented, { newCounter: 1n, offerer: B });
    await syncTo(51);
    assert.equal((await getListing(listing.id)).status, 'cancelled');
    assert.equal((await getOffer(offer.id)).status, 'rejected', 'an offer withdrawn on chain is rejected (offers have no cancelled status)');
    assert.equal((await getOffer(second.id)).status, 'rejected');

    // one event per order, with the transaction, block, log index and block time of the log that cancelled it
    const events = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/activity/kilo.eth' });
      assert.equal(res.statusCode, 200, show(res));
      const rows = await t.container.db.selectFrom('activity_events').select(['id', 'log_index']).where('ens_name_id', '=', kilo.id).execute();
      const logIndex = new Map(rows.map((r) => [r.id, r.log_index]));
      return (body(res).data.results as { id: number; event_type: string; transaction_hash: string; block_number: number; created_at: string; metadata: Record<string, unknown> }[])
        .reverse().map((e) => [e.event_type, e.metadata.listing_id ?? e.metadata.offer_id, e.transaction_hash, e.block_number, logIndex.get(e.id), e.created_at]);
    };
    const at = (block: number) => new Date(chain.timeOf(block) * 1000).toISOString();
    const expected = [
      ['listing_cancelled', listing.id, cancel.transactionHash, 50, cancel.logIndex, at(50)],
      ['offer_cancelled', offer.id, counter.transactionHash, 51, counter.logIndex, at(51)],
      ['offer_cancelled', second.id, counter.transactionHash, 51, counter.logIndex, at(51)],
    ];
    assert.deepEqual(await events(), expected);

    // a cancel of an order already cancelled changes nothing and logs nothing
    chain.emit(52, CONTRACTS.seaport, EVENTS.orderCancelled, { orderHash: listing.order_hash, offerer: A, zone: ZERO });
    await syncTo(52);
    assert.deepEqual(await events(), expected);
  });

  /** A name's events through GET /activity/:name, oldest first, with the log index of their row (the API does not show it). */
  async function activityOf(name: string) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/activity/${name}?limit=100` });
    assert.equal(res.statusCode, 200, show(res));
    const results = body(res).data.results as { id: number; event_type: string; actor_address: string | null; counterparty_address: string | null; transaction_hash: string | null; block_number: number | null; created_at: string; metadata: Record<string, unknown> }[];
    const rows = await t.container.db.selectFrom('activity_events').select(['id', 'log_index']).where('id', 'in', [0, ...results.map((e) => e.id)]).execute();
    const logIndex = new Map(rows.map((r) => [r.id, r.log_index]));
    return results.reverse().map((e) => [
      e.event_type, e.metadata.listing_id ?? e.metadata.offer_id ?? null, e.actor_address, e.counterparty_address,
      e.transaction_hash, e.block_number, logIndex.get(e.id), e.created_at,
    ]);
  }
  const timeAt = (block: number) => new Date(chain.timeOf(block) * 1000).toISOString();
  const coordinates = (log: { transactionHash: string; blockNumber: number; logIndex: number }) => [log.transactionHash, log.blockNumber, log.logIndex, timeAt(log.blockNumber)];

  it('every event of a fill on chain carries the fill\'s transaction, block, log index and block time, one per order', async () => {
    const db = t.container.db;
    const year = BigInt(365 * 86_400);
    const registered = chain.emit(60, CONTRACTS.legacyController, EVENTS.legacyRegistered, { name: 'lima', label: labelhash('lima'), owner: A, cost: ONE_ETH / 200n, expires: BigInt(chain.timeOf(60)) + year }, { from: A });
    const renewed = chain.emit(61, CONTRACTS.legacyController, EVENTS.renewed, { name: 'lima', label: labelhash('lima'), cost: ONE_ETH / 200n, expires: BigInt(chain.timeOf(60)) + 2n * year }, { from: C });
    await syncTo(61);
    const lima = await db.selectFrom('ens_names').select('id').where('name', '=', 'lima.eth').executeTakeFirstOrThrow();
    const listing = await insertListing(db, 1, lima.id, 'lima.eth', 2n * ONE_ETH);
    const offer = await insertOffer(db, 4, lima.id, 'lima.eth', ONE_ETH);

    // C buys A's listing; the transfer is logged before the fill (the listing goes straight to sold, never unfunded)
    let tx = txHash();
    const bought = transfer(62, 'lima', A, C, tx);
    const sold = chain.orderFulfilled(62, {
      orderHash: listing.order_hash as `0x${string}`, offerer: A, recipient: C,
      offer: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('lima'), amount: 1n }],
      consideration: [{ itemType: 0, token: ZERO, identifier: 0n, amount: 2n * ONE_ETH, recipient: A }],
    }, { tx });
    await syncTo(62);
    // C lists it (B raised its Seaport counter above), then accepts D's offer: C's listing is unfunded by the transfer of that transaction
    const relisted = await insertListing(db, 3, lima.id, 'lima.eth', 3n * ONE_ETH);
    tx = txHash();
    const delivered = transfer(63, 'lima', C, D, tx);
    const accepted = chain.orderFulfilled(63, {
      orderHash: offer.order_hash as `0x${string}`, offerer: D, recipient: C,
      offer: [{ itemType: 1, token: WETH, identifier: 0n, amount: ONE_ETH }],
      consideration: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('lima'), amount: 1n, recipient: D }],
    }, { tx });
    await syncTo(63);

    const expected = [
      ['registration', null, A, null, ...coordinates(registered)],
      ['renewal', null, C, null, ...coordinates(renewed)],
      ['sale', listing.id, A, C, ...coordinates(sold)],
      ['transfer', null, A, C, ...coordinates(bought)],
      ['sale', offer.id, C, D, ...coordinates(accepted)],
      ['offer_accepted', offer.id, C, D, ...coordinates(accepted)],
      ['listing_unfunded', relisted.id, C, null, ...coordinates(delivered)],
      ['transfer', null, C, D, ...coordinates(delivered)],
    ];
    assert.deepEqual(await activityOf('lima.eth'), expected);
    assert.equal((await getListing(listing.id)).status, 'sold');
    assert.equal((await getOffer(offer.id)).status, 'accepted');

    // the listing filled again (another transaction) is no second sale: nothing changes, nothing is logged
    chain.orderFulfilled(64, {
      orderHash: listing.order_hash as `0x${string}`, offerer: A, recipient: B,
      offer: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('lima'), amount: 1n }],
      consideration: [{ itemType: 0, token: ZERO, identifier: 0n, amount: 2n * ONE_ETH, recipient: A }],
    });
    await syncTo(64);
    assert.deepEqual(await activityOf('lima.eth'), expected);
    assert.equal((await t.container.db.selectFrom('sales').select('id').where('ens_name_id', '=', lima.id).execute()).length, 2);
  });

  it('a listing cancelled through the API but filled on chain is sold: its sale carries the fill', async () => {
    // Cancelling through the API leaves the signed order valid on chain; the chain is the record.
    const mike = await createName(t.container.db, 'mike.eth', { owner: A });
    const listing = await insertListing(t.container.db, 1, mike.id, 'mike.eth', ONE_ETH);
    const { headers } = await signIn(t.app, 1);
    const cancelled = await t.app.inject({ method: 'DELETE', url: `/api/v1/listings/${listing.id}`, headers });
    assert.equal(cancelled.statusCode, 200, show(cancelled));
    const tx = txHash();
    const moved = transfer(65, 'mike', A, B, tx);
    const sold = chain.orderFulfilled(65, {
      orderHash: listing.order_hash as `0x${string}`, offerer: A, recipient: B,
      offer: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('mike'), amount: 1n }],
      consideration: [{ itemType: 0, token: ZERO, identifier: 0n, amount: ONE_ETH, recipient: A }],
    }, { tx });
    await syncTo(65);
    assert.equal((await getListing(listing.id)).status, 'sold');
    const events = await activityOf('mike.eth');
    assert.deepEqual(events.slice(1), [['sale', listing.id, A, B, ...coordinates(sold)], ['transfer', null, A, B, ...coordinates(moved)]]);
    assert.deepEqual(events[0].slice(0, 2), ['listing_cancelled', listing.id]);
  });

  it('a listing and an offer of our book matched in one transaction are one sale', async () => {
    const november = await createName(t.container.db, 'november.eth', { owner: A });
    const listing = await insertListing(t.container.db, 1, november.id, 'november.eth', ONE_ETH);
    const offer = await insertOffer(t.container.db, 4, november.id, 'november.eth', ONE_ETH);
    const tx = txHash();
    const moved = transfer(66, 'november', A, D, tx);
    const byOffer = chain.orderFulfilled(66, {
      orderHash: offer.order_hash as `0x${string}`, offerer: D, recipient: A,
      offer: [{ itemType: 1, token: WETH, identifier: 0n, amount: ONE_ETH }],
      consideration: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('november'), amount: 1n, recipient: D }],
    }, { tx });
    chain.orderFulfilled(66, {
      orderHash: listing.order_hash as `0x${string}`, offerer: A, recipient: D,
      offer: [{ itemType: 2, token: CONTRACTS.baseRegistrar, identifier: tokenIdOf('november'), amount: 1n }],
      consideration: [{ itemType: 1, token: WETH, identifier: 0n, amount: ONE_ETH, recipient: A }],
    }, { tx });
    const result = await syncTo(66);
    assert.equal(result.counts.sales, 1);
    assert.equal((await getListing(listing.id)).status, 'sold');
    assert.equal((await getOffer(offer.id)).status, 'accepted');
    assert.deepEqual(await activityOf('november.eth'), [
      ['sale', offer.id, A, D, ...coordinates(byOffer)],
      ['offer_accepted', offer.id, A, D, ...coordinates(byOffer)],
      ['transfer', null, A, D, ...coordinates(moved)],
    ]);
  });

  it('replaying every event from the start changes nothing', async () => {
    const count = async () => ({
      sales: (await t.container.db.selectFrom('sales').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
      notifications: (await t.container.db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
      activity: (await t.container.db.selectFrom('activity_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
      owners: await t.container.db.selectFrom('ens_names').select(['name', 'owner_address']).orderBy('name').execute(),
    });
    const before = await count();
    await t.container.db.deleteFrom('sync_state').where('key', '=', 'events').execute();
    const result = await syncTo(66);
    assert.ok(result.ranges > 0, 'the events were read again');
    assert.deepEqual(await count(), before);
  });
});
