import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/client.js';
import { mailJobExpireSeconds } from '../services/email-verification.service.js';
import { notify, type NewNotification } from '../services/notifier.js';
import { ATTO, attoUsdToWei, premiumAttoUsd, price8 } from '../lib/ens-premium.js';
import { DAY } from '../lib/time.js';
import { lineMessage, type AlertLine, type LineFacts } from './messages.js';

/**
 * Expiry alerts for owners and watchers, each delivered once per name, line and expiry:
 * 30 and 7 days before expiry, grace period start (expiry), premium auction start (expiry +
 * grace), and, for a watcher's threshold, "premium now below X ETH".
 *
 * The fixed lines are crossed at `expiry + offset`, so each run reads only the names whose expiry
 * falls in the window since the previous run's checkpoint (`sync_state`), shifted by each line's
 * offset: four range reads of `ens_names_expiry_idx`, never a scan. Recipients are the owner and
 * the users watching the name. `expiry_notices` (primary key name, line, expiry, recipient) takes
 * each alert once, with its notification and its mail job in the same transaction; a renewed name
 * has a new expiry, so the old one's lines are never reached and the new one's are fresh.
 *
 * The premium line depends on the day's ETH/USD price, so each run checks the watchers with a
 * threshold on names now in their premium auction (a partial index of those watchlist items)
 * and alerts those whose premium, by ENS's own formula (lib/ens-premium.ts), is below it.
 */
const CHECKPOINT = 'lifecycle.expiry_alerts';
const MAX_WINDOW_MS = DAY;
const FIRST_RUN_LOOKBACK_MS = DAY;
export const EXPIRY_MAIL_RETRY_LIMIT = 10;

export interface AlertPeriods {
  gracePeriodDays: number;
  premiumPeriodDays: number;
  premiumStartUsd: number;
}

export type AlertCounts = Record<AlertLine, number> & { through: Date };

interface Inserted {
  ens_name_id: number;
  line: AlertLine;
  expiry_date: Date;
  recipient_address: string;
  name: string;
  owner_address: string | null;
}

type AlertDeps = Pick<Deps, 'db' | 'jobs' | 'config' | 'logger'>;

export function periodsOf(config: Deps['config']): AlertPeriods {
  return { gracePeriodDays: config.gracePeriodDays, premiumPeriodDays: config.premiumPeriodDays, premiumStartUsd: config.premiumStartUsd };
}

/** The premium in wei at `at` of a name that expired at `expiry` (0 outside the auction). */
export function premiumWeiAt(periods: AlertPeriods, expiry: Date, at: Date, ethUsd8: bigint): bigint {
  const startsAt = expiry.getTime() + periods.gracePeriodDays * DAY;
  const elapsed = BigInt(Math.floor((at.getTime() - startsAt) / 1000));
  return attoUsdToWei(premiumAttoUsd(BigInt(periods.premiumStartUsd) * ATTO, periods.premiumPeriodDays, elapsed), ethUsd8);
}

