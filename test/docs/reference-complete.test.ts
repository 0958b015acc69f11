import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { verifyTypedData } from 'viem';
import { OFFER_EXAMPLE, OFFER_EXAMPLE_HASH, ORDER_EXAMPLE, ORDER_EXAMPLE_HASH } from '../../src/contracts/order.js';
import { orderHash, orderTypedData, type OrderComponents } from '../../src/lib/seaport.js';
import { addressOf } from '../helpers/accounts.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { referenceGaps, type Schema } from '../helpers/reference.js';

/**
 * The reference at /docs is generated from the route schemas; this test keeps it worth reading.
 * It prints everything a route lacks, one line each, so a new route's author sees what to add:
 * names and operationIds in src/contracts/operations.ts, field words in the route's schema or,
 * for a field that means the same everywhere, in src/contracts/glossary.ts.
 */
describe('the reference at /docs', () => {
  let t: TestContext;
  let doc: Schema;
  before(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    doc = JSON.parse(res.body);
  });
  after(async () => { await t?.close(); });

  it('every route has an operationId, named responses, its errors, meta.version, and a description and an example for every field', () => {
    const gaps = referenceGaps(doc);
    assert.equal(gaps.length, 0, `${gaps.length} gaps in the reference (names: src/contracts/operations.ts; fields: the schemas in src/contracts/):\n${gaps.join('\n')}`);
  });

  it('every route schema compiles: validators and the serializer of every declared status (they compile on first use)', () => {
    assert.doesNotThrow(() => t.app.compileSchemas());
  });

  it('optional sign-in is shown as optional, required as required', () => {
    const security = (path: string, method: string) => JSON.stringify(doc.paths[path][method].security ?? []);
    assert.equal(security('/api/v1/search', 'get'), JSON.stringify([{}, { bearerAuth: [] }]));
    assert.equal(security('/api/v1/votes/{ensName}', 'get'), JSON.stringify([{}, { bearerAuth: [] }]));
    assert.equal(security('/api/v1/offers/{id}', 'put'), JSON.stringify([{ bearerAuth: [] }]));
    assert.equal(security('/api/v1/listings', 'get'), '[]');
  });

  it('the error responses of a route are its catalogue codes, each with an example body', () => {
    const put = doc.paths['/api/v1/offers/{id}'].put.responses;
    assert.match(put['404'].description, /OFFER_NOT_FOUND/);
    assert.match(put['403'].description, /FORBIDDEN/);
    assert.equal(put['404'].content['application/json'].example.error.code, 'OFFER_NOT_FOUND');
  });

  it('the example orders are real ones: a listing by demo account 0 and an offer by account 1, with the hashes the service computes', async () => {
    for (const [example, hash, signer] of [[ORDER_EXAMPLE, ORDER_EXAMPLE_HASH, 0], [OFFER_EXAMPLE, OFFER_EXAMPLE_HASH, 1]] as const) {
      const parameters = JSON.parse(JSON.stringify(example.parameters)) as OrderComponents;
      const typed = orderTypedData(parameters, { chainId: 1, seaportAddress: '0x0000000000000068F116a894984e2DB1123eB395' });
      assert.ok(await verifyTypedData({ address: addressOf(signer), signature: example.signature, ...typed }));
      assert.equal(orderHash(parameters), hash);
    }
  });
});
