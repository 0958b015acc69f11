import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, USDC, WETH, insertOffer, signedOffer } from '../helpers/marketplace.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { Offer } from '../../src/contracts/offers.js';

describe('offers: reading and PUT /api/v1/offers/:id', () => {
  let t: TestContext;
  let owner: SignedIn;
  let buyer: SignedIn;
  let stranger: SignedIn;
  let nameId: number;
  const NAME = 'putoffers.eth';

  before(async () => {
    t = await createTestApp();
    [owner, buyer, stranger] = [await signIn(t.app, 0), await signIn(t.app, 1), await signIn(t.app, 2)];
    nameId = (await createName(t.container.db, NAME, { owner: addressOf(0) })).id;
  });
  after(async () => { await t?.close(); });

  /** A fresh pending offer by account 1 (or `by`) on the test name. */
  async function freshOffer(amount = ONE_ETH, o: { by?: number; status?: string; expiresAt?: Date } = {}): Promise<number> {
    return (await insertOffer(t.container.db, o.by ?? 1, nameId, NAME, amount, { status: o.status, expiresAt: o.expiresAt })).id;
  }

  const put = (id: number, who: SignedIn | undefined, payload?: object) =>
    t.app.inject({ method: 'PUT', url: `/api/v1/offers/${id}`, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });

  async function expectCode(resPromise: ReturnType<typeof put>, status: number, code?: string) {
    const res = await resPromise;
    assert.equal(res.statusCode, status, show(res));
    if (code) assert.equal(body(res).error.code, code, show(res));
    return res;
  }

  it('rejected: only the buyer', async () => {
    const id = await freshOffer();
    await expectCode(put(id, undefined, { status: 'rejected' }), 401, 'UNAUTHORIZED');
    await expectCode(put(id, owner, { status: 'rejected' }), 403, 'FORBIDDEN');
    await expectCode(put(id, stranger, { status: 'rejected' }), 403, 'FORBIDDEN');
    const res = await expectCode(put(id, buyer, { status: 'rejected' }), 200);
    assert.equal(body(res).data.status, 'rejected');
    assert.equal(body(res).data.id, id);
  });

  it('accepted: only the owner of the name', async () => {
    const id = await freshOffer();
    await expectCode(put(id, undefined, { status: 'accepted' }), 401, 'UNAUTHORIZED');
    await expectCode(put(id, buyer, { status: 'accepted' }), 403, 'FORBIDDEN');
    await expectCode(put(id, stranger, { status: 'accepted' }), 403, 'FORBIDDEN');
    const res = await expectCode(put(id, owner, { status: 'accepted' }), 200);
    assert.equal(body(res).data.status, 'accepted');
  });

  for (const status of ['unfunded', 'expired'] as const) {
    it(`${status}: the buyer or the owner`, async () => {
      for (const who of ['buyer', 'owner'] as const) {
        const id = await freshOffer();
        await expectCode(put(id, undefined, { status }), 401, 'UNAUTHORIZED');
        await expectCode(put(id, stranger, { status }), 403, 'FORBIDDEN');
        const res = await expectCode(put(id, who === 'buyer' ? buyer : owner, { status }), 200);
        assert.equal(body(res).data.status, status);
        if (status === 'unfunded') {
          assert.equal(body(res).data.unfunded_reason, 'marked_by_user');
          assert.ok(body(res).data.unfunded_at);
        }
      }
    });
  }

  it('pending (back from unfunded): the buyer or the owner', async () => {
    for (const who of [buyer, owner]) {
      const id = await freshOffer(ONE_ETH, { status: 'unfunded' });
      await expectCode(put(id, stranger, { status: 'pending' }), 403, 'FORBIDDEN');
      await expectCode(put(id, undefined, { status: 'pending' }), 401, 'UNAUTHORIZED');
      const res = await expectCode(put(id, who, { status: 'pending' }), 200);
      assert.equal(body(res).data.status, 'pending');
      assert.equal(body(res).data.unfunded_reason, null);
    }
  });

  it('amount: the buyer or the owner; status unchanged; the other party is notified', async () => {
    const id = await freshOffer(ONE_ETH);
    await expectCode(put(id, stranger, { offerAmountWei: '5' }), 403, 'FORBIDDEN');
    await expectCode(put(id, undefined, { offerAmountWei: '5' }), 401, 'UNAUTHORIZED');
    const byBuyer = await expectCode(put(id, buyer, { offerAmountWei: (2n * ONE_ETH).toString() }), 200);
    assert.equal(body(byBuyer).data.offer_amount_wei, (2n * ONE_ETH).toString());
    assert.equal(body(byBuyer).data.status, 'pending');
    const byOwner = await expectCode(put(id, owner, { offerAmountWei: (ONE_ETH / 2n).toString() }), 200);
    assert.equal(body(byOwner).data.offer_amount_wei, (ONE_ETH / 2n).toString());
    const notes = await t.container.db.selectFrom('notifications').select(['recipient_address', 'type']).where('type', '=', 'offer_updated').orderBy('id').execute();
    assert.deepEqual(notes, [{ recipient_address: addressOf(0), type: 'offer_updated' }, { recipient_address: addressOf(1), type: 'offer_updated' }]);
  });

  it('400 NO_UPDATES without fields (also without a body), 404 for an unknown offer, 400 for bad values', async () => {
    const id = await freshOffer();
    await expectCode(put(id, buyer, {}), 400, 'NO_UPDATES');
    await expectCode(put(id, buyer), 400, 'NO_UPDATES');
    await expectCode(put(id, undefined, {}), 401, 'UNAUTHORIZED');
    await expectCode(put(999999, buyer, { status: 'rejected' }), 404, 'OFFER_NOT_FOUND');
    await expectCode(put(id, buyer, { status: 'cancelled' }), 400, 'VALIDATION_ERROR');
    await expectCode(put(id, buyer, { offerAmountWei: '1.5' }), 400, 'VALIDATION_ERROR');
    await expectCode(put(id, buyer, { offerAmountWei: '0' }), 400, 'VALIDATION_ERROR');
    await expectCode(put(id, buyer, { offerAmountWei: 2e18 }), 400, 'VALIDATION_ERROR');
    const bad = await t.app.inject({ method: 'PUT', url: '/api/v1/offers/abc', headers: buyer.headers, payload: { status: 'rejected' } });
    assert.equal(body(bad).error.code, 'VALIDATION_ERROR', show(bad));
  });

  it('final states stay final; other refused moves are 409 INVALID_STATE', async () => {
    const accepted = await freshOffer(ONE_ETH, { status: 'accepted' });
    await expectCode(put(accepted, owner, { status: 'pending' }), 409, 'INVALID_STATE');
    await expectCode(put(accepted, buyer, { status: 'rejected' }), 409, 'INVALID_STATE');
    await expectCode(put(accepted, buyer, { offerAmountWei: '7' }), 409, 'INVALID_STATE');
    await expectCode(put(accepted, owner, { status: 'accepted' }), 200); // the current status again: no change
    const rejected = await freshOffer(ONE_ETH, { status: 'rejected' });
    await expectCode(put(rejected, buyer, { status: 'pending' }), 409, 'INVALID_STATE');
    await expectCode(put(rejected, owner, { status: 'accepted' }), 409, 'INVALID_STATE');
    const unfunded = await freshOffer(ONE_ETH, { status: 'unfunded' });
    await expectCode(put(unfunded, owner, { status: 'accepted' }), 409, 'INVALID_STATE');
    // past its end time: expired whatever the stored status; only withdrawn
    const ended = await freshOffer(ONE_ETH, { expiresAt: new Date(Date.now() - 60_000) });
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/offers/${ended}` });
    assert.equal(body(read).data.status, 'expired', show(read));
    await expectCode(put(ended, buyer, { status: 'pending' }), 409, 'INVALID_STATE');
    await expectCode(put(ended, owner, { status: 'accepted' }), 409, 'INVALID_STATE');
    await expectCode(put(ended, buyer, { offerAmountWei: '9' }), 409, 'INVALID_STATE');
    assert.equal(body(await expectCode(put(ended, buyer, { status: 'rejected' }), 200)).data.status, 'rejected');
    // expired by hand before the end time may come back
    const early = await freshOffer(ONE_ETH, { status: 'expired' });
    assert.equal(body(await expectCode(put(early, buyer, { status: 'pending' }), 200)).data.status, 'pending');
  });

  it('the highest offer follows amount and status changes, and accept/reject notify the buyer', async () => {
    const other = await createName(t.container.db, 'highest.eth', { owner: addressOf(0) });
    const mk = async (by: number, amount: bigint) => (await insertOffer(t.container.db, by, other.id, 'highest.eth', amount)).id;
    const a = await mk(3, 3n * ONE_ETH);
    const b = await mk(4, 5n * ONE_ETH);
    const c = await mk(5, 4n * ONE_ETH);
    const h = async () => t.container.db.selectFrom('ens_names').select(['highest_offer_wei', 'highest_offer_id']).where('id', '=', other.id).executeTakeFirstOrThrow();
    const [s3, s4, s5] = [await signIn(t.app, 3), await signIn(t.app, 4), await signIn(t.app, 5)];
    await expectCode(put(a, s3, { offerAmountWei: (6n * ONE_ETH).toString() }), 200);
    assert.deepEqual(await h(), { highest_offer_wei: (6n * ONE_ETH).toString(), highest_offer_id: a });
    await expectCode(put(a, owner, { status: 'accepted' }), 200);
    assert.deepEqual(await h(), { highest_offer_wei: (5n * ONE_ETH).toString(), highest_offer_id: b });
    await expectCode(put(b, s4, { status: 'rejected' }), 200);
    assert.deepEqual(await h(), { highest_offer_wei: (4n * ONE_ETH).toString(), highest_offer_id: c });
    await expectCode(put(c, s5, { status: 'unfunded' }), 200);
    assert.deepEqual(await h(), { highest_offer_wei: null, highest_offer_id: null });
    await expectCode(put(c, s5, { status: 'pending' }), 200);
    assert.deepEqual(await h(), { highest_offer_wei: (4n * ONE_ETH).toString(), highest_offer_id: c });
    const notes = await t.container.db.selectFrom('notifications').select(['recipient_address', 'type']).where('ens_name_id', '=', other.id).orderBy('id').execute();
    assert.deepEqual(notes.filter((n) => n.type !== 'offer_updated'), [
      { recipient_address: addressOf(3), type: 'offer_accepted' },
      { recipient_address: addressOf(4), type: 'offer_rejected' },
    ]);
  });

  it('the buyer may back a new amount with a re-signed order', async () => {
    const id = await freshOffer(ONE_ETH);
    const resigned = await signedOffer(1, NAME, 3n * ONE_ETH);
    await expectCode(put(id, owner, { offerAmountWei: (3n * ONE_ETH).toString(), orderData: resigned.orderData }), 403, 'FORBIDDEN');
    await expectCode(put(id, buyer, { offerAmountWei: (4n * ONE_ETH).toString(), orderData: resigned.orderData }), 400, 'INVALID_ORDER');
    // (one character of r changed: zeroing the last two bytes left a signature whose s ended in 00 and v was 27 unchanged, 1 in 512)
    const sig = resigned.orderData.signature;
    const tampered = { ...resigned.orderData, signature: `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}` };
    await expectCode(put(id, buyer, { offerAmountWei: (3n * ONE_ETH).toString(), orderData: tampered }), 400, 'INVALID_SIGNATURE');
    const res = await expectCode(put(id, buyer, { offerAmountWei: (3n * ONE_ETH).toString(), orderData: resigned.orderData }), 200);
    assert.equal(body(res).data.order_hash, resigned.hash);
    assert.equal(body(res).data.offer_amount_wei, (3n * ONE_ETH).toString());
    // the order shown is the re-signed one (its text is stored with it and follows it)
    assert.equal(body(res).data.order_data.signature, resigned.orderData.signature);
    assert.equal(body(res).data.order_data.parameters.salt, resigned.orderData.parameters.salt);
  });

  it('GET /offers with every filter, and the path forms', async () => {
    const o1 = await createName(t.container.db, 'filters-a.eth', { owner: addressOf(6) });
    const o2 = await createName(t.container.db, 'filters-b.eth', { owner: addressOf(6) });
    const now = Date.now();
    const x1 = (await insertOffer(t.container.db, 7, o1.id, 'filters-a.eth', 2n * ONE_ETH, { createdAt: new Date(now - 3000) })).id;
    const x2 = (await insertOffer(t.container.db, 8, o1.id, 'filters-a.eth', 3n * ONE_ETH, { createdAt: new Date(now - 2000), status: 'rejected' })).id;
    const x3 = (await insertOffer(t.container.db, 7, o2.id, 'filters-b.eth', 1n * ONE_ETH, { createdAt: new Date(now - 1000) })).id;
    const ids = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, show(res));
      return { ids: body(res).data.offers.map((o: { id: number }) => o.id), pagination: body(res).data.pagination };
    };
    assert.deepEqual((await ids(`/api/v1/offers?owner=${addressOf(6)}`)).ids, [x3, x2, x1]);
    assert.deepEqual((await ids(`/api/v1/offers/owner/${addressOf(6)}`)).ids, [x3, x2, x1]);
    assert.deepEqual((await ids(`/api/v1/offers?buyer=${addressOf(7)}`)).ids, [x3, x1]);
    assert.deepEqual((await ids(`/api/v1/offers/buyer/${addressOf(7)}?sort=amount&order=desc`)).ids, [x1, x3]);
    assert.deepEqual((await ids('/api/v1/offers?name=filters-a.eth')).ids, [x2, x1]);
    assert.deepEqual((await ids('/api/v1/offers/name/filters-a')).ids, [x2, x1]);
    assert.deepEqual((await ids('/api/v1/offers/name/filters-a.eth?status=pending')).ids, [x1]);
    assert.deepEqual((await ids(`/api/v1/offers?owner=${addressOf(6)}&status=rejected&buyer=${addressOf(8)}`)).ids, [x2]);
    const paged = await ids(`/api/v1/offers?owner=${addressOf(6)}&limit=2&page=2`);
    assert.deepEqual(paged.ids, [x1]);
    assert.deepEqual(paged.pagination, { page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
    // expired: written so, or past the end time and not swept yet
    const x4 = (await insertOffer(t.container.db, 8, o2.id, 'filters-b.eth', 4n * ONE_ETH, { createdAt: new Date(now - 500), expiresAt: new Date(now - 100) })).id;
    const x5 = (await insertOffer(t.container.db, 8, o2.id, 'filters-b.eth', 5n * ONE_ETH, { createdAt: new Date(now - 4000), status: 'expired' })).id;
    const expired = await ids(`/api/v1/offers?owner=${addressOf(6)}&status=expired`);
    assert.deepEqual(expired.ids, [x4, x5]);
    assert.equal(expired.pagination.total, 2);
    assert.deepEqual((await ids(`/api/v1/offers?owner=${addressOf(6)}&status=expired&sort=amount&order=asc&limit=1&page=2`)).ids, [x5]);
    assert.deepEqual((await ids(`/api/v1/offers?owner=${addressOf(6)}&status=pending`)).ids, [x3, x1]);
    // a name that changes hands takes its offers to the new owner's list (however the owner is written)
    await t.container.db.updateTable('ens_names').set({ owner_address: addressOf(9) }).where('id', '=', o1.id).execute();
    assert.deepEqual((await ids(`/api/v1/offers?owner=${addressOf(6)}`)).ids, [x4, x3, x5]);
    assert.deepEqual((await ids(`/api/v1/offers/owner/${addressOf(9)}`)).ids, [x2, x1]);
    // and an offer made after the transfer is the new owner's too
    const x6 = (await insertOffer(t.container.db, 7, o1.id, 'filters-a.eth', 6n * ONE_ETH)).id;
    assert.deepEqual((await ids(`/api/v1/offers?owner=${addressOf(9)}&status=pending`)).ids, [x6, x1]);
    assert.deepEqual((await ids(`/api/v1/offers?owner=${addressOf(6)}&status=pending`)).ids, [x3]);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/offers/name/no-such-name.eth' });
    assert.equal(body(unknown).error.code, 'ENS_NAME_NOT_FOUND', show(unknown));
    const one = await t.app.inject({ method: 'GET', url: `/api/v1/offers/${x1}` });
    assert.equal(body(one).data.name, 'filters-a.eth', show(one));
    assert.equal(body(await t.app.inject({ method: 'GET', url: '/api/v1/offers/999999' })).error.code, 'OFFER_NOT_FOUND');
  });
  it('50 concurrent updates on one name leave its highest offer equal to the largest pending offer', async () => {
    const crowd = await createName(t.container.db, 'crowded.eth', { owner: addressOf(0) });
    const people = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => signIn(t.app, i)));
    const offers: Array<{ id: number; by: number }> = [];
    for (let k = 0; k < 25; k++) {
      const by = 1 + (k % 9);
      offers.push({ id: (await insertOffer(t.container.db, by, crowd.id, 'crowded.eth', BigInt(k + 1) * ONE_ETH / 10n)).id, by });
    }
    let seed = 42;
    const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    const requests = Array.from({ length: 50 }, (_, k) => {
      const o = offers[rand(offers.length)];
      const who = people[o.by - 1];
      const roll = rand(10);
      if (roll < 6) return put(o.id, who, { offerAmountWei: (BigInt(1 + rand(1000)) * ONE_ETH / 100n).toString() });
      if (roll < 7) return put(o.id, who, { status: 'rejected' });
      if (roll < 8) return put(o.id, who, { status: 'unfunded' });
      if (roll < 9) return put(o.id, who, { status: 'pending' });
      return put(o.id, owner, { status: k % 2 === 0 ? 'accepted' : 'expired' });
    });
    const results = await Promise.all(requests);
    for (const r of results) assert.ok([200, 409].includes(r.statusCode), show(r));
    assert.ok(results.filter((r) => r.statusCode === 200).length >= 25);

    const best = await t.container.db
      .selectFrom('offers').select(['id', 'offer_amount_wei'])
      .where('ens_name_id', '=', crowd.id).where('status', '=', 'pending')
      .orderBy('offer_amount_wei', 'desc').orderBy('created_at', 'asc').orderBy('id', 'asc').limit(1).executeTakeFirst();
    const name = await t.container.db.selectFrom('ens_names').select(['highest_offer_wei', 'highest_offer_id', 'highest_offer_currency']).where('id', '=', crowd.id).executeTakeFirstOrThrow();
    assert.equal(name.highest_offer_wei, best?.offer_amount_wei ?? null);
    assert.equal(name.highest_offer_id, best?.id ?? null);
    assert.equal(name.highest_offer_currency, best ? WETH : null);
  });

  it('each offer of a page is every field of the schema, as the stored row says, in every status; one offer and /orders/:id read the same', async () => {
    const db = t.container.db;
    const usdc = await insertOffer(db, 2, nameId, NAME, 2_500_000n, { currency: USDC });
    const ended = await insertOffer(db, 3, nameId, NAME, ONE_ETH, { expiresAt: new Date(Date.now() - 60_000) });
    await sql`UPDATE offers SET status = 'unfunded', unfunded_at = '2026-01-02 03:04:05.678999+00', unfunded_reason = ${'no "allowance"\\'}, last_validated_at = now() WHERE id = ${usdc.id}`.execute(db);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('uint256', true);
    const valid = ajv.compile({ ...Offer, additionalProperties: false });
    const { rows } = await sql<Record<string, unknown>>`SELECT o.*, o.order_data::text AS order_text, n.name, n.token_id::text AS token_text FROM offers o JOIN ens_names n ON n.id = o.ens_name_id WHERE o.ens_name_id = ${nameId}`.execute(db);
    const stored = new Map(rows.map((r) => [r.id as number, r]));
    const time = (v: unknown) => (v === null ? null : (v as Date).toISOString());
    const currency: Record<string, [string, number]> = { [USDC.toLowerCase()]: ['USDC', 6], [WETH.toLowerCase()]: ['WETH', 18] };
    const seen = new Set<number>();
    for (const status of ['pending', 'accepted', 'rejected', 'expired', 'unfunded']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/offers/name/${NAME}?status=${status}&limit=100` });
      assert.equal(res.statusCode, 200, show(res));
      for (const o of body(res).data.offers) {
        seen.add(o.id);
        assert.ok(valid(o), `${JSON.stringify(valid.errors)} ${show(res)}`);
        const r = stored.get(o.id)!;
        const past = (r.status === 'pending' || r.status === 'unfunded') && r.expires_at !== null && (r.expires_at as Date).getTime() <= Date.now();
        assert.equal(o.status, status);
        assert.deepEqual(o, {
          id: r.id, ens_name_id: r.ens_name_id, buyer_address: r.buyer_address, offer_amount_wei: r.offer_amount_wei, currency_address: r.currency_address,
          currency_symbol: currency[r.currency_address as string][0], currency_decimals: currency[r.currency_address as string][1],
          order_hash: r.order_hash, order_data: JSON.parse(r.order_text as string), status: past ? 'expired' : r.status,
          created_at: time(r.created_at), expires_at: time(r.expires_at), source: r.source, last_validated_at: time(r.last_validated_at),
          unfunded_at: time(r.unfunded_at), unfunded_reason: r.unfunded_reason, name: r.name, token_id: r.token_text,
        }, show(res));
        assert.deepEqual(body(await t.app.inject({ method: 'GET', url: `/api/v1/offers/${o.id}` })).data, o);
        assert.deepEqual(body(await t.app.inject({ method: 'GET', url: `/api/v1/orders/${o.order_hash}` })).data, { order_type: 'offer', ...o });
      }
    }
    assert.equal(seen.size, rows.length, 'every offer in one status page');
    assert.ok(seen.has(ended.id) && seen.has(usdc.id));
    const one = body(await t.app.inject({ method: 'GET', url: `/api/v1/offers/${usdc.id}` })).data;
    assert.equal(one.unfunded_at, '2026-01-02T03:04:05.678Z');
    assert.equal(one.offer_amount_wei, '2500000');
  });

  it('a page of offers read again shows every change since: the offer, its name, its end time passing', async () => {
    const db = t.container.db;
    const named = await createName(db, 'renamed-offers.eth', { owner: addressOf(0) });
    const inserted = await insertOffer(db, 4, named.id, named.name, ONE_ETH, { expiresAt: new Date(Date.now() + 1_500) });
    // an id past 32 bits, as a busy market's ids will be
    const o = await db.updateTable('offers').set({ id: 3_000_000_002 }).where('id', '=', inserted.id).returning('id').executeTakeFirstOrThrow();
    const page = async (status: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/offers/name/${named.name}?status=${status}` });
      assert.equal(res.statusCode, 200, show(res));
      return body(res).data.offers[0];
    };
    const first = await page('pending');
    assert.equal(first.id, o.id);
    assert.deepEqual(await page('pending'), first, 'read twice, the same');
    await db.updateTable('offers').set({ unfunded_reason: 'changed' }).where('id', '=', o.id).execute();
    assert.equal((await page('pending')).unfunded_reason, 'changed');
    await db.updateTable('ens_names').set({ token_id: '42' }).where('id', '=', named.id).execute();
    assert.equal((await page('pending')).token_id, '42');
    // no write: the end time passes, and the page read before reads it expired
    await new Promise((r) => setTimeout(r, Math.max(0, new Date(first.expires_at).getTime() - Date.now() + 50)));
    assert.equal(await page('pending'), undefined, 'no longer pending');
    assert.deepEqual(await page('expired'), { ...first, status: 'expired', unfunded_reason: 'changed', token_id: '42' });
  });
});
