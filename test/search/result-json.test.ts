import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { addListing, addOffer, createSearchName, days, ETH, WETH } from '../helpers/search.js';
import { SearchResultFields } from '../../src/contracts/search-result.js';
import { Type } from 'typebox';

const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ONE_ETH = 10n ** 18n;

/**
 * A search result is written by PostgreSQL (search/results.ts: its JSON text) on search pages,
 * trending, broker pages and every list of names, and built in JavaScript (toResult) on the name
 * page: the two must agree field for field, and both with the schema.
 */
describe('search results written by PostgreSQL', () => {
  let t: TestContext;
  const names = ['plain.eth', 'listed7.eth', '🦊fox.eth', 'nolisting.eth'];

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    await createSearchName(db, 'plain.eth', { owner: addressOf(1) });
    const listed = await createSearchName(db, 'listed7.eth', {
      owner: addressOf(2), clubs: ['x', 'y'], votes: { up: 3, down: 1 },
      lastSale: { date: days(-3), priceWei: '123456789012345678901234567890', currency: WETH },
      listing: { priceWei: ONE_ETH.toString(), seller: addressOf(2), createdAt: days(-2), expiresAt: days(10) },
      offer: { amountWei: '5000000', buyer: addressOf(3), currency: USDC },
    });
    // a second listing, in USDC, brokered, with a stored order needing escapes; one past its end time (left out)
    const usdc = await addListing(db, listed.id, { priceWei: '2500000000', seller: addressOf(6), currency: USDC, createdAt: days(-1) });
    await sql`UPDATE listings SET broker_address = ${addressOf(4).toLowerCase()}, broker_fee_bps = 125, order_data = ${JSON.stringify({ note: 'a "quoted"\\ line\n', n: 1 })}::jsonb WHERE id = ${usdc.id}`.execute(db);
    await addListing(db, listed.id, { priceWei: '1', seller: addressOf(7), createdAt: days(-1), expiresAt: days(-0.5) });
    await createSearchName(db, '🦊fox.eth', { owner: addressOf(3), expiryDate: days(-20), listing: { priceWei: '7', seller: addressOf(3), currency: ETH } });
    await createSearchName(db, 'nolisting.eth', {});
    await addOffer(db, listed.id, { amountWei: '1', buyer: addressOf(1) });
  });
  after(async () => { await t?.close(); });

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('uint256', true);
  const { is_user_watching: _w, user_vote: _v, ...anonymous } = SearchResultFields;
  const validAnonymous = ajv.compile(Type.Object(anonymous, { additionalProperties: false }));
  const validSignedIn = ajv.compile(Type.Object({ ...anonymous, is_user_watching: Type.Boolean(), user_vote: SearchResultFields.user_vote }, { additionalProperties: false }));

  /** The name page's own result fields (it shows its listings and offers in its own shapes). */
  async function namePage(name: string, headers: Record<string, string> = {}) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/names/${encodeURIComponent(name)}`, headers });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data;
  }

  it('a search page writes every field of the schema, as the name page shows them', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/search?limit=100' });
    assert.equal(res.statusCode, 200, show(res));
    const results = body(res).data.results as Array<Record<string, unknown>>;
    assert.deepEqual(results.map((r) => r.name).sort(), [...names].sort());
    for (const r of results) {
      assert.ok(validAnonymous(r), `${JSON.stringify(validAnonymous.errors)} ${JSON.stringify(r)}`);
      const page = await namePage(r.name as string);
      for (const key of Object.keys(anonymous)) {
        if (key !== 'listings') assert.deepEqual(r[key], page[key], `${r.name as string}: ${key}`);
      }
    }
    const listed = results.find((r) => r.name === 'listed7.eth')!;
    assert.deepEqual(listed.clubs, ['x', 'y']);
    assert.equal(listed.has_numbers, true);
    assert.equal(listed.last_sale_price, '123456789012345678901234567890');
    assert.equal(listed.highest_offer_wei, '5000000');
    const listings = listed.listings as Array<Record<string, unknown>>;
    assert.equal(listings.length, 2, 'the ended listing is left out');
    assert.deepEqual(listings[0], {
      id: listings[0].id, price: '2500000000', currency_address: USDC, currency_symbol: 'USDC', currency_decimals: 6, seller_address: addressOf(6).toLowerCase(),
      order_hash: listings[0].order_hash, order_data: { note: 'a "quoted"\\ line\n', n: 1 }, expires_at: null, source: 'grails',
      broker_address: addressOf(4).toLowerCase(), broker_fee_bps: 125,
    }, 'newest first');
    assert.equal(listings[1].price, ONE_ETH.toString());
    assert.equal(listings[1].currency_symbol, 'ETH');
    assert.equal(listings[1].expires_at, (await namePage('listed7.eth')).listings.find((l: { id: number }) => l.id === listings[1].id).expires_at);

    // the broker's page: the same result, with only the broker's listings, each with its status and creation time
    const brokered = await t.app.inject({ method: 'GET', url: `/api/v1/brokered-listings/broker/${addressOf(4)}` });
    assert.equal(brokered.statusCode, 200, show(brokered));
    const [mine] = body(brokered).data.results as Array<Record<string, unknown>>;
    const { listings: brokerListings, ...rest } = mine;
    const { listings: _all, ...standard } = listed;
    assert.deepEqual(rest, standard);
    const created = await t.container.db.selectFrom('listings').select('created_at').where('id', '=', listings[0].id as number).executeTakeFirstOrThrow();
    assert.deepEqual(brokerListings, [{ ...listings[0], status: 'active', created_at: created.created_at.toISOString() }]);
  });

  it('signed in, each result carries the caller\'s vote and watch, and trending and bulk write the same results', async () => {
    const me = await signIn(t.app, 5);
    const vote = await t.app.inject({ method: 'POST', url: '/api/v1/votes', headers: me.headers, payload: { ensName: 'listed7.eth', vote: 1 } });
    assert.equal(vote.statusCode, 200, show(vote));
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/search?limit=100', headers: me.headers });
    const results = body(res).data.results as Array<Record<string, unknown>>;
    for (const r of results) {
      assert.ok(validSignedIn(r), `${JSON.stringify(validSignedIn.errors)} ${JSON.stringify(r)}`);
      assert.equal(r.user_vote, r.name === 'listed7.eth' ? 1 : null);
      assert.equal(r.is_user_watching, false);
    }
    const anonymous = body(await t.app.inject({ method: 'GET', url: '/api/v1/search?limit=100' })).data.results as Array<Record<string, unknown>>;
    const trending = body(await t.app.inject({ method: 'GET', url: '/api/v1/trending/votes?period=24h', headers: me.headers })).data.names as Array<Record<string, unknown>>;
    assert.equal(trending.length, 1, JSON.stringify(trending));
    const { trending_metrics: metrics, ...result } = trending[0];
    assert.deepEqual(result, results.find((r) => r.name === 'listed7.eth'));
    assert.deepEqual(metrics, { period: '24h', period_upvotes: 1, period_downvotes: 0, period_votes: 1, net_score_total: 3 });
    const bulk = await t.app.inject({ method: 'POST', url: '/api/v1/search/bulk', payload: { terms: names } });
    assert.equal(bulk.statusCode, 200, show(bulk));
    assert.deepEqual(body(bulk).data.results, names.map((n) => anonymous.find((r) => r.name === n)));
  });

  it('a page read again shows every change since: the name, a new listing, a listing\'s change, its end time passing', async () => {
    const db = t.container.db;
    const plain = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/search?limit=100' });
      assert.equal(res.statusCode, 200, show(res));
      return (body(res).data.results as Array<Record<string, unknown>>).find((r) => r.name === 'plain.eth')!;
    };
    const first = await plain();
    assert.deepEqual(await plain(), first, 'read twice, the same');
    await sql`UPDATE ens_names SET upvotes = upvotes + 2 WHERE name = 'plain.eth'`.execute(db);
    assert.equal((await plain()).upvotes, (first.upvotes as number) + 2);

    const { id: nameId } = await db.selectFrom('ens_names').select('id').where('name', '=', 'plain.eth').executeTakeFirstOrThrow();
    const added = await addListing(db, nameId, { priceWei: '42', seller: addressOf(1), expiresAt: new Date(Date.now() + 1_500) });
    // an id past 32 bits, as a busy market's ids will be
    const listing = await db.updateTable('listings').set({ id: 3_000_000_003 }).where('id', '=', added.id).returning('id').executeTakeFirstOrThrow();
    const listed = await plain();
    assert.deepEqual((listed.listings as Array<{ id: number }>).map((l) => l.id), [listing.id]);
    await db.updateTable('listings').set({ broker_fee_bps: 77 }).where('id', '=', listing.id).execute();
    assert.equal((await plain() as { listings: Array<{ broker_fee_bps: number }> }).listings[0].broker_fee_bps, 77);

    // no write: the end time passes, and the name's listings no longer show it
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse((listed.listings as Array<{ expires_at: string }>)[0].expires_at) - Date.now() + 50)));
    assert.deepEqual(await plain(), { ...first, upvotes: (first.upvotes as number) + 2, net_score: (first.net_score as number) + 2 });
  });
});
