import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { account, addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, USDC, WETH, signOrder, signedListing, signedOffer } from '../helpers/marketplace.js';
import { buildListingOrder, orderTypedData } from '../../src/lib/seaport.js';

const SEAPORT_ADDRESS = '0x0000000000000068F116a894984e2DB1123eB395';
const SEAPORT_1_5 = '0x00000000000000ADc04C56Bf30aC9d3c0aAF14dC';
import { parseEthName } from '../../src/lib/ens.js';

describe('creating listings and offers from signed Seaport orders', () => {
  let t: TestContext;
  let seller: SignedIn;
  let buyer: SignedIn;
  before(async () => {
    t = await createTestApp();
    seller = await signIn(t.app, 0);
    buyer = await signIn(t.app, 1);
  });
  after(async () => { await t?.close(); });

  const post = (url: string, who: SignedIn | undefined, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: who?.headers ?? {}, payload });

  function assertError(res: Awaited<ReturnType<typeof post>>, status: number, code: string) {
    assert.equal(res.statusCode, status, show(res));
    assert.equal(body(res).error.code, code, show(res));
  }

  it('stores a valid listing with price, currency, end time and hash taken from the order', async () => {
    const name = await createName(t.container.db, 'orderone.eth', { owner: addressOf(0) });
    const signed = await signedListing(0, 'orderone.eth', 2n * ONE_ETH, { fee: { recipient: addressOf(7), bps: 250 } });
    const res = await post('/api/v1/listings', seller, { orderData: signed.orderData, source: 'grails', ensNameId: name.id, priceWei: (2n * ONE_ETH).toString() });
    assert.equal(res.statusCode, 201, show(res));
    const l = body(res).data;
    assert.equal(l.ens_name_id, name.id);
    assert.equal(l.ens_name, 'orderone.eth');
    assert.equal(l.seller_address, addressOf(0));
    assert.equal(l.price_wei, (2n * ONE_ETH).toString());
    assert.equal(l.currency_address, '0x0000000000000000000000000000000000000000');
    assert.equal(l.order_hash, signed.hash);
    assert.equal(l.status, 'active');
    assert.equal(l.broker_address, addressOf(7));
    assert.equal(l.broker_fee_bps, 250);
    assert.equal(Date.parse(l.expires_at) / 1000, Number(signed.orderData.parameters.endTime));
    assert.equal(l.current_owner, addressOf(0));
    assert.equal(l.token_id, parseEthName('orderone.eth').tokenId);
    assert.deepEqual(l.order_data.signature, signed.orderData.signature);

    const n = await t.container.db.selectFrom('ens_names').select(['listing_price_wei', 'listing_currency']).where('id', '=', name.id).executeTakeFirstOrThrow();
    assert.equal(n.listing_price_wei, (2n * ONE_ETH).toString());

    const again = await post('/api/v1/listings', seller, { orderData: signed.orderData });
    assertError(again, 409, 'DUPLICATE_ORDER');
  });

  it('a new listing by the same seller replaces the old one', async () => {
    await createName(t.container.db, 'replace.eth', { owner: addressOf(0) });
    const first = body(await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'replace.eth', ONE_ETH)).orderData })).data;
    const second = await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'replace.eth', 3n * ONE_ETH)).orderData });
    assert.equal(second.statusCode, 201, show(second));
    const old = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${first.id}` });
    assert.equal(body(old).data.status, 'cancelled', show(old));
    const active = await t.app.inject({ method: 'GET', url: '/api/v1/listings/name/replace.eth' });
    assert.deepEqual(body(active).data.map((l: { id: number }) => l.id), [body(second).data.id]);
  });

  it('a listing of a wrapped name uses the NameWrapper token (namehash)', async () => {
    const name = await createName(t.container.db, 'wrapped.eth', { owner: addressOf(0) });
    await t.container.db.updateTable('ens_names').set({ wrapped: true }).where('id', '=', name.id).execute();
    const unwrappedToken = await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'wrapped.eth', ONE_ETH)).orderData });
    assertError(unwrappedToken, 400, 'INVALID_ORDER');
    const res = await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'wrapped.eth', ONE_ETH, { wrapped: true })).orderData });
    assert.equal(res.statusCode, 201, show(res));
  });

  it('refuses a tampered signature', async () => {
    await createName(t.container.db, 'tamper.eth', { owner: addressOf(0) });
    const signed = await signedListing(0, 'tamper.eth', ONE_ETH);
    const sig = signed.orderData.signature;
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}`;
    assertError(await post('/api/v1/listings', seller, { orderData: { ...signed.orderData, signature: flipped } }), 400, 'INVALID_SIGNATURE');
    // a changed price under the original signature
    const changed = { ...signed.orderData.parameters, consideration: [{ ...signed.orderData.parameters.consideration[0], startAmount: '1', endAmount: '1' }] };
    assertError(await post('/api/v1/listings', seller, { orderData: { parameters: changed, signature: sig } }), 400, 'INVALID_SIGNATURE');
    // signed by someone else for the seller's address
    const byOther = await signOrder(2, signed.orderData.parameters);
    assertError(await post('/api/v1/listings', seller, { orderData: byOther.orderData }), 400, 'INVALID_SIGNATURE');
  });

  it('a refused signature says what the service expected and which part of the domain disagreed', async () => {
    await createName(t.container.db, 'domain.eth', { owner: addressOf(0) });
    const signed = await signedListing(0, 'domain.eth', ONE_ETH);
    const parameters = signed.orderData.parameters;
    const sepolia = await account(0).signTypedData(orderTypedData(parameters, { chainId: 11155111, seaportAddress: SEAPORT_ADDRESS }));
    const res = await post('/api/v1/listings', seller, { orderData: { parameters, signature: sepolia } });
    assertError(res, 400, 'INVALID_SIGNATURE');
    const details = body(res).error.details;
    assert.match(body(res).error.message, /signed for chain 11155111; this service takes chain 1/);
    assert.equal(details.field, 'body.orderData.signature');
    assert.equal(details.disagrees, 'domain.chainId');
    assert.deepEqual(details.expected.domain, { name: 'Seaport', version: '1.6', chainId: 1, verifyingContract: SEAPORT_ADDRESS.toLowerCase() });
    assert.equal(details.expected.signer, addressOf(0).toLowerCase());
    assert.equal(details.expected.orderHash, signed.hash);
    assert.equal(details.signedFor.chainId, 11155111);

    const oldSeaport = await account(0).signTypedData({ ...orderTypedData(parameters, { chainId: 1, seaportAddress: SEAPORT_1_5 }), domain: { name: 'Seaport', version: '1.5', chainId: 1, verifyingContract: SEAPORT_1_5 } });
    const old = await post('/api/v1/listings', seller, { orderData: { parameters, signature: oldSeaport } });
    assertError(old, 400, 'INVALID_SIGNATURE');
    assert.equal(body(old).error.details.disagrees, 'domain.version', show(old));
    assert.match(body(old).error.message, /signed for Seaport 1\.5/);

    const byOther = await signOrder(2, parameters);
    const other = await post('/api/v1/listings', seller, { orderData: byOther.orderData });
    assertError(other, 400, 'INVALID_SIGNATURE');
    assert.equal(body(other).error.details.disagrees, 'signer');
    assert.equal(body(other).error.details.recoveredSigner, addressOf(2).toLowerCase(), show(other));
  });

  it('a refused order names the field, what it expected and what came', async () => {
    await createName(t.container.db, 'expects.eth', { owner: addressOf(0) });
    const signed = await signedListing(0, 'expects.eth', ONE_ETH);
    const claim = await post('/api/v1/listings', seller, { orderData: signed.orderData, priceWei: '5' });
    assertError(claim, 400, 'INVALID_ORDER');
    assert.deepEqual(body(claim).error.details, { reason: 'claim_mismatch', field: 'body.priceWei', expected: ONE_ETH.toString(), got: '5' });
    const notMine = await post('/api/v1/listings', buyer, { orderData: signed.orderData });
    assertError(notMine, 400, 'INVALID_ORDER');
    assert.equal(body(notMine).error.details.expected, addressOf(1).toLowerCase());
    assert.equal(body(notMine).error.details.got, addressOf(0).toLowerCase());
  });

  it('refuses an order whose offerer is not the caller', async () => {
    await createName(t.container.db, 'notmine.eth', { owner: addressOf(1) });
    const signed = await signedListing(1, 'notmine.eth', ONE_ETH);
    assertError(await post('/api/v1/listings', seller, { orderData: signed.orderData }), 400, 'INVALID_ORDER');
    const offer = await signedOffer(0, 'notmine.eth', ONE_ETH);
    assertError(await post('/api/v1/offers', buyer, { orderData: offer.orderData }), 400, 'INVALID_ORDER');
  });

  it('refuses a listing by a seller who does not own the name', async () => {
    await createName(t.container.db, 'someoneelse.eth', { owner: addressOf(3) });
    const signed = await signedListing(0, 'someoneelse.eth', ONE_ETH);
    assertError(await post('/api/v1/listings', seller, { orderData: signed.orderData }), 400, 'NOT_OWNER');
  });

  it('refuses currencies that are not accepted', async () => {
    await createName(t.container.db, 'currency.eth', { owner: addressOf(0) });
    const dai = '0x6b175474e89094c44da98b954eedeac495271d0f';
    assertError(await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'currency.eth', ONE_ETH, { currency: dai })).orderData }), 400, 'UNSUPPORTED_CURRENCY');
    assertError(await post('/api/v1/offers', buyer, { orderData: (await signedOffer(1, 'currency.eth', ONE_ETH, { currency: dai })).orderData }), 400, 'UNSUPPORTED_CURRENCY');
    const usdc = await post('/api/v1/offers', buyer, { orderData: (await signedOffer(1, 'currency.eth', 1000n * 10n ** 6n, { currency: USDC })).orderData });
    assert.equal(usdc.statusCode, 201, show(usdc));
  });

  it('refuses flat claims that disagree with the signed order', async () => {
    const name = await createName(t.container.db, 'claims.eth', { owner: addressOf(0) });
    const signed = await signedListing(0, 'claims.eth', ONE_ETH);
    for (const claim of [{ priceWei: '5' }, { ensNameId: name.id + 1000 }, { sellerAddress: addressOf(4) }, { currencyAddress: WETH }, { expiresAt: new Date(0).toISOString() }, { orderHash: `0x${'1'.repeat(64)}` }]) {
      assertError(await post('/api/v1/listings', seller, { orderData: signed.orderData, ...claim }), 400, 'INVALID_ORDER');
    }
    const ok = await post('/api/v1/listings', seller, {
      orderData: signed.orderData, ensNameId: name.id, sellerAddress: addressOf(0).toUpperCase().replace('0X', '0x'), priceWei: ONE_ETH.toString(),
      currencyAddress: '0x0000000000000000000000000000000000000000', expiresAt: new Date(Number(signed.orderData.parameters.endTime) * 1000).toISOString(), orderHash: signed.hash,
    });
    assert.equal(ok.statusCode, 201, show(ok));
  });

  it('refuses orders that are not a name for one currency, ended, or unknown names', async () => {
    await createName(t.container.db, 'shape.eth', { owner: addressOf(0) });
    const now = Math.floor(Date.now() / 1000);
    assertError(await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'shape.eth', ONE_ETH, { startTime: now - 100, endTime: now - 10 })).orderData }), 400, 'INVALID_ORDER');
    const mixed = buildListingOrder({ seller: addressOf(0), token: { wrapped: false, tokenId: parseEthName('shape.eth').tokenId }, priceWei: ONE_ETH, currency: '0x0000000000000000000000000000000000000000', contracts: { baseRegistrarAddress: '0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85', nameWrapperAddress: '0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401' }, startTime: now, endTime: now + 1000, salt: '77' });
    mixed.consideration.push({ itemType: 1, token: WETH, identifierOrCriteria: '0', startAmount: '5', endAmount: '5', recipient: addressOf(0) });
    assertError(await post('/api/v1/listings', seller, { orderData: (await signOrder(0, mixed)).orderData }), 400, 'INVALID_ORDER');
    assertError(await post('/api/v1/listings', seller, { orderData: (await signedListing(0, 'nosuchname.eth', ONE_ETH)).orderData }), 404, 'ENS_NAME_NOT_FOUND');
    const malformed = await post('/api/v1/listings', seller, { orderData: { parameters: { offerer: addressOf(0) }, signature: '0x12' } });
    assertError(malformed, 400, 'VALIDATION_ERROR');
  });

  it('refuses anonymous and badly authenticated requests', async () => {
    const signed = await signedListing(0, 'orderone.eth', ONE_ETH);
    assertError(await post('/api/v1/listings', undefined, { orderData: signed.orderData }), 401, 'UNAUTHORIZED');
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: { authorization: 'Bearer nope.nope.nope' }, payload: { orderData: signed.orderData } });
    assertError(bad, 401, 'UNAUTHORIZED');
  });

  it('stores a valid offer, sets the highest offer and notifies the owner', async () => {
    const name = await createName(t.container.db, 'offered.eth', { owner: addressOf(0) });
    const signed = await signedOffer(1, 'offered.eth', 3n * ONE_ETH, { fee: { recipient: addressOf(7), bps: 100 } });
    const res = await post('/api/v1/offers', buyer, { orderData: signed.orderData, ensNameId: name.id, buyerAddress: addressOf(1), offerAmountWei: (3n * ONE_ETH).toString(), currencyAddress: WETH });
    assert.equal(res.statusCode, 201, show(res));
    const o = body(res).data;
    assert.equal(o.status, 'pending');
    assert.equal(o.buyer_address, addressOf(1));
    assert.equal(o.offer_amount_wei, (3n * ONE_ETH).toString());
    assert.equal(o.currency_address, WETH);
    assert.equal(o.order_hash, signed.hash);
    assert.equal(o.name, 'offered.eth');
    assert.equal(o.token_id, parseEthName('offered.eth').tokenId);

    const n = await t.container.db.selectFrom('ens_names').select(['highest_offer_wei', 'highest_offer_id', 'highest_offer_currency']).where('id', '=', name.id).executeTakeFirstOrThrow();
    assert.deepEqual(n, { highest_offer_wei: (3n * ONE_ETH).toString(), highest_offer_id: o.id, highest_offer_currency: WETH });
    const notes = await t.container.db.selectFrom('notifications').select(['recipient_address', 'type', 'ens_name_id']).where('ens_name_id', '=', name.id).execute();
    assert.deepEqual(notes, [{ recipient_address: addressOf(0), type: 'offer_received', ens_name_id: name.id }]);

    assertError(await post('/api/v1/offers', buyer, { orderData: signed.orderData }), 409, 'DUPLICATE_ORDER');
    const own = await signedOffer(0, 'offered.eth', ONE_ETH);
    assertError(await post('/api/v1/offers', seller, { orderData: own.orderData }), 400, 'INVALID_ORDER');
    const tampered = { ...signed.orderData, parameters: { ...signed.orderData.parameters, salt: '1' } };
    assertError(await post('/api/v1/offers', buyer, { orderData: tampered }), 400, 'INVALID_SIGNATURE');
  });

  it('amounts must be strings, so no digits are lost', async () => {
    const signed = await signedOffer(1, 'offered.eth', 7n * ONE_ETH);
    const res = await post('/api/v1/offers', buyer, { orderData: signed.orderData, offerAmountWei: 7e18 });
    assertError(res, 400, 'VALIDATION_ERROR');
  });
});
