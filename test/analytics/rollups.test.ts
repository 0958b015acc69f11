import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { clubName, E, ETH, listing, offer, registration, sale, USDC, user, voteEvent, watch, WETH } from '../helpers/analytics.js';
import { refreshRollups, PRICE_BANDS, ROLLUP_KINDS } from '../../src/analytics/index.js';
import { windowOf, type ClubFilter } from '../../src/analytics/periods.js';
import { sumRollups } from '../../src/analytics/rollups.repository.js';
import { viewCounterOf } from '../../src/history/index.js';
import { DAY, HOUR } from '../../src/lib/time.js';

type Row = Record<string, string | number | null>;

/**
 * The rollups, recomputed here in JavaScript from the raw rows: what every refresh must equal.
 * Keys: grain, kind, bucket, source, clubs, band, name_length.
 */
async function directAggregate(t: TestContext): Promise<Row[]> {
  const db = t.container.db;
  const names = new Map((await db.selectFrom('ens_names').select(['id', 'clubs', 'label']).execute()).map((n) => [n.id, n]));
  const eth = new Set([ETH, WETH]);
  const out = new Map<string, Row & { count: number }>();
  const add = (grain: string, kind: string, at: Date, source: string, nameId: number, band: number, len: number, m: { eth?: bigint; cost?: bigint; premium?: bigint; counts?: boolean }) => {
    const bucket = (grain === 'month' ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)) : new Date(Math.floor(at.getTime() / (grain === 'hour' ? HOUR : DAY)) * (grain === 'hour' ? HOUR : DAY))).toISOString();
    // a day's total: every club set, price band and label length together
    const total = grain === 'day_total';
    const clubs = total ? '' : names.get(nameId)!.clubs.join(',');
    if (total) [band, len] = [-1, 0];
    const key = [grain, kind, bucket, source, clubs, band, len].join('|');
    const r = out.get(key) ?? { grain, kind, bucket, source, clubs, band, name_length: len, count: 0, eth_count: 0, volume_wei: '0', max_wei: null, min_wei: null, base_cost_wei: '0', premium_wei: '0', premium_count: 0 };
    if (m.counts !== false) r.count += 1;
    const v = m.eth ?? m.cost;
    if (v !== undefined) {
      r.eth_count = (r.eth_count as number) + 1;
      r.volume_wei = (BigInt(r.volume_wei as string) + v).toString();
      r.max_wei = r.max_wei === null || v > BigInt(r.max_wei) ? v.toString() : r.max_wei;
      r.min_wei = r.min_wei === null || v < BigInt(r.min_wei) ? v.toString() : r.min_wei;
    }
    if (m.cost !== undefined) {
      r.base_cost_wei = (BigInt(r.base_cost_wei as string) + m.cost - (m.premium ?? 0n)).toString();
      r.premium_wei = (BigInt(r.premium_wei as string) + (m.premium ?? 0n)).toString();
      if ((m.premium ?? 0n) > 0n) r.premium_count = (r.premium_count as number) + 1;
    }
    out.set(key, r);
  };
  const band = (p: bigint) => PRICE_BANDS.findIndex((b) => b.below === undefined || p < b.below);
  for (const grain of ['hour', 'day', 'month', 'day_total']) {
    for (const s of await db.selectFrom('sales').selectAll().execute()) {
      const isEth = eth.has(s.currency_address);
      add(grain, 'sale', s.sold_at, s.source, s.ens_name_id, isEth ? band(BigInt(s.price_wei)) : -1, 0, isEth ? { eth: BigInt(s.price_wei) } : {});
    }
    for (const r of await db.selectFrom('registrations').selectAll().where('kind', '=', 'registration').execute()) {
      add(grain, 'registration', r.block_time, 'ens', r.ens_name_id, -1, [...names.get(r.ens_name_id)!.label].length, { cost: BigInt(r.cost_wei), premium: BigInt(r.premium_wei) });
    }
    for (const l of await db.selectFrom('listings').selectAll().execute()) add(grain, 'listing', l.created_at, l.source, l.ens_name_id, -1, 0, {});
    for (const o of await db.selectFrom('offers').selectAll().execute()) add(grain, 'offer', o.created_at, o.source, o.ens_name_id, -1, 0, {});
    for (const v of await db.selectFrom('vote_events').selectAll().execute()) add(grain, 'vote', v.cast_at, 'grails', v.ens_name_id, -1, 0, { counts: v.vote !== 0 });
    // a view counts when its viewer's first view of the day was seen; one stored without that time, at the start of its day
    for (const v of await sql<{ ens_name_id: number; day: string; seen_at: Date | null }>`SELECT ens_name_id, day::text AS day, seen_at FROM name_views_daily`.execute(db).then((r) => r.rows)) {
      add(grain, 'view', v.seen_at ?? new Date(`${v.day}T00:00:00Z`), 'grails', v.ens_name_id, -1, 0, {});
    }
    for (const w of await db.selectFrom('watchlist_items').selectAll().execute()) add(grain, 'watch', w.created_at, 'grails', w.ens_name_id, -1, 0, {});
  }
  return [...out.values()].filter((r) => r.count > 0 || r.kind !== 'vote').map(normalize).sort(byKey);
}

