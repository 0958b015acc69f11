import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { encodeAbiParameters, labelhash } from 'viem';
import { main } from '../../examples/trade.js';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { startJsonRpcServer, type RpcServer } from '../helpers/json-rpc.js';

/** The README's TypeScript example (examples/trade.ts), run as is against the service on a real port. */
describe('README example: sign in, list and offer with signed Seaport orders', () => {
  let t: TestContext;
  let baseUrl: string;
  let rpc: RpcServer;

  before(async () => {
    t = await createTestApp();
    await createName(t.container.db, 'example.eth', { owner: addressOf(0) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    baseUrl = `http://127.0.0.1:${address.port}`;
    // Seaport's getCounter answers 7 for every offerer.
    rpc = await startJsonRpcServer((method) => {
      if (method === 'eth_call') return encodeAbiParameters([{ type: 'uint256' }], [7n]);
      if (method === 'eth_chainId') return '0x1';
      throw new Error(`unexpected ${method}`);
    });
  });
  after(async () => {
    await rpc?.close();
    await t?.close();
  });

  it('lists a name of demo account 0 and makes an offer on it from account 1; the service stores both orders', async () => {
    const { listing, offer } = await main(baseUrl, rpc.url);
    assert.equal(listing.ens_name, 'example.eth');
    assert.equal(listing.price_wei, '500000000000000000');
    assert.equal(offer.name, 'example.eth');
    assert.equal(offer.offer_amount_wei, '200000000000000000');

    const stored = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${listing.id}` });
    assert.equal(stored.statusCode, 200, show(stored));
    const l = body(stored).data;
    assert.equal(l.status, 'active');
    assert.equal(l.seller_address, addressOf(0));
    assert.equal(l.order_data.parameters.counter, '7', 'the counter read from Seaport');
    assert.equal(l.order_data.parameters.offer[0].identifierOrCriteria, BigInt(labelhash('example')).toString(), 'registrar token id = labelhash');

    const offers = await t.app.inject({ method: 'GET', url: '/api/v1/offers/name/example.eth' });
    assert.equal(offers.statusCode, 200, show(offers));
    const o = body(offers).data.offers;
    assert.equal(o.length, 1, show(offers));
    assert.equal(o[0].buyer_address, addressOf(1));
    assert.equal(o[0].status, 'pending');
  });
});

describe('README example is the tested file', () => {
  it('the TypeScript block under "Orders in code" is examples/trade.ts, character for character', () => {
    const readme = readFileSync('README.md', 'utf8');
    const file = readFileSync('examples/trade.ts', 'utf8');
    const block = /## Orders in code[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(block, 'README has a ```ts block under "## Orders in code"');
    assert.equal(block, file, 'copy examples/trade.ts into the README block');
  });
});
