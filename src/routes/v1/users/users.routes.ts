import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { UserService } from '../../../services/users.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { PublicUser } from '../../../contracts/auth.js';
import { EmailBody, ProfileBody } from '../../../contracts/users.js';

const profileUpdate = {
  tags: ['users'],
  summary: 'Update the profile',
  description: 'Only the fields sent change. A changed e-mail is stored unverified and a verification mail is sent; '
    + '`""` clears the e-mail, telegram or discord (so does `null` for telegram and discord). '
    + 'The notification preferences are stored and returned.',
  body: ProfileBody,
  response: { 200: Envelope(PublicUser), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'USER_NOT_FOUND') },
};

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = new UserService(app.deps);

  app.get('/users/me', {
    config: { auth: 'required' },
    schema: { tags: ['users'], summary: 'The signed-in user', response: { 200: Envelope(PublicUser), ...errors('UNAUTHORIZED', 'USER_NOT_FOUND') } },
  }, async (request) => ok(await users.get(requireUser(request).id)));

  app.put('/users/me/email', {
    config: { auth: 'required' },
    schema: {
      tags: ['users'],
      summary: 'Set the e-mail address; it is stored unverified and a verification mail is sent',
      body: EmailBody,
      response: { 200: Envelope(PublicUser), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'USER_NOT_FOUND') },
    },
  }, async (request) => ok(await users.update(requireUser(request).id, { email: request.body.email })));

  app.patch('/users/me', { config: { auth: 'required' }, schema: profileUpdate },
    async (request) => ok(await users.update(requireUser(request).id, request.body)));

  // The web app's profile form posts to the same path.
  app.post('/users/me', { config: { auth: 'required' }, schema: profileUpdate },
    async (request) => ok(await users.update(requireUser(request).id, request.body)));
};