function normalize(r: Row): Row {
  return { ...r, max_wei: r.max_wei === null ? null : String(r.max_wei), min_wei: r.min_wei === null ? null : String(r.min_wei) };
}
const byKey = (a: Row, b: Row) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;

async function stored(t: TestContext): Promise<Row[]> {
  const rows = await sql<Row>`
    SELECT grain, kind, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS bucket, source, array_to_string(clubs, ',') AS clubs, band, name_length,
           count, eth_count, volume_wei::text AS volume_wei, max_wei::text AS max_wei, min_wei::text AS min_wei,
           base_cost_wei::text AS base_cost_wei, premium_wei::text AS premium_wei, premium_count
    FROM market_rollups WHERE count > 0 OR kind <> 'vote'
  `.execute(t.container.db);
  return rows.rows.map(normalize).sort(byKey);
}

describe('market rollups', () => {
  let t: TestContext;
  const refresh = (full = false) => refreshRollups(t.container.db, { wethAddress: WETH }, { full });
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms);

  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  it('equal a direct aggregate of the raw rows after each refresh: new rows, late rows, deletions, club changes', async () => {
    const db = t.container.db;
    const a = await clubName(db, '123.eth');
    const b = await clubName(db, '121.eth');
    const c = await clubName(db, 'plainname.eth');
    const voter = await user(db, '0x00000000000000000000000000000000000000aa');
    await sale(db, { nameId: a.id, price: E(0.005), at: ago(10 * 60_000) });
    await sale(db, { nameId: a.id, price: E(2), at: ago(20 * 60_000), source: 'opensea', currency: WETH });
    await sale(db, { nameId: b.id, price: 1_000_000_000n, at: ago(2 * HOUR), currency: USDC });
    await sale(db, { nameId: c.id, price: E(60), at: ago(3 * DAY) });
    await registration(db, { nameId: a.id, cost: E(0.1), premium: E(0.04), at: ago(HOUR) });
    await registration(db, { nameId: c.id, cost: E(0.01), at: ago(HOUR) });
    await registration(db, { nameId: c.id, cost: E(0.01), at: ago(HOUR), kind: 'renewal' });
    await listing(db, { nameId: a.id, price: E(1), at: ago(5 * 60_000) });
    await listing(db, { nameId: b.id, price: E(1), at: ago(40 * DAY), source: 'opensea' });
    await offer(db, { nameId: c.id, amount: E(0.3), at: ago(26 * HOUR) });
    await voteEvent(db, { userId: voter.id, nameId: a.id, vote: 1, at: ago(HOUR) });
    await voteEvent(db, { userId: voter.id, nameId: a.id, vote: 0, at: ago(HOUR) });
    const views = viewCounterOf(db);
    views.count(a.id, 'ip:1', ago(5 * 60_000));
    views.count(a.id, 'ip:1', ago(60_000)); // the same viewer and day: one view, at the first
    views.count(a.id, 'ip:2', ago(2 * HOUR));
    views.count(b.id, 'ip:1', ago(3 * DAY));
    assert.equal(await views.flush(), 3);
    await sql`INSERT INTO name_views_daily (ens_name_id, day, viewer) VALUES (${c.id}, (now() - interval '9 days')::date, 'ip:3')`.execute(db);
    await watch(db, { userId: voter.id, nameId: a.id, at: ago(30 * 60_000) });
    const watched = await watch(db, { userId: voter.id, nameId: b.id, at: ago(50 * HOUR) });

    const first = await refresh();
    assert.ok(first.hours.sale >= 3, JSON.stringify(first));
    assert.deepEqual([first.hours.view >= 3, first.hours.watch], [true, 2], JSON.stringify(first));
    assert.deepEqual(await stored(t), await directAggregate(t));

    // nothing written since: nothing to do
    assert.deepEqual(Object.values((await refresh()).hours), [0, 0, 0, 0, 0, 0, 0]);

    // a late row into an old hour (the chain sync catching up), deletions, a name changing clubs
    await sale(db, { nameId: b.id, price: E(0.7), at: ago(400 * DAY) });
    await db.deleteFrom('listings').where('ens_name_id', '=', b.id).execute();
    await db.deleteFrom('watchlist_items').where('id', '=', watched.id).execute();
    await db.updateTable('ens_names').set({ clubs: ['999'] }).where('id', '=', b.id).execute();
    const second = await refresh();
    assert.deepEqual([second.hours.listing, second.hours.view, second.hours.watch], [1, 1, 1], JSON.stringify(second));
    assert.deepEqual(await stored(t), await directAggregate(t));

    // a full rebuild gives the same rows
    await refresh(true);
    assert.deepEqual(await stored(t), await directAggregate(t));
  });

  it('a long period sums whole months from the monthly rows and the rest from the days: the same as its days', async () => {
    const db = t.container.db;
    await sale(db, { nameId: (await clubName(db, '555.eth')).id, price: E(0.3), at: ago(70 * DAY) });
    await refresh();
    const clubs: ClubFilter[] = [{ kind: 'all' }, { kind: 'list', clubs: ['999'] }];
    for (const kind of ROLLUP_KINDS) {
      for (const period of ['30d', '90d', '1y', 'all'] as const) {
        for (const filter of clubs) {
          const q = { kind, window: windowOf(period), clubs: filter };
          const [total] = await sumRollups(db, q);
          const days = await sumRollups(db, { ...q, groupBy: 'bucket' });
          const wei = (f: 'volume_wei' | 'premium_wei') => days.reduce((n, d) => n + BigInt(d[f]), 0n).toString();
          const extreme = (f: 'max_wei' | 'min_wei', pick: (a: bigint, b: bigint) => bigint) =>
            days.flatMap((d) => (d[f] === null ? [] : [BigInt(d[f])])).reduce<bigint | null>((m, v) => (m === null ? v : pick(m, v)), null)?.toString() ?? null;
          assert.deepEqual(
            [total.count, total.eth_count, total.volume_wei, total.premium_wei, total.max_wei, total.min_wei],
            [days.reduce((n, d) => n + d.count, 0), days.reduce((n, d) => n + d.eth_count, 0), wei('volume_wei'), wei('premium_wei'),
              extreme('max_wei', (a, b) => (a > b ? a : b)), extreme('min_wei', (a, b) => (a < b ? a : b))],
            `${kind} ${period} ${JSON.stringify(filter)}`,
          );
        }
      }
    }
    const all = (await sumRollups(db, { kind: 'sale', window: windowOf('all'), clubs: { kind: 'all' } }))[0];
    assert.equal(all.count, await db.selectFrom('sales').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n)));
  });

  it('a truncated raw table empties its rollups', async () => {
    await sql`TRUNCATE sales`.execute(t.container.db);
    await refresh();
    const left = await t.container.db.selectFrom('market_rollups').select('kind').where('kind', '=', 'sale').execute();
    assert.equal(left.length, 0);
    assert.deepEqual(await stored(t), await directAggregate(t));
  });
});
