import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { createSiweMessage } from 'viem/siwe';
import { account } from '../helpers/accounts.js';
import { CONTRACTS, ETH, ONE_ETH, SEAPORT, WETH, insertListing, insertOffer } from '../helpers/marketplace.js';
import { buildListingOrder, orderTypedData } from '../../src/lib/seaport.js';
import { FakeChain } from './fake-chain.js';
import { parseEthName } from '../../src/lib/ens.js';
import { orderExpiryJob, recheckOrders, onOwnershipChanged, refreshAllMarketSummaries, markListingSold, cancelOrdersByHash } from '../../src/orders/index.js';

const DAY = 86_400_000;

async function nameRow(t: TestContext, id: number) {
  return t.container.db.selectFrom('ens_names')
    .select(['highest_offer_wei', 'highest_offer_id', 'listing_price_wei', 'owner_address', 'last_sale_price_wei'])
    .where('id', '=', id).executeTakeFirstOrThrow();
}

interface Event { event_type: string; actor_address: string | null; price_wei: string | null; metadata: Record<string, unknown> }

/** The name's activity log through GET /activity/:name, oldest first. */
async function eventsOf(t: TestContext, name: string): Promise<Event[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/activity/${name}?limit=100` });
  assert.equal(res.statusCode, 200, show(res));
  return (body(res).data.results as Event[]).reverse();
}

describe('automatic order moves', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('the expiry sweep expires ended orders, recalculates summaries and notifies', async () => {
    const db = t.container.db;
    const n = await createName(db, 'sweep.eth', { owner: addressOf(0) });
    const listing = await insertListing(db, 0, n.id, 'sweep.eth', ONE_ETH, { expiresAt: new Date(Date.now() + 2000) });
    const live = await insertOffer(db, 1, n.id, 'sweep.eth', ONE_ETH, { expiresAt: new Date(Date.now() + 30 * DAY) });
    const ending = await insertOffer(db, 2, n.id, 'sweep.eth', 5n * ONE_ETH, { expiresAt: new Date(Date.now() + 2000) });
    assert.equal((await nameRow(t, n.id)).highest_offer_id, ending.id);
    assert.equal((await nameRow(t, n.id)).listing_price_wei, ONE_ETH.toString());

    // the end time passes; reads already say expired before the sweep writes it
    await db.updateTable('listings').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', listing.id).execute();
    await db.updateTable('offers').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', ending.id).execute();
    const before = await t.app.inject({ method: 'GET', url: '/api/v1/listings' });
    assert.deepEqual(body(before).data.listings, [], show(before));

    await orderExpiryJob.handle({}, t.container);
    const statuses = await db.selectFrom('offers').select(['id', 'status']).where('ens_name_id', '=', n.id).orderBy('id').execute();
    assert.deepEqual(statuses, [{ id: live.id, status: 'pending' }, { id: ending.id, status: 'expired' }]);
    assert.equal((await db.selectFrom('listings').select('status').where('id', '=', listing.id).executeTakeFirstOrThrow()).status, 'expired');
    const row = await nameRow(t, n.id);
    assert.equal(row.highest_offer_id, live.id);
    assert.equal(row.listing_price_wei, null);
    const notes = await db.selectFrom('notifications').select(['recipient_address', 'type']).where('ens_name_id', '=', n.id).orderBy('id').execute();
    assert.deepEqual(notes, [{ recipient_address: addressOf(0), type: 'listing_expired' }, { recipient_address: addressOf(2), type: 'offer_expired' }]);

    await orderExpiryJob.handle({}, t.container); // idempotent
    assert.equal((await db.selectFrom('notifications').select('id').where('ens_name_id', '=', n.id).execute()).length, 2);
  });

  it('a listing becomes unfunded when its name changes owner, and active again when it comes back', async () => {
    const db = t.container.db;
    const n = await createName(db, 'moved.eth', { owner: addressOf(0) });
    const l = await insertListing(db, 0, n.id, 'moved.eth', 2n * ONE_ETH);
    await db.transaction().execute((trx) => onOwnershipChanged(trx, n.id, addressOf(3)));
    let row = await db.selectFrom('listings').select(['status', 'unfunded_reason', 'unfunded_at']).where('id', '=', l.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'unfunded');
    assert.equal(row.unfunded_reason, 'ownership_lost');
    assert.ok(row.unfunded_at);
    assert.equal((await nameRow(t, n.id)).owner_address, addressOf(3));
    assert.equal((await nameRow(t, n.id)).listing_price_wei, null);

    await db.transaction().execute((trx) => onOwnershipChanged(trx, n.id, addressOf(0).toUpperCase().replace('0X', '0x')));
    row = await db.selectFrom('listings').select(['status', 'unfunded_reason', 'unfunded_at']).where('id', '=', l.id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'active', unfunded_reason: null, unfunded_at: null });
    assert.equal((await nameRow(t, n.id)).listing_price_wei, (2n * ONE_ETH).toString());
    const events = await eventsOf(t, 'moved.eth');
    assert.deepEqual(events.map((e) => [e.event_type, e.actor_address, e.price_wei, e.metadata.listing_id, e.metadata.cause, e.metadata.previous_status]), [
      ['listing_unfunded', addressOf(0), (2n * ONE_ETH).toString(), l.id, 'ownership', 'active'],
      ['listing_restored', addressOf(0), (2n * ONE_ETH).toString(), l.id, 'ownership', 'unfunded'],
    ]);
  });

  it('a sold listing records the sale and tells the seller; cancelled orders leave the summaries', async () => {
    const db = t.container.db;
    const n = await createName(db, 'soldout.eth', { owner: addressOf(0) });
    const l = await insertListing(db, 0, n.id, 'soldout.eth', 3n * ONE_ETH);
    const soldAt = new Date();
    assert.equal(await db.transaction().execute((trx) => markListingSold(trx, l.id, { buyer: addressOf(4), txHash: `0x${'a'.repeat(64)}`, logIndex: 1, soldAt })), true);
    assert.equal(await db.transaction().execute((trx) => markListingSold(trx, l.id, { buyer: addressOf(4), txHash: `0x${'a'.repeat(64)}`, logIndex: 1, soldAt })), false);
    const sales = await db.selectFrom('sales').select(['seller_address', 'buyer_address', 'price_wei', 'listing_id']).where('ens_name_id', '=', n.id).execute();
    assert.deepEqual(sales, [{ seller_address: addressOf(0), buyer_address: addressOf(4), price_wei: (3n * ONE_ETH).toString(), listing_id: l.id }]);
    assert.equal((await nameRow(t, n.id)).last_sale_price_wei, (3n * ONE_ETH).toString());
    const notes = await db.selectFrom('notifications').select(['recipient_address', 'type']).where('ens_name_id', '=', n.id).execute();
    assert.deepEqual(notes, [{ recipient_address: addressOf(0), type: 'listing_sold' }]);

    const o = await insertOffer(db, 5, n.id, 'soldout.eth', ONE_ETH);
    assert.equal((await nameRow(t, n.id)).highest_offer_id, o.id);
    const result = await db.transaction().execute((trx) => cancelOrdersByHash(trx, [o.order_hash.toUpperCase().replace('0X', '0x')]));
    assert.deepEqual(result, { listings: 0, offers: 1 });
    assert.equal((await nameRow(t, n.id)).highest_offer_id, null);
  });

  it('the set-based refresh agrees with the per-name rules', async () => {
    const db = t.container.db;
    const n = await createName(db, 'bulk.eth', { owner: addressOf(0) });
    await db.insertInto('offers').values({
      ens_name_id: n.id, buyer_address: addressOf(6), offer_amount_wei: '777', currency_address: WETH,
      order_hash: `0x${'b'.repeat(64)}`, order_data: '{}', expires_at: new Date(Date.now() + DAY),
    }).execute();
    await db.updateTable('ens_names').set({ listing_price_wei: '1', listing_currency: WETH, listing_created_at: new Date() }).where('id', '=', n.id).execute();
    await refreshAllMarketSummaries(db);
    const row = await nameRow(t, n.id);
    assert.equal(row.highest_offer_wei, '777');
    assert.equal(row.listing_price_wei, null);
  });
});

describe('funds and ownership re-check against a JSON-RPC server', () => {
  const chain = new FakeChain();
  let t: TestContext;
  before(async () => {
    await chain.start();
    t = await createTestApp({ ETH_RPC_URL: chain.url });
  });
  after(async () => {
    await t?.close();
    await chain.stop();
  });

  it('moves an offer to unfunded when funds or approval go, and back when they return', async () => {
    const db = t.container.db;
    const n = await createName(db, 'funded.eth', { owner: addressOf(0) });
    const offer = await insertOffer(db, 1, n.id, 'funded.eth', ONE_ETH);
    const seaport = SEAPORT.seaportAddress;
    const buyer = addressOf(1);
    chain.balances.set(`${WETH}:${buyer}`, 2n * ONE_ETH);
    chain.allowances.set(`${WETH}:${buyer}:${seaport}`, 10n * ONE_ETH);

    const read = async () => db.selectFrom('offers').select(['status', 'unfunded_reason', 'unfunded_at', 'last_validated_at']).where('id', '=', offer.id).executeTakeFirstOrThrow();
    let result = await recheckOrders(t.container);
    assert.equal(result.failed, 0);
    let row = await read();
    assert.equal(row.status, 'pending');
    assert.ok(row.last_validated_at, 'checked');

    chain.balances.set(`${WETH}:${buyer}`, ONE_ETH / 2n);
    result = await recheckOrders(t.container, { offerIds: [offer.id] });
    row = await read();
    assert.equal(row.status, 'unfunded');
    assert.equal(row.unfunded_reason, 'insufficient_balance');
    assert.ok(row.unfunded_at);
    assert.equal((await nameRow(t, n.id)).highest_offer_id, null);
    const api = await t.app.inject({ method: 'GET', url: `/api/v1/offers/${offer.id}` });
    assert.equal(body(api).data.status, 'unfunded', show(api));

    chain.balances.set(`${WETH}:${buyer}`, 2n * ONE_ETH);
    result = await recheckOrders(t.container, { offerIds: [offer.id] });
    assert.equal(result.restored, 1);
    row = await read();
    assert.equal(row.status, 'pending');
    assert.equal(row.unfunded_reason, null);
    assert.equal((await nameRow(t, n.id)).highest_offer_id, offer.id);

    chain.allowances.set(`${WETH}:${buyer}:${seaport}`, 0n);
    await recheckOrders(t.container, { offerIds: [offer.id] });
    assert.equal((await read()).unfunded_reason, 'insufficient_allowance');
    chain.allowances.set(`${WETH}:${buyer}:${seaport}`, ONE_ETH);
    await recheckOrders(t.container, { offerIds: [offer.id] });
    assert.equal((await read()).status, 'pending');
    // each move one event; checks that moved nothing logged nothing
    const events = await eventsOf(t, 'funded.eth');
    assert.deepEqual(events.map((e) => [e.event_type, e.actor_address, e.price_wei, e.metadata.offer_id, e.metadata.cause]), [
      ['offer_unfunded', buyer, ONE_ETH.toString(), offer.id, 'funds'],
      ['offer_restored', buyer, ONE_ETH.toString(), offer.id, 'funds'],
      ['offer_unfunded', buyer, ONE_ETH.toString(), offer.id, 'funds'],
      ['offer_restored', buyer, ONE_ETH.toString(), offer.id, 'funds'],
    ]);
  });

  it('moves a listing to unfunded when the seller loses the token or the approval, and back', async () => {
    const db = t.container.db;
    const n = await createName(db, 'held.eth', { owner: addressOf(0) });
    const listing = await insertListing(db, 0, n.id, 'held.eth', ONE_ETH);
    const registrar = CONTRACTS.baseRegistrarAddress;
    const tokenId = parseEthName('held.eth').tokenId;
    chain.owners.set(`${registrar}:${tokenId}`, addressOf(0));
    chain.operators.set(`${registrar}:${addressOf(0)}:${SEAPORT.seaportAddress}`, true);
    const read = async () => db.selectFrom('listings').select(['status', 'unfunded_reason']).where('id', '=', listing.id).executeTakeFirstOrThrow();

    await recheckOrders(t.container, { listingIds: [listing.id] });
    assert.deepEqual(await read(), { status: 'active', unfunded_reason: null });
    chain.owners.delete(`${registrar}:${tokenId}`); // ownerOf reverts
    await recheckOrders(t.container, { listingIds: [listing.id] });
    assert.deepEqual(await read(), { status: 'unfunded', unfunded_reason: 'ownership_lost' });
    chain.owners.set(`${registrar}:${tokenId}`, addressOf(0));
    await recheckOrders(t.container, { listingIds: [listing.id] });
    assert.deepEqual(await read(), { status: 'active', unfunded_reason: null });
    chain.operators.set(`${registrar}:${addressOf(0)}:${SEAPORT.seaportAddress}`, false);
    await recheckOrders(t.container, { listingIds: [listing.id] });
    assert.deepEqual(await read(), { status: 'unfunded', unfunded_reason: 'not_approved' });
    const moves = ['listing_unfunded', 'listing_restored', 'listing_unfunded'];
    assert.deepEqual((await eventsOf(t, 'held.eth')).map((e) => e.event_type), moves);

    // approval back, but the name's recorded owner is someone else now: the listing stays unfunded and logs nothing
    await db.updateTable('ens_names').set({ owner_address: addressOf(5) }).where('id', '=', n.id).execute();
    chain.operators.set(`${registrar}:${addressOf(0)}:${SEAPORT.seaportAddress}`, true);
    assert.equal((await recheckOrders(t.container, { listingIds: [listing.id] })).restored, 0);
    assert.deepEqual(await read(), { status: 'unfunded', unfunded_reason: 'not_approved' });
    assert.deepEqual((await eventsOf(t, 'held.eth')).map((e) => e.event_type), moves);
  });

  it('a contract wallet (EIP-1271) lists with a signature its contract accepts', async () => {
    const wallet = '0x1111111111111111111111111111111111111111';
    await createName(t.container.db, 'walletname.eth', { owner: wallet });
    chain.acceptContractSignatures = true;
    const nonce = body(await t.app.inject({ method: 'GET', url: `/api/v1/auth/nonce?address=${wallet}` })).data.nonce;
    const message = createSiweMessage({ address: wallet, chainId: 1, domain: 'localhost', nonce, uri: 'http://localhost', version: '1' });
    const session = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', headers: { host: 'localhost' }, payload: { message, signature: await account(3).signMessage({ message }) } });
    assert.equal(session.statusCode, 200, show(session));
    const headers = { authorization: `Bearer ${body(session).data.accessToken}` };
    const now = Math.floor(Date.now() / 1000);
    const order = buildListingOrder({ seller: wallet, token: { wrapped: false, tokenId: parseEthName('walletname.eth').tokenId }, priceWei: ONE_ETH, currency: ETH, contracts: CONTRACTS, startTime: now - 60, endTime: now + 86_400, salt: '12345' });
    const signature = await account(3).signTypedData(orderTypedData(order, SEAPORT)); // an owner key of the wallet
    chain.acceptContractSignatures = false;
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/listings', headers, payload: { orderData: { parameters: order, signature } } });
    assert.equal(body(refused).error?.code, 'INVALID_SIGNATURE', show(refused));
    chain.acceptContractSignatures = true;
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/listings', headers, payload: { orderData: { parameters: order, signature } } });
    assert.equal(ok.statusCode, 201, show(ok));
    assert.equal(body(ok).data.seller_address, wallet);
  });

  it('a failed chain read leaves the order as it was', async () => {
    const db = t.container.db;
    const n = await createName(db, 'flaky.eth', { owner: addressOf(0) });
    const offer = await insertOffer(db, 2, n.id, 'flaky.eth', ONE_ETH);
    await chain.stop();
    const result = await recheckOrders(t.container, { offerIds: [offer.id] });
    assert.equal(result.failed, 1);
    assert.equal((await db.selectFrom('offers').select('status').where('id', '=', offer.id).executeTakeFirstOrThrow()).status, 'pending');
    assert.deepEqual(await eventsOf(t, 'flaky.eth'), []);
  });
});
