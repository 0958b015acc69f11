import type { Executor } from '../db/client.js';

/** The kinds of notification the service writes. */
export type NotificationType =
  | 'offer_received'
  | 'offer_accepted'
  | 'offer_rejected'
  | 'offer_updated'
  | 'listing_sold'
  | 'listing_expired'
  | 'listing_unfunded'
  | 'offer_expired';

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
