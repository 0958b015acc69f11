import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, insertListing, insertOffer, signedListing } from '../helpers/marketplace.js';
import {
  cancelOrdersByCounter, cancelOrdersByHash, markListingSold, markListingUnfunded, markOfferAccepted, markOfferUnfunded,
  onOwnershipChanged, restoreListing, restoreOffer, sweepExpiredOrders,
} from '../../src/orders/index.js';
import type { Executor } from '../../src/db/client.js';
import type { ListingStatus, OfferStatus } from '../../src/db/schema.js';

/**
 * The order state machine, one row per (status, move): every allowed and every refused move of a
 * listing and of an offer, the user's (over HTTP) and the automatic ones (through src/orders/index.ts)
 * alike. The expectations are written out here, not read from src/orders/moves.ts, so a changed
 * table fails a row. After each row the name's summaries must name the order when it is live:
 * its highest offer is the offer iff it is pending, its listing summary is the listing iff active.
 *
 * Accounts: 0 owns the name and sells, 1 makes the offer, 2 is a stranger (or the new owner), 3 takes
 * the name on chain.
 */

/** A user's refusal (HTTP error code), or an automatic move that reports it did nothing. */
type Refusal = 'INVALID_STATE' | 'FORBIDDEN' | 'refused';

interface Row<S extends string, M extends string> {
  from: S;
  move: M;
  /** The status after the move (the same status: allowed, nothing changes), or the refusal. */
  expect: S | Refusal;
  /** The order's end time has passed before the move. */
  ended?: boolean;
}

type OfferMoveName =
  | 'buyer: pending' | 'buyer: unfunded' | 'buyer: rejected' | 'buyer: new amount' | 'owner: accepted' | 'owner: expired'
  | 'owner: rejected' | 'buyer: accepted' | 'stranger: pending'
  | 'funds gone' | 'funds back' | 'expiry sweep' | 'chain fill' | 'chain cancel' | 'counter raised';

type ListingMoveName =
  | 'seller: cancel' | 'stranger: cancel' | 'seller: lists again' | 'new owner lists' | 'seller: updates' | 'stranger: updates'
  | 'approval gone' | 'approval back' | 'ownership lost' | 'ownership back' | 'expiry sweep' | 'chain fill' | 'chain cancel' | 'counter raised';

