import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ActivityMeta, ActivityPage, FeedQuery } from '../../../contracts/activity.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { ActivityService } from '../../../history/index.js';
import { requireUser } from '../../../plugins/auth.js';
import { ACTIVITY_RULES, send } from '../activity/activity.routes.js';

export const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const activity = new ActivityService(app.deps);

  app.get('/feed', {
    config: { auth: 'required' },
    schema: {
      tags: ['activity'],
      summary: "Activity on the names the caller owns or watches",
      description: `The activity log of the names the signed-in user's address owns now (a name that changed hands shows its whole log to its new owner) and of the names on any of the user's watchlists. ${ACTIVITY_RULES} \`club\` as on /activity. Not cached (per user).`,
      querystring: FeedQuery,
      response: { 200: Envelope(ActivityPage, ActivityMeta), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => send(await activity.feed(requireUser(request), request.query)));
};
