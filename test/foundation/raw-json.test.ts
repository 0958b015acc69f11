import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, insertListing, insertOffer } from '../helpers/marketplace.js';
import fc from 'fast-check';
import { jsonArray, RawJson, utf8 } from '../../src/lib/raw-json.js';
import { ResultJson } from '../../src/search/results.js';

/**
 * Pages of listings and offers write each signed order as its stored JSON text (lib/raw-json.ts):
 * what a client reads must be the stored order exactly, whatever its strings hold.
 */
describe('signed orders written as stored', () => {
  let t: TestContext;
  const listingIds: number[] = [];
  let offerId = 0;
  // strings a splice could trip on: the placeholder's own escape as text, quotes, backslashes, line separators, emoji
  const ODD = { note: 'a "quoted" \\u0000 back\\slash \u2028 🦊 ', list: ['\\u0000', '"\\u0000"', { '\\u0000': '' }], n: 1.5e300 };

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    // the third is beyond Latin-1 (a two-byte string in JavaScript, 4-byte characters in UTF-8)
    for (const [i, name] of ['rawone.eth', 'rawtwo.eth', 'raw🦊中.eth'].entries()) {
      const n = await createName(db, name, { owner: addressOf(0) });
      listingIds.push((await insertListing(db, 0, n.id, name, BigInt(i + 1) * ONE_ETH)).id);
      if (i === 0) offerId = (await insertOffer(db, 1, n.id, name, ONE_ETH / 2n)).id;
    }
    await sql`UPDATE listings SET order_data = order_data || ${JSON.stringify(ODD)}::jsonb WHERE id = ${listingIds[1]}`.execute(db);
    await sql`UPDATE offers SET order_data = order_data || ${JSON.stringify(ODD)}::jsonb WHERE id = ${offerId}`.execute(db);
  });
  after(async () => { await t?.close(); });

  async function stored(table: 'listings' | 'offers', id: number): Promise<unknown> {
    const { rows } = await sql<{ order_data: unknown }>`SELECT order_data FROM ${sql.table(table)} WHERE id = ${id}`.execute(t.container.db);
    return rows[0]!.order_data;
  }

  async function get(url: string) {
    const res = await t.app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data;
  }

  it('a page of listings carries each stored order, odd strings and all', async () => {
    const data = await get(`/api/v1/listings?seller=${addressOf(0)}&sort=price&order=asc`);
    assert.deepEqual(data.listings.map((l: { id: number }) => l.id), listingIds);
    for (const l of data.listings) assert.deepEqual(l.order_data, await stored('listings', l.id));
    assert.equal(data.listings[1].order_data.note, ODD.note);
    assert.deepEqual(data.listings[1].order_data.list, ODD.list);
    assert.equal(typeof data.listings[0].order_data.parameters, 'object');
  });

  it('so do one listing, a page of offers and an order looked up by id', async () => {
    assert.deepEqual((await get(`/api/v1/listings/${listingIds[1]}`)).order_data, await stored('listings', listingIds[1]!));
    const offers = (await get(`/api/v1/offers?buyer=${addressOf(1)}`)).offers;
    assert.deepEqual(offers.map((o: { id: number }) => o.id), [offerId]);
    assert.deepEqual(offers[0].order_data, await stored('offers', offerId));
    assert.deepEqual((await get(`/api/v1/orders/${listingIds[1]}`)).order_data, await stored('listings', listingIds[1]!));
  });

  it('so do the name page (its listings and offers) and a search result', async () => {
    const page = await get('/api/v1/names/rawtwo.eth');
    assert.deepEqual(page.listings.map((l: { id: number }) => l.id), [listingIds[1]]);
    assert.deepEqual(page.listings[0].order_data, await stored('listings', listingIds[1]!));
    const withOffer = await get('/api/v1/names/rawone.eth');
    assert.deepEqual(withOffer.offers.map((o: { id: number }) => o.id), [offerId]);
    assert.deepEqual(withOffer.offers[0].order_data, await stored('offers', offerId));
    const found = (await get('/api/v1/search?q=rawtwo')).results.find((r: { name: string }) => r.name === 'rawtwo.eth');
    assert.deepEqual(found.listings[0].order_data, await stored('listings', listingIds[1]!));
  });

  it('outside a response a RawJson serializes as the value its text holds', () => {
    const text = JSON.stringify(ODD);
    assert.equal(JSON.stringify({ order: new RawJson(text), other: '\u0000' }), `{"order":${text},"other":"\\u0000"}`);
    assert.deepEqual(new RawJson(text).value(), ODD);
    assert.deepEqual(JSON.parse(JSON.stringify({ rows: jsonArray([text, '{"b":"🦊"}']) })), { rows: [ODD, { b: '🦊' }] });
    assert.equal(jsonArray([]).json, '[]');
    // a result with fields added after its own, as text, as a value and as a response writes it
    const result = new ResultJson('{"id":1,"name":"a🦊.eth"}', 1, 'a🦊.eth', null).with({ n: 1 }).with({}).with({ u: 'ü', v: null });
    assert.equal(result.json, '{"id":1,"name":"a🦊.eth","n":1,"u":"ü","v":null}');
    assert.equal(utf8(result.pieces()).toString(), result.json);
    assert.equal(JSON.stringify([result]), `[${result.json}]`);
  });

  it('a page is sent as its UTF-8 bytes: names and orders beyond ASCII intact, Content-Length their count', async () => {
    const pages = [`/api/v1/listings?seller=${addressOf(0)}&sort=price&order=asc`, '/api/v1/search?q=raw'];
    // each page three times: read first, read again, and sent from its kept bytes (a search page)
    for (const url of [...pages, ...pages, ...pages, `/api/v1/listings/${listingIds[2]}`, `/api/v1/listings/${listingIds[1]}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, show(res));
      assert.equal(Number(res.headers['content-length']), res.rawPayload.length, url);
      assert.equal(res.rawPayload.toString('utf8'), res.body);
      // the name, and the odd order's fox
      if (url !== `/api/v1/listings/${listingIds[1]}`) assert.match(res.body, /"raw🦊中\.eth"/, url);
      if (url !== `/api/v1/listings/${listingIds[2]}`) assert.match(res.body, /🦊 /, url);
    }
    const data = await get(`/api/v1/listings?seller=${addressOf(0)}&sort=price&order=asc`);
    assert.deepEqual(data.listings.map((l: { ens_name: string }) => l.ens_name), ['rawone.eth', 'rawtwo.eth', 'raw🦊中.eth']);
  });

  it('the bytes of pieces written one after another are those of their joined text, at any size', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.boolean()), { maxLength: 30 }), (given) => {
      // a piece given as its bytes is written as they are
      const pieces = given.map(([text, asBytes]) => (asBytes ? Buffer.from(text) : text));
      assert.deepEqual(utf8(pieces), Buffer.from(given.map(([text]) => text).join('')));
    }), { numRuns: 500 });
    // past the size given room for its longest encoding, measured first
    const big = ['é'.repeat(1_000_000), '🦊'.repeat(300_000), 'a'.repeat(500_000)];
    assert.deepEqual(utf8(big), Buffer.from(big.join('')));
  });
});
