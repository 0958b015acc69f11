import { Type } from 'typebox';
import { Limit, NullableTimestamp, Page, PaginationB, Timestamp } from './common.js';
import { NOTIFICATION_TYPES } from '../lib/notification-types.js';

export const NotificationsQuery = Type.Object({
  page: Page,
  limit: Limit,
  unreadOnly: Type.Boolean({ default: false, description: 'true: only unread notifications' }),
  type: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 1000,
    description: `only notifications of these types, comma-separated, each as the reference spells it (offer_received) or as the web app does (offer-received): ${NOTIFICATION_TYPES.join(', ')}`,
    examples: ['offer_received,listing-sold'],
  })),
});

export const Notification = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: `the kind, as the reference spells it: ${NOTIFICATION_TYPES.join(', ')}; new_listing, price_change (a listing re-signed at a lower price), new_offer and sale go to the watchers of a name (per their watchlist flags)`, examples: ['offer_received'] }),
  ensName: Type.Union([Type.String(), Type.Null()]),
  ensTokenId: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description: 'offer or listing id, amounts in wei (strings), counterpart address…',
    examples: [{ offerId: 12, amountWei: '250000000000000000', currency: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', buyer: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' }],
  }),
  title: Type.String(),
  message: Type.String(),
  createdAt: Timestamp,
  sentAt: NullableTimestamp,
  readAt: NullableTimestamp,
  isRead: Type.Boolean(),
});

export const NotificationList = Type.Object({
  notifications: Type.Array(Notification),
  pagination: PaginationB,
  unreadCount: Type.Integer({ description: 'all unread notifications of the caller, whatever the filter' }),
});

export const ReadResult = Type.Object({ id: Type.Integer(), readAt: Timestamp });
export const ReadAllResult = Type.Object({ updatedCount: Type.Integer({ description: 'notifications marked read by this request' }) });
export const UnreadCount = Type.Object({ unreadCount: Type.Integer() });
