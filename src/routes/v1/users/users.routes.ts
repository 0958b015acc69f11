import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { UserService } from '../../../services/users.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { PublicUser } from '../../../contracts/auth.js';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Handle = Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: '"" or null clears it' });

const ProfileBody = Type.Object({
  email: Type.Optional(Type.Union([Email, Type.Literal('')], { description: '"" clears the address' })),
  telegram: Type.Optional(Handle),
  discord: Type.Optional(Handle),
  notifyOnOfferReceived: Type.Optional(Type.Boolean()),
  notifyOnListingSold: Type.Optional(Type.Boolean()),
  minOfferThreshold: Type.Optional(Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 1e12 })], { description: 'in ETH; null: no threshold' })),
}, { additionalProperties: false });

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
      body: Type.Object({ email: Email }),
      response: { 200: Envelope(PublicUser), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'USER_NOT_FOUND') },
    },
  }, async (request) => ok(await users.update(requireUser(request).id, { email: request.body.email })));

  app.patch('/users/me', { config: { auth: 'required' }, schema: profileUpdate },
    async (request) => ok(await users.update(requireUser(request).id, request.body)));

  // The web app's profile form posts to the same path.
  app.post('/users/me', { config: { auth: 'required' }, schema: profileUpdate },
    async (request) => ok(await users.update(requireUser(request).id, request.body)));
};