const OFFER_ROWS: Array<Row<OfferStatus, OfferMoveName>> = [
  // the user's moves (PUT /offers/:id): OFFER_MOVES, roles, and the current status sent again
  { from: 'pending', move: 'buyer: pending', expect: 'pending' },
  { from: 'pending', move: 'buyer: unfunded', expect: 'unfunded' },
  { from: 'pending', move: 'buyer: rejected', expect: 'rejected' },
  { from: 'pending', move: 'buyer: new amount', expect: 'pending' },
  { from: 'pending', move: 'owner: accepted', expect: 'accepted' },
  { from: 'pending', move: 'owner: expired', expect: 'expired' },
  { from: 'pending', move: 'owner: rejected', expect: 'FORBIDDEN' },
  { from: 'pending', move: 'buyer: accepted', expect: 'FORBIDDEN' },
  { from: 'pending', move: 'stranger: pending', expect: 'FORBIDDEN' },
  { from: 'pending', move: 'buyer: pending', expect: 'INVALID_STATE', ended: true },
  { from: 'pending', move: 'buyer: rejected', expect: 'rejected', ended: true },
  { from: 'unfunded', move: 'buyer: pending', expect: 'pending' },
  { from: 'unfunded', move: 'buyer: unfunded', expect: 'unfunded' },
  { from: 'unfunded', move: 'buyer: rejected', expect: 'rejected' },
  { from: 'unfunded', move: 'buyer: new amount', expect: 'unfunded' },
  { from: 'unfunded', move: 'owner: accepted', expect: 'INVALID_STATE' },
  { from: 'unfunded', move: 'owner: expired', expect: 'expired' },
  { from: 'expired', move: 'buyer: pending', expect: 'pending' },
  { from: 'expired', move: 'buyer: unfunded', expect: 'INVALID_STATE' },
  { from: 'expired', move: 'buyer: rejected', expect: 'rejected' },
  { from: 'expired', move: 'buyer: new amount', expect: 'INVALID_STATE' },
  { from: 'expired', move: 'owner: accepted', expect: 'INVALID_STATE' },
  { from: 'expired', move: 'owner: expired', expect: 'expired' },
  { from: 'expired', move: 'buyer: pending', expect: 'INVALID_STATE', ended: true },
  { from: 'accepted', move: 'buyer: pending', expect: 'INVALID_STATE' },
  { from: 'accepted', move: 'buyer: unfunded', expect: 'INVALID_STATE' },
  { from: 'accepted', move: 'buyer: rejected', expect: 'INVALID_STATE' },
  { from: 'accepted', move: 'buyer: new amount', expect: 'INVALID_STATE' },
  { from: 'accepted', move: 'owner: accepted', expect: 'accepted' },
  { from: 'accepted', move: 'owner: expired', expect: 'INVALID_STATE' },
  { from: 'rejected', move: 'buyer: pending', expect: 'INVALID_STATE' },
  { from: 'rejected', move: 'buyer: unfunded', expect: 'INVALID_STATE' },
  { from: 'rejected', move: 'buyer: rejected', expect: 'rejected' },
  { from: 'rejected', move: 'buyer: new amount', expect: 'INVALID_STATE' },
  { from: 'rejected', move: 'owner: accepted', expect: 'INVALID_STATE' },
  { from: 'rejected', move: 'owner: expired', expect: 'INVALID_STATE' },
  // automatic: the funds re-check, the expiry sweep, chain fills and cancels
  { from: 'pending', move: 'funds gone', expect: 'unfunded' },
  { from: 'unfunded', move: 'funds gone', expect: 'refused' },
  { from: 'expired', move: 'funds gone', expect: 'refused' },
  { from: 'accepted', move: 'funds gone', expect: 'refused' },
  { from: 'rejected', move: 'funds gone', expect: 'refused' },
  { from: 'unfunded', move: 'funds back', expect: 'pending' },
  { from: 'unfunded', move: 'funds back', expect: 'expired', ended: true },
  { from: 'pending', move: 'funds back', expect: 'refused' },
  { from: 'expired', move: 'funds back', expect: 'refused' },
  { from: 'accepted', move: 'funds back', expect: 'refused' },
  { from: 'rejected', move: 'funds back', expect: 'refused' },
  { from: 'pending', move: 'expiry sweep', expect: 'expired', ended: true },
  { from: 'unfunded', move: 'expiry sweep', expect: 'expired', ended: true },
  { from: 'pending', move: 'expiry sweep', expect: 'refused' },
  { from: 'expired', move: 'expiry sweep', expect: 'refused', ended: true },
  { from: 'accepted', move: 'expiry sweep', expect: 'refused', ended: true },
  { from: 'rejected', move: 'expiry sweep', expect: 'refused', ended: true },
  { from: 'pending', move: 'chain fill', expect: 'accepted' },
  { from: 'unfunded', move: 'chain fill', expect: 'accepted' },
  { from: 'expired', move: 'chain fill', expect: 'accepted' },
  { from: 'rejected', move: 'chain fill', expect: 'accepted' },
  { from: 'accepted', move: 'chain fill', expect: 'accepted' },
  { from: 'pending', move: 'chain cancel', expect: 'rejected' },
  { from: 'unfunded', move: 'chain cancel', expect: 'rejected' },
  { from: 'expired', move: 'chain cancel', expect: 'refused' },
  { from: 'accepted', move: 'chain cancel', expect: 'refused' },
  { from: 'rejected', move: 'chain cancel', expect: 'refused' },
  { from: 'pending', move: 'counter raised', expect: 'rejected' },
  { from: 'unfunded', move: 'counter raised', expect: 'rejected' },
  { from: 'expired', move: 'counter raised', expect: 'refused' },
  { from: 'accepted', move: 'counter raised', expect: 'refused' },
];

