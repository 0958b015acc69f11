import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn, type SignedIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { runExpiryAlerts, premiumWeiAt } from '../../src/lifecycle/index.js';
import { sendExpiryMail, type ExpiryMailPayload } from '../../src/lifecycle/mail.js';
import { ATTO, attoUsdToWei, premiumAttoUsd } from '../../src/lib/ens-premium.js';
import { DAY, HOUR } from '../../src/lib/time.js';

const PERIODS = { gracePeriodDays: 90, premiumPeriodDays: 21, premiumStartUsd: 100_000_000 };

describe('the ENS premium, by ENS\'s own formula', () => {
  const START = 100_000_000n * ATTO;
  it('matches values computed by hand for days 0, 1, 10 and 20 (start × 0.5^days − start × 0.5^21), and 0 from day 21', () => {
    const end = 47_683_715_820_312_500_000n; // 1e26 / 2^21 attoUSD = $47.6837158203125
    assert.equal(premiumAttoUsd(START, 21, 0n), 100_000_000n * ATTO - end); // $99,999,952.32
    assert.equal(premiumAttoUsd(START, 21, 86_400n), 50_000_000n * ATTO - end);
    assert.equal(premiumAttoUsd(START, 21, 10n * 86_400n), 97_656_250_000_000_000_000_000n - end); // $97,656.25 − end
    assert.equal(premiumAttoUsd(START, 21, 20n * 86_400n), 95_367_431_640_625_000_000n - end); // $95.37 − end = $47.68
    assert.equal(premiumAttoUsd(START, 21, 21n * 86_400n), 0n);
    assert.equal(premiumAttoUsd(START, 21, -1n), 0n, 'nothing before the auction starts');
    // half a day: one fractional step of 2^-0.5 (ENS's bit16 constant)
    assert.equal(premiumAttoUsd(START, 21, 43_200n), (START * 707_106_781_186_547_584n) / ATTO - end);
  });
  it('in wei at the day\'s ETH/USD price, from the name\'s expiry', () => {
    assert.equal(attoUsdToWei(97_608_566_284_179_687_500_000n, 2000n * 100_000_000n), 48_804_283_142_089_843_750n); // $97,608.57 at $2,000 = 48.80 ETH
    const expiry = new Date('2026-01-01T00:00:00Z');
    const day10 = new Date(expiry.getTime() + 100 * DAY);
    assert.equal(premiumWeiAt(PERIODS, expiry, day10, 2000n * 100_000_000n), 48_804_283_142_089_843_750n);
    assert.equal(premiumWeiAt(PERIODS, expiry, new Date(expiry.getTime() + 89 * DAY), 2000n * 100_000_000n), 0n, 'in grace there is no premium');
  });
});

