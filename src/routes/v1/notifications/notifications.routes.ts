import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { NotificationService } from '../../../services/notifications.service.js';
import { Envelope, errors, IdParams } from '../../../contracts/common.js';
import { NotificationList, NotificationsQuery, ReadAllResult, ReadResult, UnreadCount } from '../../../contracts/notifications.js';

export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const notifications = new NotificationService(app.deps);

  app.get('/notifications', {
    config: { auth: 'required' },
    schema: {
      tags: ['notifications'],
      summary: "The caller's notifications, newest first",
      description: 'Notifications are addressed to the wallet address of the signed-in user. `type` keeps only the given kinds (comma-separated), each in the reference\'s spelling (offer_received) or the web app\'s (offer-received); `type` in a notification is the reference\'s spelling. `unreadCount` ignores the filters.',
      querystring: NotificationsQuery,
      response: { 200: Envelope(NotificationList), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => {
    const { page, limit, unreadOnly, type } = request.query;
    return ok(await notifications.list(requireUser(request).address, page, limit, unreadOnly, type));
  });

  app.get('/notifications/unread/count', {
    config: { auth: 'required' },
    schema: {
      tags: ['notifications'],
      summary: 'Count of unread notifications of the caller',
      response: { 200: Envelope(UnreadCount), ...errors('UNAUTHORIZED') },
    },
  }, async (request) => ok({ unreadCount: await notifications.unreadCount(requireUser(request).address) }));

  app.patch('/notifications/read-all', {
    config: { auth: 'required' },
    schema: {
      tags: ['notifications'],
      summary: "Mark all of the caller's notifications as read",
      description: 'Already read notifications keep their readAt.',
      response: { 200: Envelope(ReadAllResult), ...errors('UNAUTHORIZED') },
    },
  }, async (request) => ok(await notifications.markAllRead(requireUser(request).address)));

  app.patch('/notifications/:id/read', {
    config: { auth: 'required' },
    schema: {
      tags: ['notifications'],
      summary: 'Mark one notification as read',
      description: 'When already read, succeeds and readAt is not changed.',
      params: IdParams,
      response: { 200: Envelope(ReadResult), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND') },
    },
  }, async (request) => ok(await notifications.markRead(requireUser(request).address, request.params.id)));
};
