import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { account, addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, USDC, WETH, insertListing } from '../helpers/marketplace.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { Listing } from '../../src/contracts/listings.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('GET /api/v1/listings', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};
  const nameIds: Record<string, number> = {};

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    const now = Date.now();
    // key → [name, seller, price (wei), created, listing end, status, name expiry]
    const rows: Array<[string, string, number, bigint, number, number | null, string, number?]> = [
      ['L1', 'alpha.eth', 0, 2n * ONE_ETH, -5 * HOUR, 10 * DAY, 'active'],
      ['L2', 'bravo.eth', 1, 10n * ONE_ETH, -4 * HOUR, 5 * DAY, 'active'],
      ['L3', 'charlie.eth', 0, ONE_ETH / 2n, -3 * HOUR, null, 'active'],
      ['L4', 'delta.eth', 2, 3n * ONE_ETH, -2 * HOUR, 1 * DAY, 'active', -10 * DAY], // name in grace: shown
      ['L5', 'echo.eth', 0, ONE_ETH, -1 * HOUR, 10 * DAY, 'active', -100 * DAY], // name past grace: never shown
      ['L6', 'foxtrot.eth', 1, 4n * ONE_ETH, -7 * HOUR, 10 * DAY, 'sold'],
      ['L7', 'golf.eth', 2, 5n * ONE_ETH, -8 * HOUR, 10 * DAY, 'cancelled'],
      ['L8', 'hotel.eth', 0, 6n * ONE_ETH, -1 * HOUR, -1 * HOUR, 'active'], // ended, not swept yet
      ['L9', 'india.eth', 1, 7n * ONE_ETH, -6 * HOUR, -2 * DAY, 'expired'],
      ['L10', 'juliet.eth', 2, 8n * ONE_ETH, -9 * HOUR, 10 * DAY, 'unfunded'],
    ];
    for (const [key, name, seller, price, created, ends, status, nameExpiry] of rows) {
      const n = await createName(db, name, { owner: addressOf(seller), expiryDate: nameExpiry === undefined ? undefined : new Date(now + nameExpiry) });
      nameIds[key] = n.id;
      const l = await insertListing(db, seller, n.id, name, price, { status, createdAt: new Date(now + created), expiresAt: ends === null ? null : new Date(now + ends) });
      ids[key] = l.id;
    }
  });
  after(async () => { await t?.close(); });

  async function list(query: string) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/listings${query}` });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'no-store');
    const data = body(res).data;
    const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    return { keys: data.listings.map((l: { id: number }) => byId[l.id]), data, res };
  }

  it('defaults: active listings, newest first, names past grace left out, ended ones never active', async () => {
    const { keys, data, res } = await list('');
    assert.deepEqual(keys, ['L4', 'L3', 'L2', 'L1'], show(res));
    assert.deepEqual(data.pagination, { page: 1, limit: 20, total: 4, totalPages: 1, hasNext: false, hasPrev: false });
    assert.equal(body(res).meta.version, '1.0.0');
    assert.ok(data.listings.every((l: { status: string }) => l.status === 'active'));
  });

  it('every sort, both directions', async () => {
    assert.deepEqual((await list('?sort=price&order=asc')).keys, ['L3', 'L1', 'L4', 'L2']);
    assert.deepEqual((await list('?sort=price')).keys, ['L2', 'L4', 'L1', 'L3']);
    assert.deepEqual((await list('?sort=name&order=asc')).keys, ['L1', 'L2', 'L3', 'L4']);
    assert.deepEqual((await list('?sort=name&order=desc')).keys, ['L4', 'L3', 'L2', 'L1']);
    assert.deepEqual((await list('?sort=expiry&order=asc')).keys, ['L4', 'L2', 'L1', 'L3']);
    assert.deepEqual((await list('?sort=expiry&order=desc')).keys, ['L3', 'L1', 'L2', 'L4']);
    assert.deepEqual((await list('?sort=created&order=asc')).keys, ['L1', 'L2', 'L3', 'L4']);
  });

  it('seller filter, any letter case', async () => {
    assert.deepEqual((await list(`?seller=${account(0).address}`)).keys, ['L3', 'L1']);
    assert.deepEqual((await list(`?seller=${addressOf(2)}&status=cancelled`)).keys, ['L7']);
    assert.deepEqual((await list(`?seller=${addressOf(9)}`)).keys, []);
  });

  it('price bounds compare wei as numbers, inclusive', async () => {
    assert.deepEqual((await list(`?minPrice=${2n * ONE_ETH}`)).keys, ['L4', 'L2', 'L1']);
    assert.deepEqual((await list(`?maxPrice=${3n * ONE_ETH}`)).keys, ['L4', 'L3', 'L1']);
    assert.deepEqual((await list(`?minPrice=${2n * ONE_ETH}&maxPrice=${3n * ONE_ETH}`)).keys, ['L4', 'L1']);
    // as text "9000…" > "10000…"; as numbers 10 ETH ≥ 9 ETH
    assert.deepEqual((await list(`?minPrice=${9n * ONE_ETH}`)).keys, ['L2']);
    assert.deepEqual((await list(`?maxPrice=${ONE_ETH}&sort=price&order=asc`)).keys, ['L3']);
  });

  it('every status', async () => {
    assert.deepEqual((await list('?status=sold')).keys, ['L6']);
    assert.deepEqual((await list('?status=cancelled')).keys, ['L7']);
    assert.deepEqual((await list('?status=unfunded')).keys, ['L10']);
    const expired = await list('?status=expired');
    assert.deepEqual(expired.keys, ['L8', 'L9']);
    assert.ok(expired.data.listings.every((l: { status: string }) => l.status === 'expired'), show(expired.res));
    // the ended-but-unswept listing (L8, 6 ETH, ends first) merges into every sort by its own key
    assert.deepEqual((await list('?status=expired&sort=price&order=asc')).keys, ['L8', 'L9']);
    assert.deepEqual((await list('?status=expired&sort=price&order=desc')).keys, ['L9', 'L8']);
    assert.deepEqual((await list('?status=expired&sort=expiry&order=asc')).keys, ['L9', 'L8']);
    assert.deepEqual((await list('?status=expired&sort=name&order=desc')).keys, ['L9', 'L8']);
    assert.deepEqual((await list('?status=expired&limit=1&page=2')).keys, ['L9']);
    assert.deepEqual((await list(`?status=expired&seller=${account(0).address}`)).keys, ['L8']);
    assert.deepEqual((await list(`?status=expired&minPrice=${7n * ONE_ETH}`)).keys, ['L9']);
  });

  it('Style B pagination inside data', async () => {
    const p1 = await list('?limit=2');
    assert.deepEqual(p1.keys, ['L4', 'L3']);
    assert.deepEqual(p1.data.pagination, { page: 1, limit: 2, total: 4, totalPages: 2, hasNext: true, hasPrev: false });
    const p2 = await list('?limit=2&page=2');
    assert.deepEqual(p2.keys, ['L2', 'L1']);
    assert.deepEqual(p2.data.pagination, { page: 2, limit: 2, total: 4, totalPages: 2, hasNext: false, hasPrev: true });
    // a short page tells the total itself; a full one, or one past the end, counts
    const short = await list('?limit=3&page=2');
    assert.deepEqual(short.keys, ['L1']);
    assert.deepEqual(short.data.pagination, { page: 2, limit: 3, total: 4, totalPages: 2, hasNext: false, hasPrev: true });
    assert.deepEqual((await list('?limit=4')).data.pagination, { page: 1, limit: 4, total: 4, totalPages: 1, hasNext: false, hasPrev: false });
    const p3 = await list('?limit=2&page=3');
    assert.deepEqual(p3.keys, []);
    assert.equal(p3.data.pagination.hasNext, false);
  });

  it('joined name fields', async () => {
    const { data } = await list(`?seller=${addressOf(2)}`);
    const l = data.listings[0];
    assert.equal(l.id, ids.L4);
    assert.equal(l.ens_name, 'delta.eth');
    assert.equal(l.current_owner, addressOf(2));
    assert.equal(l.seller_address, addressOf(2));
    assert.equal(l.price_wei, (3n * ONE_ETH).toString());
    assert.match(l.token_id, /^\d+$/);
    assert.ok(Date.parse(l.name_expiry_date) < Date.now());
    assert.ok(Date.parse(l.registration_date) > 0);
    assert.equal(l.last_sale_date, null);
    for (const key of ['order_hash', 'order_data', 'source', 'created_at', 'updated_at', 'expires_at', 'last_validated_at', 'unfunded_at', 'unfunded_reason', 'broker_address', 'broker_fee_bps', 'currency_address', 'ens_name_id']) {
      assert.ok(key in l, key);
    }
  });

  it('a name renewed out of its grace period shows its listings again', async () => {
    await t.container.db.updateTable('ens_names').set({ expiry_date: new Date(Date.now() + 365 * DAY) }).where('id', '=', nameIds.L5).execute();
    assert.deepEqual((await list('')).keys, ['L5', 'L4', 'L3', 'L2', 'L1']);
    await t.container.db.updateTable('ens_names').set({ expiry_date: new Date(Date.now() - 100 * DAY) }).where('id', '=', nameIds.L5).execute();
    assert.deepEqual((await list('')).keys, ['L4', 'L3', 'L2', 'L1']);
  });

  it('bad query values are 400 VALIDATION_ERROR naming the field', async () => {
    for (const [q, field] of [['limit=0', 'query.limit'], ['limit=101', 'query.limit'], ['page=0', 'query.page'], ['status=open', 'query.status'], ['sort=random', 'query.sort'], ['order=up', 'query.order'], ['minPrice=1.5', 'query.minPrice'], ['maxPrice=-1', 'query.maxPrice'], ['seller=0x123', 'query.seller']]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/listings?${q}` });
      assert.equal(res.statusCode, 400, show(res));
      assert.equal(body(res).error.code, 'VALIDATION_ERROR');
      assert.equal(body(res).error.details.field, field, show(res));
    }
  });

  it('GET /listings/:id and /listings/name/:name', async () => {
    const one = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${ids.L8}` });
    assert.equal(one.statusCode, 200, show(one));
    assert.equal(body(one).data.status, 'expired');
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/listings/999999' });
    assert.equal(missing.statusCode, 404, show(missing));
    assert.equal(body(missing).error.code, 'LISTING_NOT_FOUND');
    const byName = await t.app.inject({ method: 'GET', url: '/api/v1/listings/name/ALPHA.eth' });
    assert.deepEqual(body(byName).data.map((l: { id: number }) => l.id), [ids.L1], show(byName));
    assert.deepEqual(body(await t.app.inject({ method: 'GET', url: '/api/v1/listings/name/hotel' })).data, []);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/listings/name/nobody-here.eth' });
    assert.equal(body(unknown).error.code, 'ENS_NAME_NOT_FOUND', show(unknown));
    const invalid = await t.app.inject({ method: 'GET', url: '/api/v1/listings/name/a..b' });
    assert.equal(body(invalid).error.code, 'INVALID_NAME', show(invalid));
  });

  it('DELETE /listings/:id: only the seller cancels; final listings stay final', async () => {
    const seller = await signIn(t.app, 1);
    const other = await signIn(t.app, 2);
    const del = (id: number, headers: Record<string, string> = {}) => t.app.inject({ method: 'DELETE', url: `/api/v1/listings/${id}`, headers });
    assert.equal((await del(ids.L2)).statusCode, 401);
    const forbidden = await del(ids.L2, other.headers);
    assert.equal(forbidden.statusCode, 403, show(forbidden));
    assert.equal(body(forbidden).error.code, 'FORBIDDEN');
    assert.equal(body(await del(999999, seller.headers)).error.code, 'LISTING_NOT_FOUND');
    const sold = await del(ids.L6, seller.headers);
    assert.equal(sold.statusCode, 409, show(sold));
    assert.equal(body(sold).error.code, 'INVALID_STATE');
    const ok = await del(ids.L2, seller.headers);
    assert.equal(ok.statusCode, 200, show(ok));
    assert.equal(body(ok).data.status, 'cancelled');
    assert.equal((await del(ids.L2, seller.headers)).statusCode, 200);
    assert.deepEqual((await list('')).keys, ['L4', 'L3', 'L1']);
    const name = await t.container.db.selectFrom('ens_names').select('listing_price_wei').where('id', '=', nameIds.L2).executeTakeFirstOrThrow();
    assert.equal(name.listing_price_wei, null);
  });

  it('each listing of a page is every field of the schema, as the stored row says, whatever its currency, broker or status', async () => {
    const db = t.container.db;
    const now = Date.now();
    // rows with what the others lack: another currency, a broker and fee, an unfunded reason, a last sale, a name beyond ASCII, a reason needing JSON escapes
    const usdc = await createName(db, 'ünïcode🦊.eth', { owner: addressOf(3), lastSale: { date: new Date(now - 3 * DAY), priceWei: '1', currency: WETH } });
    const u = await insertListing(db, 3, usdc.id, usdc.name, 2_500_000_000n, { currency: USDC, createdAt: new Date(now - 30 * 60_000) });
    const weth = await createName(db, 'kilo.eth', { owner: addressOf(3) });
    const w = await insertListing(db, 3, weth.id, 'kilo.eth', ONE_ETH, { currency: WETH, status: 'unfunded', createdAt: new Date(now - 20 * 60_000) });
    await db.updateTable('listings').set({ broker_address: addressOf(4).toLowerCase(), broker_fee_bps: 250 }).where('id', '=', u.id).execute();
    await sql`UPDATE listings SET unfunded_at = '2026-01-02 03:04:05.678999+00', unfunded_reason = ${'not "approved"\\\n\u0001'}, last_validated_at = '2026-01-02 03:04:05.000001+00' WHERE id = ${w.id}`.execute(db);

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('uint256', true);
    const valid = ajv.compile({ ...Listing, additionalProperties: false });
    const { rows } = await sql<Record<string, unknown>>`SELECT l.*, l.order_data::text AS order_text, n.name, n.token_id::text AS token_text, n.owner_address, n.expiry_date, n.registration_date, n.last_sale_date
      FROM listings l JOIN ens_names n ON n.id = l.ens_name_id`.execute(db);
    const stored = new Map(rows.map((r) => [r.id as number, r]));
    const time = (v: unknown) => (v === null ? null : (v as Date).toISOString());
    const currency: Record<string, [string, number]> = { [USDC.toLowerCase()]: ['USDC', 6], [WETH.toLowerCase()]: ['WETH', 18], '0x0000000000000000000000000000000000000000': ['ETH', 18] };
    let seen = 0;
    for (const status of ['active', 'sold', 'cancelled', 'expired', 'unfunded']) {
      const { data, res } = await list(`?status=${status}&sort=price&order=asc`);
      for (const l of data.listings) {
        seen += 1;
        assert.ok(valid(l), `${JSON.stringify(valid.errors)} ${show(res)}`);
        const r = stored.get(l.id)!;
        const ended = (r.status === 'active' || r.status === 'unfunded') && r.expires_at !== null && (r.expires_at as Date).getTime() <= Date.now();
        assert.deepEqual(l, {
          id: r.id, ens_name_id: r.ens_name_id, seller_address: r.seller_address, price_wei: r.price_wei, value_wei: r.value_wei,
          currency_address: r.currency_address, currency_symbol: currency[r.currency_address as string][0], currency_decimals: currency[r.currency_address as string][1],
          order_hash: r.order_hash, order_data: JSON.parse(r.order_text as string), status: ended ? 'expired' : r.status, source: r.source,
          created_at: time(r.created_at), updated_at: time(r.updated_at), expires_at: time(r.expires_at), last_validated_at: time(r.last_validated_at),
          unfunded_at: time(r.unfunded_at), unfunded_reason: r.unfunded_reason, broker_address: r.broker_address, broker_fee_bps: r.broker_fee_bps,
          ens_name: r.name, token_id: r.token_text, current_owner: r.owner_address,
          name_expiry_date: time(r.expiry_date), registration_date: time(r.registration_date), last_sale_date: time(r.last_sale_date),
        }, show(res));
        // one listing reads the same
        assert.deepEqual(body(await t.app.inject({ method: 'GET', url: `/api/v1/listings/${l.id}` })).data, l);
      }
    }
    assert.equal(seen, rows.length - 1, 'every listing but the one past its grace period');
    const unfunded = body(await t.app.inject({ method: 'GET', url: `/api/v1/listings/${w.id}` })).data;
    assert.equal(unfunded.unfunded_at, '2026-01-02T03:04:05.678Z', 'fractions truncated to the millisecond');
    assert.equal(unfunded.last_validated_at, '2026-01-02T03:04:05.000Z');
    assert.equal(body(await t.app.inject({ method: 'GET', url: `/api/v1/listings/${u.id}` })).data.currency_symbol, 'USDC');
    await db.deleteFrom('listings').where('id', 'in', [u.id, w.id]).execute();
  });

  it('a page read again shows every change since: the listing, its name, its end time passing', async () => {
    const db = t.container.db;
    const n = await createName(db, 'lima.eth', { owner: addressOf(5) });
    const inserted = await insertListing(db, 5, n.id, 'lima.eth', 9n * ONE_ETH, { expiresAt: new Date(Date.now() + 1_500) });
    // an id past 32 bits, as a busy market's ids will be
    const l = await db.updateTable('listings').set({ id: 3_000_000_001 }).where('id', '=', inserted.id).returning('id').executeTakeFirstOrThrow();
    const ofLima = async (query: string) => (await list(query)).data.listings.find((x: { id: number }) => x.id === l.id);
    const first = await ofLima('?sort=price&order=desc');
    assert.equal(first.status, 'active');
    assert.deepEqual(await ofLima('?sort=price&order=desc'), first, 'read twice, the same');
    const byName = async () => body(await t.app.inject({ method: 'GET', url: '/api/v1/listings/name/lima.eth' })).data[0];
    assert.deepEqual(await byName(), first);

    await db.updateTable('listings').set({ unfunded_reason: 'changed' }).where('id', '=', l.id).execute();
    assert.equal((await ofLima('?sort=price&order=desc')).unfunded_reason, 'changed');
    await db.updateTable('ens_names').set({ owner_address: addressOf(6).toLowerCase() }).where('id', '=', n.id).execute();
    assert.equal((await ofLima('?sort=price&order=desc')).current_owner, addressOf(6).toLowerCase());
    assert.deepEqual(await byName(), { ...first, unfunded_reason: 'changed', current_owner: addressOf(6).toLowerCase() });

    // no write: the end time passes, and the page read before reads it expired
    await new Promise((r) => setTimeout(r, Math.max(0, new Date(first.expires_at).getTime() - Date.now() + 50)));
    assert.equal(await ofLima('?sort=price&order=desc'), undefined, 'no longer active');
    const ended = await ofLima('?status=expired');
    assert.deepEqual(ended, { ...first, status: 'expired', unfunded_reason: 'changed', current_owner: addressOf(6).toLowerCase() });
    await db.deleteFrom('listings').where('id', '=', l.id).execute();
  });
});
