import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import type { NotificationType } from '../lib/notification-types.js';

/** The kinds of notification the service writes: the list is `src/lib/notification-types.ts`. */
export type { NotificationType };

export interface NewNotification {
  /** Recipient address (any case; stored lower-case). */
  recipient: string;
  type: NotificationType;
  ensNameId: number | null;
  title: string;
  message: string;
  /** Offer or listing id, amounts in wei (strings), counterpart address… */
  metadata?: Record<string, unknown>;
}

/**
 * The one way notifications are written, inside the caller's transaction so that a notification
 * exists exactly when the change it reports does.
 */
export async function notify(trx: Executor, notifications: NewNotification | NewNotification[]): Promise<void> {
  const list = Array.isArray(notifications) ? notifications : [notifications];
  if (list.length === 0) return;
  await trx
    .insertInto('notifications')
    .values(list.map((n) => ({
      recipient_address: n.recipient.toLowerCase(),
      type: n.type,
      ens_name_id: n.ensNameId,
      title: n.title,
      message: n.message,
      metadata: JSON.stringify(n.metadata ?? {}),
    })))
    .execute();
}

/** Which watchlist flag asks for a watcher notice. */
export type WatchFlag = 'listing' | 'price_change' | 'sale' | 'offer';

export interface WatcherNotice {
  type: Extract<NotificationType, 'new_listing' | 'price_change' | 'sale' | 'new_offer'>;
  flag: WatchFlag;
  ensNameId: number;
  title: string;
  message: string;
  metadata: Record<string, unknown>;
  /** Addresses that caused the event (seller, buyer): they hear of it otherwise, not as watchers. */
  exclude: string[];
  /** For offers: the amount and currency, compared (valued in ETH) with each entry's minOfferThreshold. */
  offer?: { amountWei: string; currency: string };
}

/**
 * Writes each notice to every user watching its name with its flag on (on any of their lists;
 * one notice per user however many lists hold the name), in one INSERT … SELECT over the name's
 * watchers (watchlist_items_name_idx), inside the caller's transaction: a name with thousands of
 * watchers costs one statement, not a round trip each. Returns how many were written.
 */
export async function notifyWatchers(trx: Executor, notices: readonly WatcherNotice[]): Promise<number> {
  if (notices.length === 0) return 0;
  const r = await sql`
    INSERT INTO notifications (recipient_address, type, ens_name_id, title, message, metadata)
    SELECT DISTINCT ON (e.idx, u.address) u.address, e.type, e.name_id, e.title, e.message, e.metadata::jsonb
    FROM unnest(${notices.map((_, i) => i)}::int[], ${notices.map((n) => n.type)}::text[], ${notices.map((n) => n.flag)}::text[],
        ${notices.map((n) => n.ensNameId)}::bigint[], ${notices.map((n) => n.title)}::text[], ${notices.map((n) => n.message)}::text[],
        ${notices.map((n) => JSON.stringify(n.metadata))}::text[], ${notices.map((n) => n.exclude.map((a) => a.toLowerCase()).join(','))}::text[],
        ${notices.map((n) => n.offer?.amountWei ?? null)}::numeric[], ${notices.map((n) => n.offer?.currency.toLowerCase() ?? null)}::text[])
      AS e(idx, type, flag, name_id, title, message, metadata, exclude, offer_wei, offer_currency)
    JOIN watchlist_items w ON w.ens_name_id = e.name_id
    JOIN users u ON u.id = w.user_id
    WHERE CASE e.flag
        WHEN 'listing' THEN w.notify_on_listing
        WHEN 'price_change' THEN w.notify_on_price_change
        WHEN 'sale' THEN w.notify_on_sale
        WHEN 'offer' THEN w.notify_on_offer AND (w.min_offer_threshold IS NULL OR e.offer_wei IS NULL
          OR eth_value_wei(e.offer_wei, e.offer_currency) IS NULL -- no price to judge by: tell
          OR eth_value_wei(e.offer_wei, e.offer_currency) >= w.min_offer_threshold * 1e18)
        ELSE false END
      AND NOT (u.address::text = ANY(string_to_array(e.exclude, ',')))
    ORDER BY e.idx, u.address`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}