const LISTING_ROWS: Array<Row<ListingStatus, ListingMoveName>> = [
  // the user's moves: DELETE /listings/:id, PUT /listings/:id (a re-signed order replaces it), and
  // POST /listings, which replaces the seller's own listing or displaces another seller's
  { from: 'active', move: 'seller: cancel', expect: 'cancelled' },
  { from: 'unfunded', move: 'seller: cancel', expect: 'cancelled' },
  { from: 'cancelled', move: 'seller: cancel', expect: 'cancelled' },
  { from: 'sold', move: 'seller: cancel', expect: 'INVALID_STATE' },
  { from: 'expired', move: 'seller: cancel', expect: 'INVALID_STATE' },
  { from: 'active', move: 'seller: cancel', expect: 'INVALID_STATE', ended: true },
  { from: 'active', move: 'stranger: cancel', expect: 'FORBIDDEN' },
  { from: 'active', move: 'seller: updates', expect: 'cancelled' },
  { from: 'unfunded', move: 'seller: updates', expect: 'cancelled' },
  { from: 'cancelled', move: 'seller: updates', expect: 'INVALID_STATE' },
  { from: 'sold', move: 'seller: updates', expect: 'INVALID_STATE' },
  { from: 'expired', move: 'seller: updates', expect: 'INVALID_STATE' },
  { from: 'active', move: 'seller: updates', expect: 'INVALID_STATE', ended: true },
  { from: 'active', move: 'stranger: updates', expect: 'FORBIDDEN' },
  { from: 'active', move: 'seller: lists again', expect: 'cancelled' },
  { from: 'unfunded', move: 'seller: lists again', expect: 'cancelled' },
  { from: 'sold', move: 'seller: lists again', expect: 'sold' },
  { from: 'expired', move: 'seller: lists again', expect: 'expired' },
  { from: 'cancelled', move: 'seller: lists again', expect: 'cancelled' },
  { from: 'active', move: 'new owner lists', expect: 'unfunded' },
  { from: 'unfunded', move: 'new owner lists', expect: 'unfunded' },
  { from: 'sold', move: 'new owner lists', expect: 'sold' },
  // automatic: approval and ownership re-checks, chain transfers, the expiry sweep, fills and cancels
  { from: 'active', move: 'approval gone', expect: 'unfunded' },
  { from: 'unfunded', move: 'approval gone', expect: 'refused' },
  { from: 'cancelled', move: 'approval gone', expect: 'refused' },
  { from: 'sold', move: 'approval gone', expect: 'refused' },
  { from: 'expired', move: 'approval gone', expect: 'refused' },
  { from: 'unfunded', move: 'approval back', expect: 'active' },
  { from: 'unfunded', move: 'approval back', expect: 'expired', ended: true },
  { from: 'active', move: 'approval back', expect: 'refused' },
  { from: 'cancelled', move: 'approval back', expect: 'refused' },
  { from: 'sold', move: 'approval back', expect: 'refused' },
  { from: 'expired', move: 'approval back', expect: 'refused' },
  { from: 'active', move: 'ownership lost', expect: 'unfunded' },
  { from: 'unfunded', move: 'ownership lost', expect: 'unfunded' },
  { from: 'cancelled', move: 'ownership lost', expect: 'cancelled' },
  { from: 'sold', move: 'ownership lost', expect: 'sold' },
  { from: 'unfunded', move: 'ownership back', expect: 'active' },
  { from: 'unfunded', move: 'ownership back', expect: 'unfunded', ended: true },
  { from: 'cancelled', move: 'ownership back', expect: 'cancelled' },
  { from: 'expired', move: 'ownership back', expect: 'expired' },
  { from: 'active', move: 'expiry sweep', expect: 'expired', ended: true },
  { from: 'unfunded', move: 'expiry sweep', expect: 'expired', ended: true },
  { from: 'active', move: 'expiry sweep', expect: 'refused' },
  { from: 'cancelled', move: 'expiry sweep', expect: 'refused', ended: true },
  { from: 'sold', move: 'expiry sweep', expect: 'refused', ended: true },
  { from: 'active', move: 'chain fill', expect: 'sold' },
  { from: 'unfunded', move: 'chain fill', expect: 'sold' },
  { from: 'cancelled', move: 'chain fill', expect: 'sold' },
  { from: 'expired', move: 'chain fill', expect: 'sold' },
  { from: 'sold', move: 'chain fill', expect: 'refused' },
  { from: 'active', move: 'chain cancel', expect: 'cancelled' },
  { from: 'unfunded', move: 'chain cancel', expect: 'cancelled' },
  { from: 'cancelled', move: 'chain cancel', expect: 'refused' },
  { from: 'sold', move: 'chain cancel', expect: 'refused' },
  { from: 'expired', move: 'chain cancel', expect: 'refused' },
  { from: 'active', move: 'counter raised', expect: 'cancelled' },
  { from: 'sold', move: 'counter raised', expect: 'refused' },
];

