import { GENERIC_PLAN } from '../db/client.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { iso } from '../lib/time.js';
import { NOTIFICATION_TYPES, notificationTypeOf, type NotificationType } from '../lib/notification-types.js';

/** `type` of the list filter: comma-separated types in either spelling; an unknown one is a 400 naming the field. */
function readTypes(raw: string | undefined): NotificationType[] | undefined {
  if (raw === undefined) return undefined;
  return [...new Set(raw.split(',').map((part) => {
    const type = notificationTypeOf(part);
    if (!type) throw new AppError('VALIDATION_ERROR', `query.type has "${part.trim()}", which is no notification type`, { field: 'query.type', allowed: [...NOTIFICATION_TYPES] });
    return type;
  }))];
}

export interface NotificationView {
  id: number;
  type: string;
  ensName: string | null;
  ensTokenId: string | null;
  metadata: Record<string, unknown>;
  title: string;
  message: string;
  createdAt: string;
  sentAt: string | null;
  readAt: string | null;
  isRead: boolean;
}

interface NotificationRow {
  id: number;
  type: string;
  ens_name: string | null;
  ens_token_id: string | null;
  metadata: Record<string, unknown>;
  title: string;
  message: string;
  created_at: Date;
  sent_at: Date | null;
  read_at: Date | null;
}

function toNotification(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    type: row.type,
    ensName: row.ens_name,
    ensTokenId: row.ens_token_id,
    metadata: row.metadata,
    title: row.title,
    message: row.message,
    createdAt: iso(row.created_at),
    sentAt: iso(row.sent_at),
    readAt: iso(row.read_at),
    isRead: row.read_at !== null,
  };
}

/**
 * The caller's notifications. They are addressed to a wallet address (the notifier writes them
 * for buyers, sellers and owners who may not have signed in yet), so the caller is matched by
 * address. Every read is bounded by an index on (recipient, created_at) — the unread one partial —
 * and planned once per connection (GENERIC_PLAN: whoever asks, the plan is that range).
 */
export class NotificationService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  async list(recipient: string, page: number, limit: number, unreadOnly: boolean, type?: string): Promise<{ notifications: NotificationView[]; pagination: PageB; unreadCount: number }> {
    const { db } = this.deps;
    const types = readTypes(type);
    let query = db.selectFrom('notifications as n').modifyFront(GENERIC_PLAN).where('n.recipient_address', '=', recipient);
    if (unreadOnly) query = query.where('n.read_at', 'is', null);
    if (types) query = query.where('n.type', 'in', types);
    const [rows, counts] = await Promise.all([
      query
        .leftJoin('ens_names as e', 'e.id', 'n.ens_name_id')
        .select(['n.id', 'n.type', 'e.name as ens_name', 'e.token_id as ens_token_id', 'n.metadata', 'n.title', 'n.message', 'n.created_at', 'n.sent_at', 'n.read_at'])
        .orderBy('n.created_at', 'desc')
        .orderBy('n.id', 'desc')
        .limit(limit)
        .offset(offsetOf(page, limit))
        .execute(),
      // both counts in one statement over the caller's range: the filtered total and the unread (unfiltered)
      db.selectFrom('notifications as n').modifyFront(GENERIC_PLAN)
        .select((eb) => [
          eb.fn.countAll<number>().filterWhere((f) => f.and([
            ...(unreadOnly ? [f('n.read_at', 'is', null)] : []),
            ...(types ? [f('n.type', 'in', types)] : []),
          ])).as('total'),
          eb.fn.countAll<number>().filterWhere('n.read_at', 'is', null).as('unread'),
        ])
        .where('n.recipient_address', '=', recipient)
        .executeTakeFirstOrThrow(),
    ]);
    return { notifications: rows.map(toNotification), pagination: pageB(page, limit, Number(counts.total)), unreadCount: Number(counts.unread) };
  }

  async unreadCount(recipient: string): Promise<number> {
    const row = await this.deps.db
      .selectFrom('notifications')
      .modifyFront(GENERIC_PLAN)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('recipient_address', '=', recipient)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Sets readAt once; reading an already read notification succeeds and keeps the first readAt. */
  async markRead(recipient: string, id: number): Promise<{ id: number; readAt: string }> {
    const { db } = this.deps;
    const row = await db.selectFrom('notifications').select(['id', 'recipient_address', 'read_at']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'Notification not found');
    if (row.recipient_address !== recipient) throw new AppError('FORBIDDEN', 'This notification belongs to another user');
    if (row.read_at) return { id, readAt: iso(row.read_at) };
    // `read_at IS NULL` keeps the first time when two requests race; the loser reads the winner's.
    const updated = await db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .returning('read_at')
      .executeTakeFirst();
    const readAt = updated?.read_at ?? (await db.selectFrom('notifications').select('read_at').where('id', '=', id).executeTakeFirstOrThrow()).read_at;
    return { id, readAt: iso(readAt ?? new Date()) };
  }

  async markAllRead(recipient: string): Promise<{ updatedCount: number }> {
    const result = await this.deps.db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('recipient_address', '=', recipient)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return { updatedCount: Number(result.numUpdatedRows) };
  }
}
