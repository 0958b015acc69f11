import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { UserService } from '../../../services/users.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { PublicUser } from '../../../contracts/auth.js';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Handle = Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]);

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
      body: Type.Object({ email: Email }),
      response: { 200: Envelope(PublicUser), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'USER_NOT_FOUND') },
    },
  }, async (request) => ok(await users.update(requireUser(request).id, { email: request.body.email })));

  app.patch('/users/me', {
    config: { auth: 'required' },
    schema: {
      tags: ['users'],
      summary: 'Update the profile',
      description: 'A changed e-mail is stored unverified and a verification mail is sent. `null` clears telegram or discord.',
      body: Type.Object({ email: Type.Optional(Email), telegram: Type.Optional(Handle), discord: Type.Optional(Handle) }, { additionalProperties: false }),
      response: { 200: Envelope(PublicUser), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'USER_NOT_FOUND') },
    },
  }, async (request) => ok(await users.update(requireUser(request).id, request.body)));
};