export async function runExpiryAlerts(deps: AlertDeps, now = new Date()): Promise<AlertCounts> {
  const periods = periodsOf(deps.config);
  const counts: AlertCounts = { name_expiring_30d: 0, name_expiring_7d: 0, name_grace_started: 0, name_premium_started: 0, name_premium_below: 0, through: now };
  const lines: [AlertLine, number][] = [
    ['name_expiring_30d', -30 * DAY],
    ['name_expiring_7d', -7 * DAY],
    ['name_grace_started', 0],
    ['name_premium_started', periods.gracePeriodDays * DAY],
  ];
  for (;;) {
    const done = await deps.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO sync_state (key, value) VALUES (${CHECKPOINT}, 'null'::jsonb) ON CONFLICT (key) DO NOTHING`.execute(trx);
      const row = await trx.selectFrom('sync_state').select('value').where('key', '=', CHECKPOINT).forUpdate().executeTakeFirstOrThrow();
      const stored = (row.value as { through?: string } | null)?.through;
      const from = stored ? new Date(stored) : new Date(now.getTime() - FIRST_RUN_LOOKBACK_MS);
      const to = new Date(Math.min(now.getTime(), from.getTime() + MAX_WINDOW_MS));
      if (from < to) {
        const ranges = lines.map(([line, offset]) => sql`(${line}::text, ${new Date(from.getTime() - offset)}::timestamptz, ${new Date(to.getTime() - offset)}::timestamptz)`);
        const inserted = await sql<Inserted>`
          WITH due AS (
            SELECT n.id, n.name, n.owner_address, n.expiry_date, l.line
            FROM (VALUES ${sql.join(ranges)}) AS l(line, lo, hi)
            CROSS JOIN LATERAL (
              SELECT id, name, owner_address, expiry_date FROM ens_names
              WHERE expiry_date > l.lo AND expiry_date <= l.hi
            ) n
          ), addressed AS (
            SELECT d.id, d.line, d.expiry_date, r.address
            FROM due d
            CROSS JOIN LATERAL (
              SELECT d.owner_address AS address WHERE d.owner_address IS NOT NULL
              UNION
              SELECT u.address FROM watchlist_items w JOIN users u ON u.id = w.user_id WHERE w.ens_name_id = d.id
            ) r
          ), inserted AS (
            INSERT INTO expiry_notices (ens_name_id, line, expiry_date, recipient_address)
            SELECT id, line, expiry_date, address FROM addressed
            ON CONFLICT DO NOTHING
            RETURNING ens_name_id, line, expiry_date, recipient_address
          )
          SELECT i.ens_name_id, i.line, i.expiry_date, i.recipient_address, n.name, n.owner_address
          FROM inserted i JOIN ens_names n ON n.id = i.ens_name_id
          ORDER BY i.expiry_date, i.ens_name_id, i.line, i.recipient_address
        `.execute(trx);
        await deliver(deps, trx, periods, inserted.rows, now);
        for (const r of inserted.rows) counts[r.line] += 1;
        await trx.updateTable('sync_state').set({ value: JSON.stringify({ through: to.toISOString() }), updated_at: sql`now()` }).where('key', '=', CHECKPOINT).execute();
      }
      if (to < now) return false;
      counts.name_premium_below += await premiumBelow(deps, trx, periods, now);
      return true;
    });
    if (done) return counts;
  }
}

/** Alerts the watchers whose threshold the premium of a name in its auction is now below. */
async function premiumBelow(deps: AlertDeps, trx: Executor, periods: AlertPeriods, now: Date): Promise<number> {
  const price = await trx.selectFrom('eth_usd_prices').select(sql<string>`price_usd::text`.as('price'))
    .where('day', '<=', now).orderBy('day', 'desc').limit(1).executeTakeFirst();
  if (!price) {
    deps.logger.warn('premium alerts skipped: no ETH/USD price in eth_usd_prices');
    return 0;
  }
  const ethUsd8 = price8(price.price);
  const auctionFrom = new Date(now.getTime() - (periods.gracePeriodDays + periods.premiumPeriodDays) * DAY);
  const auctionTo = new Date(now.getTime() - periods.gracePeriodDays * DAY);
  const watched = await sql<{ ens_name_id: number; expiry_date: Date; address: string; threshold: string }>`
    SELECT n.id AS ens_name_id, n.expiry_date, u.address, max(w.premium_alert_below_wei)::text AS threshold
    FROM watchlist_items w
    JOIN ens_names n ON n.id = w.ens_name_id
    JOIN users u ON u.id = w.user_id
    WHERE w.premium_alert_below_wei IS NOT NULL
      AND n.expiry_date > ${auctionFrom} AND n.expiry_date <= ${auctionTo}
      AND NOT EXISTS (
        SELECT 1 FROM expiry_notices e
        WHERE e.ens_name_id = n.id AND e.line = 'name_premium_below' AND e.expiry_date = n.expiry_date AND e.recipient_address = u.address
      )
    GROUP BY n.id, n.expiry_date, u.address
  `.execute(trx);
  const below = watched.rows
    .map((w) => ({ ...w, premium: premiumWeiAt(periods, w.expiry_date, now, ethUsd8) }))
    .filter((w) => w.premium < BigInt(w.threshold));
  if (below.length === 0) return 0;
  const inserted = await sql<Inserted>`
    WITH inserted AS (
      INSERT INTO expiry_notices (ens_name_id, line, expiry_date, recipient_address)
      SELECT * FROM unnest(${below.map((b) => b.ens_name_id)}::bigint[], ${below.map(() => 'name_premium_below')}::text[],
                           ${below.map((b) => b.expiry_date)}::timestamptz[], ${below.map((b) => b.address)}::text[])
      ON CONFLICT DO NOTHING
      RETURNING ens_name_id, line, expiry_date, recipient_address
    )
    SELECT i.ens_name_id, i.line, i.expiry_date, i.recipient_address, n.name, n.owner_address
    FROM inserted i JOIN ens_names n ON n.id = i.ens_name_id
  `.execute(trx);
  const byKey = new Map(below.map((b) => [`${b.ens_name_id}:${b.address}`, b]));
  await deliver(deps, trx, periods, inserted.rows, now, (r) => {
    const b = byKey.get(`${r.ens_name_id}:${r.recipient_address}`);
    return b ? { premiumWei: b.premium, thresholdWei: BigInt(b.threshold), ethUsd: price.price } : {};
  });
  return inserted.rows.length;
}

/** Writes the notifications of new notices and, for users who want them by e-mail, their mail jobs. */
async function deliver(deps: AlertDeps, trx: Executor, periods: AlertPeriods, rows: Inserted[], now: Date, extra: (r: Inserted) => Partial<LineFacts> = () => ({})): Promise<void> {
  if (rows.length === 0) return;
  const notifications: NewNotification[] = rows.map((r) => {
    const facts: LineFacts = { name: r.name, expiry: r.expiry_date, role: r.owner_address === r.recipient_address ? 'owner' : 'watcher', periods, now, ...extra(r) };
    const { title, message, metadata } = lineMessage(r.line, facts);
    return { recipient: r.recipient_address, type: r.line, ensNameId: r.ens_name_id, title, message, metadata };
  });
  await notify(trx, notifications);
  const mailTo = await trx.selectFrom('users').select('address')
    .where('address', 'in', [...new Set(rows.map((r) => r.recipient_address))])
    .where('notify_on_expiry', '=', true).where('email', 'is not', null).where('email_verified_at', 'is not', null)
    .execute();
  const wanted = new Set(mailTo.map((u) => u.address));
  for (const r of rows) {
    if (!wanted.has(r.recipient_address)) continue;
    await deps.jobs.send('mail.expiry-alert', { ensNameId: r.ens_name_id, line: r.line, expiryDate: r.expiry_date.toISOString(), recipient: r.recipient_address }, {
      trx, retryLimit: EXPIRY_MAIL_RETRY_LIMIT, retryDelay: deps.config.mailRetryDelaySeconds, retryBackoff: true, expireInSeconds: mailJobExpireSeconds(deps.config),
    });
  }
}