const PAST = () => new Date(Date.now() - 60_000);
const STATUS_CODE: Record<Exclude<Refusal, 'refused'>, number> = { INVALID_STATE: 409, FORBIDDEN: 403 };

/** What a move reports: an HTTP response, whether it moved (automatic), or nothing. */
type Outcome = LightMyRequestResponse | boolean | undefined | void;

describe('the order state machine, move by move', () => {
  let t: TestContext;
  let owner: SignedIn;
  let buyer: SignedIn;
  let stranger: SignedIn;
  let serial = 0;
  before(async () => {
    t = await createTestApp();
    [owner, buyer, stranger] = await Promise.all([signIn(t.app, 0), signIn(t.app, 1), signIn(t.app, 2)]);
  });
  after(async () => { await t?.close(); });

  const inTrx = <T>(work: (trx: Executor) => Promise<T>) => t.container.db.transaction().execute(work);

  async function summary(ensNameId: number) {
    return t.container.db.selectFrom('ens_names').select(['highest_offer_id', 'listing_created_at', 'listing_price_wei']).where('id', '=', ensNameId).executeTakeFirstOrThrow();
  }

  /** `moved(to)`: what a move that returns a boolean says for an allowed row. */
  function assertOutcome(outcome: Outcome, expect: string, moved: (to: string) => boolean) {
    if (typeof outcome === 'object') {
      if (expect in STATUS_CODE) {
        assert.equal(outcome.statusCode, STATUS_CODE[expect as keyof typeof STATUS_CODE], show(outcome));
        assert.equal(body(outcome).error.code, expect, show(outcome));
      } else {
        assert.ok(outcome.statusCode === 200 || outcome.statusCode === 201, show(outcome));
      }
    } else if (typeof outcome === 'boolean') {
      assert.equal(outcome, expect !== 'refused' && moved(expect), `the move reported ${outcome ? 'a change' : 'no change'}`);
    }
  }

  async function offerMove(move: OfferMoveName, offer: { id: number; order_hash: string }, ensNameId: number): Promise<Outcome> {
    const put = (who: SignedIn, payload: object) => t.app.inject({ method: 'PUT', url: `/api/v1/offers/${offer.id}`, headers: who.headers, payload });
    switch (move) {
      case 'buyer: pending': return put(buyer, { status: 'pending' });
      case 'buyer: unfunded': return put(buyer, { status: 'unfunded' });
      case 'buyer: rejected': return put(buyer, { status: 'rejected' });
      case 'buyer: new amount': return put(buyer, { offerAmountWei: (3n * ONE_ETH).toString() });
      case 'owner: accepted': return put(owner, { status: 'accepted' });
      case 'owner: expired': return put(owner, { status: 'expired' });
      case 'owner: rejected': return put(owner, { status: 'rejected' });
      case 'buyer: accepted': return put(buyer, { status: 'accepted' });
      case 'stranger: pending': return put(stranger, { status: 'pending' });
      case 'funds gone': return inTrx((trx) => markOfferUnfunded(trx, offer.id, 'insufficient_balance'));
      case 'funds back': return inTrx((trx) => restoreOffer(trx, offer.id));
      case 'expiry sweep': return (await sweepExpiredOrders(t.container)).offers > 0;
      case 'chain fill': {
        await inTrx((trx) => markOfferAccepted(trx, offer.id, { seller: addressOf(0), buyer: addressOf(1), txHash: `0x${ensNameId.toString(16).padStart(64, '0')}`, logIndex: 1 }));
        return undefined;
      }
      case 'chain cancel': return (await inTrx((trx) => cancelOrdersByHash(trx, [offer.order_hash]))).offers > 0;
      // the counter cancels every older order of the maker, earlier rows' too: only the status tells
      case 'counter raised': await inTrx((trx) => cancelOrdersByCounter(trx, addressOf(1), 1n)); return undefined;
    }
  }

  async function listingMove(move: ListingMoveName, listing: { id: number; order_hash: string }, name: string): Promise<Outcome> {
    const del = (who: SignedIn) => t.app.inject({ method: 'DELETE', url: `/api/v1/listings/${listing.id}`, headers: who.headers });
    const post = async (i: number, who: SignedIn) =>
      t.app.inject({ method: 'POST', url: '/api/v1/listings', headers: who.headers, payload: { orderData: (await signedListing(i, name, 2n * ONE_ETH)).orderData } });
    const put = async (i: number, who: SignedIn) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/listings/${listing.id}`, headers: who.headers, payload: { orderData: (await signedListing(i, name, 2n * ONE_ETH)).orderData } });
    const ensNameId = (await t.container.db.selectFrom('ens_names').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    switch (move) {
      case 'seller: cancel': return del(owner);
      case 'stranger: cancel': return del(stranger);
      case 'seller: lists again': return post(0, owner);
      case 'new owner lists': return post(2, stranger);
      case 'seller: updates': return put(0, owner);
      case 'stranger: updates': return put(2, stranger);
      case 'approval gone': return inTrx((trx) => markListingUnfunded(trx, listing.id, 'not_approved'));
      case 'approval back': return inTrx((trx) => restoreListing(trx, listing.id));
      case 'ownership lost': return inTrx((trx) => onOwnershipChanged(trx, ensNameId, addressOf(3)));
      case 'ownership back': return inTrx((trx) => onOwnershipChanged(trx, ensNameId, addressOf(0)));
      case 'expiry sweep': return (await sweepExpiredOrders(t.container)).listings > 0;
      case 'chain fill': return inTrx((trx) => markListingSold(trx, listing.id, { buyer: addressOf(1), txHash: `0x${ensNameId.toString(16).padStart(64, '0')}`, logIndex: 0 }));
      case 'chain cancel': return (await inTrx((trx) => cancelOrdersByHash(trx, [listing.order_hash]))).listings > 0;
      case 'counter raised': await inTrx((trx) => cancelOrdersByCounter(trx, addressOf(0), 1n)); return undefined;
    }
  }

  async function offerRow(row: Row<OfferStatus, OfferMoveName>) {
    const db = t.container.db;
    const label = `smo${++serial}x.eth`;
    const name = await createName(db, label, { owner: addressOf(0) });
    const offer = await insertOffer(db, 1, name.id, label, ONE_ETH, { status: row.from, expiresAt: row.ended ? PAST() : undefined });
    if (row.from === 'unfunded') await db.updateTable('offers').set({ unfunded_reason: 'insufficient_balance', unfunded_at: new Date() }).where('id', '=', offer.id).execute();

    const outcome = await offerMove(row.move, offer, name.id);
    // restoreOffer says whether the offer is pending again
    assertOutcome(outcome, row.expect, (to) => (row.move === 'funds back' ? to === 'pending' : to !== row.from));

    const after = await db.selectFrom('offers').select(['status', 'offer_amount_wei']).where('id', '=', offer.id).executeTakeFirstOrThrow();
    const status = row.expect === 'refused' || row.expect in STATUS_CODE ? row.from : row.expect;
    assert.equal(after.status, status);
    const amountChanged = row.move === 'buyer: new amount' && !(row.expect in STATUS_CODE);
    assert.equal(after.offer_amount_wei, (amountChanged ? 3n * ONE_ETH : ONE_ETH).toString());
    const live = status === 'pending' && !row.ended;
    assert.equal((await summary(name.id)).highest_offer_id, live ? offer.id : null, `the highest offer of a ${status} offer`);
  }

  async function listingRow(row: Row<ListingStatus, ListingMoveName>) {
    const db = t.container.db;
    const label = `sml${++serial}x.eth`;
    // for the way back the name is someone else's first; for a new owner it is account 2's
    const holder = row.move === 'ownership back' ? 3 : row.move === 'new owner lists' ? 2 : 0;
    const name = await createName(db, label, { owner: addressOf(holder) });
    const listing = await insertListing(db, 0, name.id, label, ONE_ETH, { status: row.from, expiresAt: row.ended ? PAST() : undefined });
    if (row.from === 'unfunded') await db.updateTable('listings').set({ unfunded_reason: 'ownership_lost', unfunded_at: new Date() }).where('id', '=', listing.id).execute();

    const outcome = await listingMove(row.move, listing, label);
    assertOutcome(outcome, row.expect, (to) => (row.move === 'approval back' ? to === 'active' : to !== row.from));

    const after = await db.selectFrom('listings').select('status').where('id', '=', listing.id).executeTakeFirstOrThrow();
    const status = row.expect === 'refused' || row.expect in STATUS_CODE ? row.from : row.expect;
    assert.equal(after.status, status);

    // the summary names the one active listing of the name (a new one after a listing request)
    const active = await db.selectFrom('listings').select(['id', 'created_at']).where('ens_name_id', '=', name.id).where('status', '=', 'active')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())])).execute();
    assert.ok(active.length <= 1, `one active listing at most, found ${active.length}`);
    const replaced = row.move === 'seller: lists again' || row.move === 'new owner lists' || (row.move === 'seller: updates' && row.expect === 'cancelled');
    if (replaced) {
      assert.equal(active.length, 1, 'the new listing is active');
      assert.notEqual(active[0].id, listing.id);
    } else {
      assert.deepEqual(active.map((l) => l.id), status === 'active' && !row.ended ? [listing.id] : [], 'the active listing');
    }
    const s = await summary(name.id);
    assert.equal(s.listing_created_at?.getTime(), active[0]?.created_at.getTime(), 'the name\'s listing summary');
  }

  const title = (row: Row<string, string>) => `${row.from}${row.ended ? ' (past its end time)' : ''} + ${row.move} → ${row.expect}`;
  // the sweep and a raised counter reach every order of the database (or of the maker), not only
  // the row's own: those rows run one at a time after the others, each after a sweep of what is left
  const reachesAll = (row: Row<string, string>) => row.move === 'expiry sweep' || row.move === 'counter raised';

  describe('rows about one order, concurrently', { concurrency: 6 }, () => {
    for (const row of OFFER_ROWS.filter((r) => !reachesAll(r))) it(`offer: ${title(row)}`, () => offerRow(row));
    for (const row of LISTING_ROWS.filter((r) => !reachesAll(r))) it(`listing: ${title(row)}`, () => listingRow(row));
  });

  describe('rows that reach every order, one at a time', () => {
    for (const row of OFFER_ROWS.filter(reachesAll)) {
      it(`offer: ${title(row)}`, async () => { await sweepExpiredOrders(t.container); await offerRow(row); });
    }
    for (const row of LISTING_ROWS.filter(reachesAll)) {
      it(`listing: ${title(row)}`, async () => { await sweepExpiredOrders(t.container); await listingRow(row); });
    }
  });
});
