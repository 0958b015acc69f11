import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { recoverTypedDataAddress, type Hex } from 'viem';
import { parseEthName } from '../../src/lib/ens.js';
import { orderHash, orderTypedData, type OrderComponents } from '../../src/lib/seaport.js';
import { DAY, HOUR } from '../../src/lib/time.js';
import { addParkedKeysUnchecked, park } from '../../src/seed/bulk.js';
import { CopyWriter, textArray } from '../../src/seed/copy.js';
import { healInterruptedSeed, seedDemoData, seedOptionsFrom, startOfUtcDay } from '../../src/seed/seed.js';
import { inTransaction } from '../../src/seed/tail.js';
import { addressOf } from '../helpers/accounts.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

const NAMES = 2000;
const DEMO = Array.from({ length: 10 }, (_, i) => addressOf(i));

describe('demo data seed', () => {
  let ctx: TestContext;
  let now: Date;
  let counts: Record<string, number>;
  let again: Record<string, number>;
  let firstRows: Record<string, unknown[]>;
  let secondRows: Record<string, unknown[]>;
  let schemaBefore: unknown[];

  const seed = () => seedDemoData(ctx.container.db, { ...seedOptionsFrom(ctx.config), pool: ctx.container.pool, names: NAMES, now });
  const q = async <T = any>(query: string, ...params: unknown[]): Promise<T[]> => (await ctx.container.pool.query(query, params)).rows as T[];
  const schema = () => q(`SELECT indexdef AS def FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT conrelid::regclass || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT tgrelid::regclass || ' ' || tgname || ' ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`);
  const firstOf = async () => {
    const rows: Record<string, unknown[]> = {};
    for (const [table, order] of Object.entries({ users: 'id', ens_names: 'id', registrations: 'id', sales: 'id', listings: 'id', offers: 'id', votes: 'user_id, ens_name_id', vote_events: 'id', notifications: 'id', eth_usd_prices: 'day', name_views_daily: 'ens_name_id, day, viewer' })) {
      rows[table] = await q(`SELECT * FROM ${table} ORDER BY ${order} LIMIT 20`);
    }
    return rows;
  };

  before(async () => {
    ctx = await createTestApp();
    schemaBefore = await schema();
    now = startOfUtcDay();
    counts = await seed();
    firstRows = await firstOf();
    again = await seed();
    secondRows = await firstOf();
  });
  after(async () => ctx?.close());

  it('is deterministic: the same counts and the same first rows twice', () => {
    assert.deepEqual(again, counts);
    assert.deepEqual(secondRows, firstRows);
  });

  it('fills every table it writes, with about the requested number of names', async () => {
    for (const [table, n] of Object.entries(counts)) assert.ok(n > 0, `${table} is empty: ${JSON.stringify(counts)}`);
    assert.equal(counts.ens_names, NAMES);
    for (const [table, n] of Object.entries(counts)) {
      const [{ count }] = await q(`SELECT count(*)::int AS count FROM ${table}`);
      assert.equal(count, n, table);
    }
  });

  it('writes the activity log of what it seeded, oldest first: one event per row and per ended order, equal to its row', async () => {
    const types = await q<{ event_type: string; n: number }>(`SELECT event_type, count(*)::int AS n FROM activity_events GROUP BY 1 ORDER BY 1`);
    const [expected] = await q(`SELECT
      (SELECT count(*)::int FROM listings) AS listed, (SELECT count(*)::int FROM listings WHERE status = 'cancelled') AS listing_cancelled,
      (SELECT count(*)::int FROM listings WHERE status = 'expired') AS listing_expired, (SELECT count(*)::int FROM listings WHERE status = 'unfunded') AS listing_unfunded,
      (SELECT count(*)::int FROM offers WHERE status = 'accepted') AS offer_accepted, (SELECT count(*)::int FROM offers WHERE status = 'rejected') AS offer_cancelled,
      (SELECT count(*)::int FROM offers WHERE status = 'expired') AS offer_expired, (SELECT count(*)::int FROM offers) AS offer_made,
      (SELECT count(*)::int FROM offers WHERE status = 'unfunded') AS offer_unfunded,
      (SELECT count(*)::int FROM registrations WHERE kind = 'registration') AS registration, (SELECT count(*)::int FROM registrations WHERE kind = 'renewal') AS renewal,
      (SELECT count(*)::int FROM sales) AS sale, (SELECT count(*)::int FROM vote_events) AS vote`);
    assert.deepEqual(Object.fromEntries(types.map((t) => [t.event_type, t.n])), expected);
    const [{ disorder }] = await q(`SELECT count(*)::int AS disorder FROM (SELECT created_at < lag(created_at) OVER (ORDER BY id) AS back FROM activity_events) x WHERE back`);
    assert.equal(disorder, 0, 'sequence ids follow time');
    const [ids] = await q(`SELECT min(id)::int AS first, max(id)::int AS last, count(*)::int AS n FROM activity_events`);
    assert.deepEqual(ids, { first: 1, last: counts.activity_events, n: counts.activity_events });
    // Chain events carry their row's transaction, log index, amount and time; orders their ids.
    const [off] = await q(`SELECT
      (SELECT count(*)::int FROM registrations r LEFT JOIN activity_events a ON a.transaction_hash = r.tx_hash AND a.event_type = r.kind
        AND a.ens_name_id = r.ens_name_id AND a.log_index = r.log_index AND a.block_number = r.block_number AND a.price_wei = r.cost_wei
        AND a.created_at = r.block_time AND a.actor_address = r.actor_address AND a.platform = 'ens' AND (a.metadata->>'expiry_date')::timestamptz = r.expiry_date
        WHERE a.id IS NULL) AS registrations,
      (SELECT count(*)::int FROM sales s LEFT JOIN activity_events a ON a.transaction_hash = s.tx_hash AND a.event_type = 'sale' AND a.ens_name_id = s.ens_name_id
        AND a.price_wei = s.price_wei AND a.currency_address = s.currency_address AND a.actor_address = s.seller_address AND a.counterparty_address = s.buyer_address
        AND a.created_at = s.sold_at AND a.platform = s.source AND a.metadata->>'order_hash' IS NOT DISTINCT FROM s.order_hash
        WHERE a.id IS NULL) AS sales,
      (SELECT count(*)::int FROM listings l LEFT JOIN activity_events a ON a.event_type = 'listed' AND (a.metadata->>'listing_id')::bigint = l.id
        AND a.ens_name_id = l.ens_name_id AND a.price_wei = l.price_wei AND a.created_at = l.created_at AND a.actor_address = l.seller_address WHERE a.id IS NULL) AS listings,
      (SELECT count(*)::int FROM offers o LEFT JOIN activity_events a ON a.event_type = 'offer_made' AND (a.metadata->>'offer_id')::bigint = o.id
        AND a.ens_name_id = o.ens_name_id AND a.price_wei = o.offer_amount_wei AND a.created_at = o.created_at AND a.actor_address = o.buyer_address WHERE a.id IS NULL) AS offers,
      (SELECT count(*)::int FROM sales s LEFT JOIN activity_events a ON a.event_type = 'offer_accepted' AND (a.metadata->>'offer_id')::bigint = s.offer_id
        AND a.transaction_hash = s.tx_hash AND a.log_index = s.log_index AND a.created_at = s.sold_at AND a.actor_address = s.seller_address
        WHERE s.offer_id IS NOT NULL AND a.id IS NULL) AS fills,
      (SELECT count(*)::int FROM activity_events WHERE created_at > $1) AS future`, now);
    assert.deepEqual(off, { registrations: 0, sales: 0, listings: 0, offers: 0, fills: 0, future: 0 });
    assert.ok(counts.activity_events >= 2 * NAMES, JSON.stringify(counts));
  });

  it('has names of every kind: club numbers, 3 letters, words, emoji, and every expiry status', async () => {
    const [r] = await q(`SELECT
      count(*) FILTER (WHERE '999' = ANY(clubs))::int AS c999, count(*) FILTER (WHERE '10k' = ANY(clubs))::int AS c10k,
      count(*) FILTER (WHERE '100k' = ANY(clubs))::int AS c100k, count(*) FILTER (WHERE '3-letters' = ANY(clubs))::int AS l3,
      count(*) FILTER (WHERE has_emoji)::int AS emoji, count(*) FILTER (WHERE wrapped)::int AS wrapped,
      count(*) FILTER (WHERE expiry_date > $1)::int AS registered,
      count(*) FILTER (WHERE expiry_date <= $1 AND expiry_date > $1::timestamptz - interval '90 days')::int AS grace,
      count(*) FILTER (WHERE expiry_date <= $1::timestamptz - interval '90 days' AND expiry_date > $1::timestamptz - interval '111 days')::int AS premium,
      count(*) FILTER (WHERE expiry_date <= $1::timestamptz - interval '111 days')::int AS available
      FROM ens_names`, now);
    for (const [k, v] of Object.entries(r)) assert.ok((v as number) > 0, `no ${k}: ${JSON.stringify(r)}`);
    const words = await q<{ name: string }>(`SELECT name FROM ens_names WHERE name IN ('time.eth', 'people.eth', 'water.eth', 'house.eth')`);
    assert.ok(words.length >= 3, `common words missing: ${JSON.stringify(words)}`);
  });

  it('stores names exactly as parseEthName gives them, clubs (and each club\'s names) included', async () => {
    const rows = await q(`SELECT name, label, labelhash, namehash, token_id, has_emoji FROM ens_names WHERE id % 97 = 0 OR has_emoji ORDER BY id`);
    for (const r of rows) {
      const p = parseEthName(r.name);
      assert.deepEqual([r.name, r.label, r.labelhash, r.namehash, r.token_id, r.has_emoji], [p.name, p.label, p.labelhash, p.namehash, p.tokenId, p.hasEmoji], r.name);
    }
    // each club's names, as the names' trigger keeps them
    // with the columns they copy (what search reads from them: 0032, 0034), both ways
    const [clubs] = await q(`WITH want AS (SELECT DISTINCT c, n.label, n.id, n.searchable, n.label_length, n.char_class, n.listing_created_at
        FROM ens_names n CROSS JOIN LATERAL unnest(n.clubs) c),
      have AS (SELECT club, label, ens_name_id, searchable, label_length, char_class, listing_created_at FROM club_names)
      SELECT (SELECT count(*)::int FROM club_names) AS n, (SELECT count(*)::int FROM club_names WHERE listing_created_at IS NOT NULL) AS listed,
        (SELECT count(*)::int FROM (SELECT * FROM want EXCEPT SELECT * FROM have) x) AS missing,
        (SELECT count(*)::int FROM (SELECT * FROM have EXCEPT SELECT * FROM want) x) AS extra`);
    assert.ok(clubs.n > 0 && clubs.listed > 0 && clubs.missing === 0 && clubs.extra === 0, JSON.stringify(clubs));
    // the searchable labels (0040), as the names' trigger keeps them, both ways
    const [labels] = await q(`WITH want AS (SELECT id, label FROM ens_names WHERE searchable), have AS (SELECT id, label FROM search_labels)
      SELECT (SELECT count(*)::int FROM have) AS n, (SELECT count(*)::int FROM (SELECT * FROM want EXCEPT SELECT * FROM have) x) AS missing,
        (SELECT count(*)::int FROM (SELECT * FROM have EXCEPT SELECT * FROM want) x) AS extra`);
    assert.ok(labels.n > 0 && labels.missing === 0 && labels.extra === 0, JSON.stringify(labels));
  });

  it('has listings and offers in every status', async () => {
    const listings = (await q(`SELECT DISTINCT status FROM listings`)).map((r) => r.status).sort();
    const offers = (await q(`SELECT DISTINCT status FROM offers`)).map((r) => r.status).sort();
    assert.deepEqual(listings, ['active', 'cancelled', 'expired', 'sold', 'unfunded']);
    assert.deepEqual(offers, ['accepted', 'expired', 'pending', 'rejected', 'unfunded']);
  });

  it('gives each demo account names, active listings, offers made and offers received, and users 1-10', async () => {
    const users = await q(`SELECT id, address, email, email_verified_at FROM users WHERE id <= 10 ORDER BY id`);
    assert.deepEqual(users.map((u) => u.address), DEMO);
    assert.ok(users.some((u) => u.email_verified_at !== null) && users.some((u) => u.email === null));
    for (const a of DEMO) {
      const [r] = await q(`SELECT
        (SELECT count(*)::int FROM ens_names WHERE owner_address = $1) AS owned,
        (SELECT count(*)::int FROM listings WHERE seller_address = $1 AND status = 'active') AS listed,
        (SELECT count(*)::int FROM offers WHERE buyer_address = $1 AND status = 'pending') AS made,
        (SELECT count(*)::int FROM offers o JOIN ens_names n ON n.id = o.ens_name_id WHERE n.owner_address = $1 AND o.status = 'pending') AS received,
        (SELECT count(*)::int FROM notifications WHERE recipient_address = $1 AND read_at IS NULL) AS unread,
        (SELECT count(*)::int FROM notifications WHERE recipient_address = $1 AND read_at IS NOT NULL) AS read`, a);
      for (const [k, v] of Object.entries(r)) assert.ok((v as number) > 0, `${a} has no ${k}: ${JSON.stringify(r)}`);
    }
  });

  it('signs the demo accounts\' orders with their keys; every order hash is orderHash(parameters)', async () => {
    const config = { chainId: ctx.config.chainId, seaportAddress: ctx.config.seaportAddress };
    const demoOrders = [
      ...(await q(`SELECT seller_address AS offerer, order_hash, order_data FROM listings WHERE seller_address = ANY($1) AND status = 'active' ORDER BY id LIMIT 5`, DEMO)),
      ...(await q(`SELECT buyer_address AS offerer, order_hash, order_data FROM offers WHERE buyer_address = ANY($1) AND status = 'pending' ORDER BY id LIMIT 5`, DEMO)),
    ];
    assert.equal(demoOrders.length, 10);
    for (const o of demoOrders) {
      const parameters = o.order_data.parameters as OrderComponents;
      assert.equal(orderHash(parameters), o.order_hash);
      const signer = await recoverTypedDataAddress({ ...orderTypedData(parameters, config), signature: o.order_data.signature as Hex });
      assert.equal(signer.toLowerCase(), o.offerer);
    }
    const sample = await q(`(SELECT order_hash, order_data FROM listings WHERE id % 53 = 0) UNION ALL (SELECT order_hash, order_data FROM offers WHERE id % 53 = 0)`);
    assert.ok(sample.length > 20);
    for (const o of sample) {
      assert.equal(orderHash(o.order_data.parameters), o.order_hash);
      assert.match(o.order_data.signature, /^0x[0-9a-f]{130}$/);
    }
  });

  it('lists with the owner as seller, active only on names not past grace, expiry from the order; each listing knows its name and value', async () => {
    const [copied] = await q(`SELECT count(*)::int AS off FROM listings l JOIN ens_names n ON n.id = l.ens_name_id
      WHERE l.ens_name IS DISTINCT FROM n.name OR l.name_expiry_date IS DISTINCT FROM n.expiry_date
        OR l.value_wei IS DISTINCT FROM trunc(eth_value_wei(l.price_wei, l.currency_address))`);
    assert.equal(copied.off, 0);
    // each offer knows its name's owner (GET /offers?owner= reads it), as the trigger the load does without would write it
    const [owned] = await q(`SELECT count(*) FILTER (WHERE o.name_owner_address IS DISTINCT FROM n.owner_address)::int AS off,
      count(o.name_owner_address)::int AS known FROM offers o JOIN ens_names n ON n.id = o.ens_name_id`);
    assert.equal(owned.off, 0);
    assert.ok(owned.known > 0);
    const bad = await q(`SELECT l.id FROM listings l JOIN ens_names n ON n.id = l.ens_name_id
      WHERE l.status = 'active' AND (l.seller_address <> n.owner_address OR n.expiry_date <= $1::timestamptz - interval '90 days'
        OR l.expires_at <= $1 OR extract(epoch FROM l.expires_at)::bigint <> (l.order_data->'parameters'->>'endTime')::bigint)`, now);
    assert.deepEqual(bad, []);
  });

  it('keeps each name\'s highest offer, cheapest listing and vote counts equal to the rows they summarise', async () => {
    // The amount is the maximum; the id is a pending offer of that amount (ties: the marketplace's rule).
    const offers = await q(`SELECT n.id FROM ens_names n
      LEFT JOIN LATERAL (SELECT max(offer_amount_wei) AS amount FROM offers o WHERE o.ens_name_id = n.id AND o.status = 'pending' AND o.expires_at > now()) o ON true
      LEFT JOIN offers h ON h.id = n.highest_offer_id
      WHERE n.highest_offer_wei IS DISTINCT FROM o.amount
        OR (n.highest_offer_id IS NOT NULL AND (h.ens_name_id <> n.id OR h.status <> 'pending' OR h.offer_amount_wei <> o.amount OR h.currency_address <> n.highest_offer_currency))`);
    assert.deepEqual(offers, []);
    // listing_price_wei is the price's value in ETH (USDC at the latest ETH/USD price), see migration 0007.
    const listings = await q(`SELECT n.id FROM ens_names n LEFT JOIN LATERAL (
        SELECT min(COALESCE(eth_value_wei(price_wei, currency_address), price_wei)) AS price, max(created_at) AS created FROM listings l WHERE l.ens_name_id = n.id AND l.status = 'active' AND l.expires_at > now()) l ON true
      WHERE n.listing_price_wei IS DISTINCT FROM l.price OR n.listing_created_at IS DISTINCT FROM l.created`);
    assert.deepEqual(listings, []);
    const votes = await q(`SELECT n.id FROM ens_names n LEFT JOIN (
        SELECT ens_name_id, count(*) FILTER (WHERE vote = 1) AS up, count(*) FILTER (WHERE vote = -1) AS down FROM votes GROUP BY 1) v ON v.ens_name_id = n.id
      WHERE n.upvotes <> coalesce(v.up, 0) OR n.downvotes <> coalesce(v.down, 0)`);
    assert.deepEqual(votes, []);
    const [{ withOffer }] = await q(`SELECT count(*)::int AS "withOffer" FROM ens_names WHERE highest_offer_wei IS NOT NULL`);
    assert.ok(withOffer > 0);
  });

  it('sets each name\'s last sale from its latest sale, in ETH, WETH and USDC', async () => {
    const bad = await q(`SELECT n.id FROM ens_names n LEFT JOIN LATERAL (
        SELECT sold_at, price_wei, currency_address FROM sales s WHERE s.ens_name_id = n.id ORDER BY sold_at DESC LIMIT 1) s ON true
      WHERE n.last_sale_date IS DISTINCT FROM s.sold_at OR n.last_sale_price_wei IS DISTINCT FROM s.price_wei OR n.last_sale_currency IS DISTINCT FROM s.currency_address`);
    assert.deepEqual(bad, []);
    const currencies = (await q(`SELECT DISTINCT currency_address FROM sales`)).map((r) => r.currency_address).sort();
    assert.deepEqual(currencies, ['0x0000000000000000000000000000000000000000', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', ctx.config.wethAddress].sort());
  });

  it('has about 0.2 sales per name, most over the last two years (every month), chained from owner to owner', async () => {
    const [r] = await q(`SELECT count(*)::int AS total, count(*) FILTER (WHERE sold_at > $1::timestamptz - interval '730 days')::int AS recent,
      count(DISTINCT floor(extract(epoch FROM $1::timestamptz - sold_at) / (30 * 86400))) FILTER (WHERE sold_at > $1::timestamptz - interval '720 days')::int AS months,
      count(*) FILTER (WHERE sold_at > $1)::int AS future, array_agg(DISTINCT source ORDER BY source) AS sources FROM sales`, now);
    assert.ok(r.total >= 0.12 * NAMES && r.total <= 0.3 * NAMES, JSON.stringify(r));
    assert.ok(r.recent >= 0.6 * r.total, JSON.stringify(r));
    assert.equal(r.months, 24, JSON.stringify(r));
    assert.equal(r.future, 0);
    assert.deepEqual(r.sources, ['grails', 'seaport']);
    // Each sale's seller bought the name in the one before; the last buyer owns it; never sold before it was registered.
    const broken = await q(`SELECT s.id FROM (
        SELECT id, ens_name_id, seller_address, buyer_address, sold_at, lead(seller_address) OVER w AS next_seller, lead(id) OVER w AS next FROM sales WINDOW w AS (PARTITION BY ens_name_id ORDER BY sold_at)
      ) s JOIN ens_names n ON n.id = s.ens_name_id
      WHERE s.seller_address = s.buyer_address OR s.sold_at <= n.registration_date
        OR (s.next IS NULL AND s.buyer_address <> n.owner_address) OR (s.next IS NOT NULL AND s.next_seller <> s.buyer_address)`);
    assert.deepEqual(broken, []);
  });

  it('has name page views of the last eight weeks, counters equal to the rows, trending, also-viewed and analytics alive', async () => {
    const [r] = await q(`SELECT count(*)::int AS rows, count(*) FILTER (WHERE day <> (seen_at AT TIME ZONE 'UTC')::date OR seen_at > $1 OR day < ($1::timestamptz - interval '56 days')::date)::int AS misplaced,
      count(*) FILTER (WHERE seen_at > $1::timestamptz - interval '24 hours')::int AS last_day, count(DISTINCT viewer)::int AS viewers,
      count(DISTINCT viewer) FILTER (WHERE viewer LIKE 'u:%')::int AS users, count(DISTINCT viewer) FILTER (WHERE viewer = ANY($2))::int AS demo FROM name_views_daily`,
    now, Array.from({ length: 10 }, (_, i) => `u:${i + 1}`));
    assert.equal(r.misplaced, 0);
    assert.ok(r.rows >= NAMES && r.last_day > 0 && r.users > 0 && r.viewers > 100, JSON.stringify(r));
    assert.equal(r.demo, 10, JSON.stringify(r));
    const [c] = await q(`SELECT
      (SELECT count(*)::int FROM (SELECT ens_name_id, count(*) AS n FROM name_views_daily GROUP BY 1) d FULL JOIN name_view_counts v USING (ens_name_id) WHERE v.views IS DISTINCT FROM d.n) AS counts_off,
      (SELECT coalesce(sum(total), 0)::int FROM trend_buckets WHERE metric = 'views') AS bucketed,
      (SELECT count(*)::int FROM name_views_daily WHERE seen_at >= (SELECT min(start_hour) FROM trend_windows)) AS recent,
      (SELECT coalesce(sum(total), 0)::int FROM trend_totals WHERE metric = 'views' AND period_hours = 24) AS day_total,
      (SELECT count(*)::int FROM name_views_daily WHERE seen_at >= (SELECT start_hour FROM trend_windows WHERE period_hours = 24)) AS day_rows`);
    assert.equal(c.counts_off, 0);
    assert.equal(c.bucketed, c.recent, JSON.stringify(c));
    assert.equal(c.day_total, c.day_rows, JSON.stringify(c));

    const trending = await ctx.app.inject({ method: 'GET', url: '/api/v1/trending/views?period=7d&limit=10' });
    const top = trending.json().data.names as { name: string; trending_metrics: { period_views: number } }[];
    assert.equal(top.length, 10, trending.body);
    const also = await ctx.app.inject({ method: 'GET', url: `/api/v1/recommendations/also-viewed/${top[0].name}?limit=10` });
    const names = also.json().data.names as { recommendation_metrics: { source: string } }[];
    assert.ok(names.filter((n) => n.recommendation_metrics.source === 'collaborative').length >= 5, also.body);
    const market = await ctx.app.inject({ method: 'GET', url: '/api/v1/analytics/market' });
    assert.ok(market.json().data.overview.total_views > 0, market.body);
  });

  it('has early minters, referral registrations since 2026-04-01 and votes in the last 24 hours', async () => {
    const [r] = await q(`SELECT
      (SELECT count(*)::int FROM registrations WHERE kind = 'registration' AND block_time < '2017-06-23') AS prepunk,
      (SELECT count(*)::int FROM registrations WHERE kind = 'registration' AND block_time >= '2019-05-04' AND block_time < '2021-11-01') AS pioneer,
      (SELECT count(*)::int FROM registrations WHERE kind = 'registration' AND referrer = $1 AND block_time >= '2026-04-01') AS referred_registrations,
      (SELECT count(*)::int FROM registrations WHERE kind = 'renewal' AND referrer = $1 AND block_time >= '2026-04-01' AND cost_wei > 0) AS referred_renewals,
      (SELECT count(*)::int FROM vote_events WHERE cast_at > $2::timestamptz - interval '24 hours' AND cast_at <= $2) AS recent_votes,
      (SELECT count(*)::int FROM registrations WHERE block_time > $2) AS future_events`, ctx.config.referrerCode, now);
    const { future_events: future, ...rest } = r;
    for (const [k, v] of Object.entries(rest)) assert.ok((v as number) > 0, `no ${k}: ${JSON.stringify(r)}`);
    assert.equal(future, 0);
  });

  it('keeps each name\'s mint, its first registration, for the legends', async () => {
    const [r] = await q(`WITH direct AS (
        SELECT DISTINCT ON (ens_name_id) ens_name_id, id, actor_address, block_time FROM registrations
        WHERE kind = 'registration' ORDER BY ens_name_id, block_time, block_number, log_index, id)
      SELECT (SELECT count(*)::int FROM direct) AS names, (SELECT count(*)::int FROM name_mints) AS mints,
        (SELECT count(*)::int FROM direct d JOIN name_mints m USING (ens_name_id)
          WHERE m.registration_id = d.id AND m.actor_address = d.actor_address AND m.block_time = d.block_time) AS equal`);
    assert.ok(r.names > 0);
    assert.deepEqual(r, { names: r.names, mints: r.names, equal: r.names });
  });

  it('keeps each event of a name in clubs under its clubs and under "*", for the clubs\' activity pages', async () => {
    const [r] = await q(`WITH want AS (
        SELECT DISTINCT c.club, e.id, e.event_type, e.platform FROM ens_names n
        CROSS JOIN LATERAL unnest(n.clubs || '{*}'::text[]) c(club) JOIN activity_events e ON e.ens_name_id = n.id WHERE n.clubs <> '{}'),
      have AS (SELECT club, event_id AS id, event_type, platform FROM club_activity)
      SELECT (SELECT count(*)::int FROM want) AS want, (SELECT count(*)::int FROM have) AS have,
        (SELECT count(*)::int FROM (SELECT * FROM want EXCEPT SELECT * FROM have) d) AS missing,
        (SELECT count(*)::int FROM (SELECT * FROM have EXCEPT SELECT * FROM want) d) AS extra`);
    assert.ok(r.want > 1000, JSON.stringify(r));
    assert.deepEqual(r, { want: r.want, have: r.want, missing: 0, extra: 0 });
  });

  it('counts the names on the vote board', async () => {
    const [r] = await q(`SELECT (SELECT sum(names)::int FROM vote_board_counts) AS kept, (SELECT count(*)::int FROM ens_names WHERE upvotes + downvotes > 0) AS counted`);
    assert.ok(r.counted > 0);
    assert.equal(r.kept, r.counted);
  });

  it('writes each registration\'s feed row with its time, cost, label (and length) and clubs', async () => {
    const [r] = await q(`WITH want AS (
        SELECT r.id, r.block_time, r.cost_wei, n.label, n.label_length, n.clubs FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id WHERE r.kind = 'registration'),
      have AS (SELECT registration_id AS id, block_time, cost_wei, label, label_length, clubs FROM registration_feed)
      SELECT (SELECT count(*)::int FROM want) AS want, (SELECT count(*)::int FROM have) AS have,
        (SELECT count(*)::int FROM (SELECT * FROM want EXCEPT SELECT * FROM have) d) AS missing,
        (SELECT count(*)::int FROM (SELECT * FROM have EXCEPT SELECT * FROM want) d) AS extra`);
    assert.ok(r.want >= NAMES, JSON.stringify(r));
    assert.deepEqual(r, { want: r.want, have: r.want, missing: 0, extra: 0 });
  });

  it('prices registrations with the day\'s ETH/USD and has a price for every day since 2017-05-01', async () => {
    const [days] = await q(`SELECT min(day)::text AS first, max(day)::text AS last, count(*)::int AS n FROM eth_usd_prices`);
    assert.equal(days.first, '2017-05-01');
    assert.equal(days.last, now.toISOString().slice(0, 10));
    assert.equal(days.n, Math.round((now.getTime() - Date.UTC(2017, 4, 1)) / DAY) + 1);
    // A one-year renewal of a 5+ character name costs $5 at that day's price.
    const rows = await q(`SELECT r.cost_wei, p.price_usd FROM registrations r JOIN ens_names n ON n.id = r.ens_name_id
      JOIN eth_usd_prices p ON p.day = (r.block_time AT TIME ZONE 'UTC')::date
      WHERE r.kind = 'renewal' AND r.duration_seconds = 31536000 AND char_length(n.label) >= 5 LIMIT 20`);
    assert.ok(rows.length > 0);
    for (const row of rows) assert.ok(Math.abs(Number(row.cost_wei) / 1e18 * Number(row.price_usd) - 5) < 0.01, JSON.stringify(row));
  });

  it('writes one vote event per vote at the same time, and notifications of the last weeks', async () => {
    const [r] = await q(`SELECT
      (SELECT count(*)::int FROM votes v LEFT JOIN vote_events e ON e.user_id = v.user_id AND e.ens_name_id = v.ens_name_id AND e.cast_at = v.created_at WHERE e.id IS NULL) AS unmatched,
      (SELECT count(*)::int FROM notifications WHERE created_at < $1::timestamptz - interval '57 days' OR created_at > $1) AS outside,
      (SELECT count(*)::int FROM notifications WHERE (metadata ? 'offerId' OR metadata ? 'listingId') AND ens_name_id IS NOT NULL) AS linked,
      (SELECT count(DISTINCT type)::int FROM notifications) AS types`, now);
    assert.equal(r.unmatched, 0);
    assert.equal(r.outside, 0);
    assert.equal(r.linked, counts.notifications);
    assert.ok(r.types >= 3, JSON.stringify(r));
    assert.ok(now.getTime() - HOUR < Date.now());
  });

  it('leaves every index and constraint as it found them, and heals a seed that died with indexes parked', async () => {
    assert.deepEqual(await schema(), schemaBefore);
    await park(ctx.container.pool, 'ens_names');
    assert.notDeepEqual(await schema(), schemaBefore);
    await healInterruptedSeed(ctx.container.pool);
    assert.deepEqual(await schema(), schemaBefore);
    // died after its foreign keys were added unchecked, before they were validated
    await park(ctx.container.pool, 'activity_events', 'foreign keys');
    await inTransaction(ctx.container.pool, async (client) => void (await addParkedKeysUnchecked(client)));
    assert.ok((await schema()).some((r) => /^activity_events FOREIGN KEY .* NOT VALID$/.test(String(r.def))));
    await healInterruptedSeed(ctx.container.pool);
    assert.deepEqual(await schema(), schemaBefore);
  });

  it('leaves statistics on every table it wrote, derived ones included, for the planner (autovacuum may be off)', async () => {
    const rows = await q(`SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() AND n_live_tup > 0 AND last_analyze IS NULL AND relname NOT IN ('kysely_migration', 'kysely_migration_lock', 'currencies') ORDER BY 1`); // currencies: a migration's rows
    assert.deepEqual(rows.map((r) => r.relname), [], 'tables with rows and no statistics');
  });

  it('moves the id sequences past the seeded rows, the activity log\'s too', async () => {
    const [{ id }] = await q(`INSERT INTO users (address) VALUES ('0x000000000000000000000000000000000000dead') RETURNING id`);
    assert.equal(id, counts.users + 1);
    await sql`DELETE FROM users WHERE id = ${id}`.execute(ctx.container.db);
    const [event] = await q(`SELECT nextval(pg_get_serial_sequence('activity_events', 'id'))::int AS id`);
    assert.equal(event.id, counts.activity_events + 1);
  });

  it('loads awkward text through COPY unchanged', async () => {
    await q(`CREATE TABLE copy_check (id int PRIMARY KEY, t text, a text[], j jsonb)`);
    const awkward = 'tab\there, new\nline, back\\slash, cr\r, quote " and \\N, emoji 🔥';
    const w = await CopyWriter.open(ctx.container.pool, 'copy_check', ['id', 't', 'a', 'j']);
    await w.add([1, awkward, textArray(['a,b', 'c"d', 'e\\f', '{}']), JSON.stringify({ s: awkward })]);
    await w.add([2, null, textArray([]), null]);
    assert.equal(await w.end(), 2);
    const rows = await q(`SELECT id, t, a, j FROM copy_check ORDER BY id`);
    assert.deepEqual(rows, [{ id: 1, t: awkward, a: ['a,b', 'c"d', 'e\\f', '{}'], j: { s: awkward } }, { id: 2, t: null, a: [], j: null }]);
    await q(`DROP TABLE copy_check`);
  });

  // Near the end: it empties the seeded tables.
  it('heals a seed that died leaving rows that break a parked unique key or foreign key, by emptying the seeded tables', async () => {
    await park(ctx.container.pool, 'ens_names');
    await park(ctx.container.pool, 'activity_events', 'foreign keys');
    await q(`INSERT INTO ens_names (name, label, labelhash, namehash, token_id)
      SELECT name, label, labelhash, '0x' || repeat('0', 64), token_id FROM ens_names WHERE id = 1`);
    await q(`INSERT INTO activity_events (event_type, ens_name_id, platform) VALUES ('vote', 999999999, 'grails')`);
    await healInterruptedSeed(ctx.container.pool);
    assert.deepEqual(await schema(), schemaBefore);
    const [{ count }] = await q(`SELECT (SELECT count(*) FROM ens_names) + (SELECT count(*) FROM activity_events) AS count`);
    assert.equal(Number(count), 0);
  });

  it('a seed that fails half-way rolls back its loads and leaves every index, key and trigger in place', async () => {
    // the referral code breaks the registrations' check while every other table is loading
    await assert.rejects(seedDemoData(ctx.container.db, { ...seedOptionsFrom(ctx.config), referrerCode: 'not a code', pool: ctx.container.pool, names: 500, now }),
      /registrations/);
    assert.deepEqual(await schema(), schemaBefore);
    const [{ parked }] = await q(`SELECT count(*)::int AS parked FROM sync_state WHERE key = 'seed.parked_indexes'`);
    assert.equal(parked, 0);
  });
});