describe('expiry alerts (the daily lifecycle job)', () => {
  let t: TestContext;
  let owner: SignedIn;
  let watcher: SignedIn;
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const at = (ms: number) => new Date(now.getTime() + ms);
  const O = addressOf(5).toLowerCase();
  const W = addressOf(6).toLowerCase();

  before(async () => {
    t = await createTestApp();
    const db = t.container.db;
    owner = await signIn(t.app, 5);
    watcher = await signIn(t.app, 6);
    await db.updateTable('users').set({ email: 'owner@example.test', email_verified_at: now }).where('id', '=', owner.userId).execute();
    // the watcher has a verified address but does not want alerts by e-mail
    const res = await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: watcher.headers, payload: { notifyOnExpiry: false } });
    assert.equal(body(res).data.notifyOnExpiry, false, show(res));
    await db.updateTable('users').set({ email: 'watcher@example.test', email_verified_at: now }).where('id', '=', watcher.userId).execute();

    await createName(db, 'soon30.eth', { owner: O, expiryDate: at(30 * DAY + 12 * HOUR) });
    await createName(db, 'renewedsoon.eth', { owner: O, expiryDate: at(30 * DAY + 6 * HOUR) });
    await createName(db, 'week.eth', { owner: O, expiryDate: at(7 * DAY + 12 * HOUR) });
    await createName(db, 'gracing.eth', { owner: O, expiryDate: at(12 * HOUR) });
    const auction = await createName(db, 'auction.eth', { owner: O, expiryDate: at(-90 * DAY + 12 * HOUR) });
    await createName(db, 'farfuture.eth', { owner: O, expiryDate: at(400 * DAY) });
    const watch = await t.app.inject({ method: 'POST', url: '/api/v1/watchlist', headers: watcher.headers, payload: { ensName: auction.name, premiumAlertBelowWei: '1000000000000000000000' } });
    assert.ok(watch.statusCode === 200 || watch.statusCode === 201, show(watch));
    await db.insertInto('eth_usd_prices').values({ day: new Date(Date.UTC(2020, 0, 1)), price_usd: '2000.00000000' }).execute();
  });
  after(async () => { await t?.close(); });

  const alerts = async (who: SignedIn) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/notifications?limit=100', headers: who.headers });
    assert.equal(res.statusCode, 200, show(res));
    const data = body(res).data;
    const list = (data.notifications ?? data.results ?? data) as { type: string; metadata: { name: string } }[];
    return list.filter((n) => n.type.startsWith('name_')).map((n) => `${n.metadata.name} ${n.type}`).sort();
  };
  const mailJobs = async () => (await sql<{ data: ExpiryMailPayload }>`SELECT data FROM pgboss.job WHERE name = 'mail.expiry-alert' ORDER BY created_on`.execute(t.container.db)).rows.map((r) => r.data);

  it('nothing before a line is crossed', async () => {
    const counts = await runExpiryAlerts(t.container, now);
    assert.deepEqual({ ...counts, through: undefined }, { name_expiring_30d: 0, name_expiring_7d: 0, name_grace_started: 0, name_premium_started: 0, name_premium_below: 0, through: undefined });
    assert.deepEqual(await alerts(owner), []);
  });

  it('each line crossed notifies the owner and the watchers once; a name renewed in between gets nothing', async () => {
    await t.container.db.updateTable('ens_names').set({ expiry_date: at(365 * DAY) }).where('name', '=', 'renewedsoon.eth').execute();
    const counts = await runExpiryAlerts(t.container, at(DAY));
    assert.equal(counts.name_premium_started, 2);
    assert.deepEqual(await alerts(owner), [
      'auction.eth name_premium_started', 'gracing.eth name_grace_started', 'soon30.eth name_expiring_30d', 'week.eth name_expiring_7d',
    ]);
    assert.deepEqual(await alerts(watcher), ['auction.eth name_premium_started'], 'the premium is still far above the watcher\'s 1,000 ETH');

    // a second run, and a run over the same window again, add nothing
    await runExpiryAlerts(t.container, at(DAY));
    await t.container.db.updateTable('sync_state').set({ value: JSON.stringify({ through: now.toISOString() }) }).where('key', '=', 'lifecycle.expiry_alerts').execute();
    const again = await runExpiryAlerts(t.container, at(DAY));
    assert.deepEqual([again.name_expiring_30d, again.name_expiring_7d, again.name_grace_started, again.name_premium_started], [0, 0, 0, 0]);
    assert.equal((await alerts(owner)).length, 4);
  });

  it('alerts go by e-mail to a verified address that wants them, once', async () => {
    const jobs = await mailJobs();
    assert.deepEqual(jobs.map((j) => j.recipient), [O, O, O, O], 'the watcher turned e-mail off');
    for (const job of [...jobs, ...jobs]) await sendExpiryMail(t.container, job); // pg-boss may deliver twice
    const dir = path.join(t.config.dataDir, 'mail');
    const mails = existsSync(dir) ? readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8')) : [];
    assert.equal(mails.length, 4);
    assert.ok(mails.every((m) => m.includes('owner@example.test')));
    assert.ok(mails.some((m) => m.includes('Subject: gracing.eth has expired')));
  });

  it('the premium falling below a watcher\'s threshold alerts that watcher once', async () => {
    // 6.5 days into the auction: $100M × 2^-6.5 ≈ $1.1M ≈ 552 ETH at $2,000, below 1,000 ETH
    const counts = await runExpiryAlerts(t.container, at(7 * DAY));
    assert.equal(counts.name_premium_below, 1);
    assert.deepEqual(await alerts(watcher), ['auction.eth name_premium_below', 'auction.eth name_premium_started']);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/notifications?limit=100', headers: watcher.headers });
    assert.match(res.body, /premium to register auction\.eth is now 552\.\d+ ETH, below your alert at 1000 ETH/);
    assert.equal((await runExpiryAlerts(t.container, at(7 * DAY))).name_premium_below, 0);
    assert.equal((await runExpiryAlerts(t.container, at(8 * DAY))).name_premium_below, 0, 'still below: no second alert');
    assert.ok(!(await alerts(owner)).includes('auction.eth name_premium_below'), 'the owner set no threshold');
    const ledger = await t.container.db.selectFrom('expiry_notices').select('recipient_address').where('line', '=', 'name_premium_below').execute();
    assert.deepEqual(ledger.map((r) => r.recipient_address), [W]);
  });
});
