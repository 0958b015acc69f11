import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Hex } from 'viem';
import { ok } from '../../../lib/envelope.js';
import { AuthService } from '../../../services/auth.service.js';
import { UserService } from '../../../services/users.service.js';
import { requireUser } from '../../../plugins/auth.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { LogoutBody, Message, Nonce, NonceQuery, PublicUser, RefreshBody, Session, VerifyBody } from '../../../contracts/auth.js';

const SIGN_IN_RATE = { max: 30, timeWindow: '1 minute' };

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const auth = new AuthService(app.deps);
  const users = new UserService(app.deps);

  app.get('/auth/nonce', {
    config: { rateLimit: SIGN_IN_RATE },
    schema: {
      tags: ['auth'],
      summary: 'Get a single-use sign-in nonce (valid 10 minutes)',
      querystring: NonceQuery,
      response: { 200: Envelope(Nonce), ...errors('VALIDATION_ERROR', 'RATE_LIMITED') },
    },
  }, async (request) => ok(await auth.createNonce(request.query.address)));

  app.post('/auth/verify', {
    config: { rateLimit: SIGN_IN_RATE },
    schema: {
      tags: ['auth'],
      summary: 'Sign in with Ethereum (EIP-4361)',
      description: 'Checks domain (SIWE_DOMAINS), chain id, nonce, expiry and signature (EIP-1271 when ETH_RPC_URL is set), then returns tokens.',
      body: VerifyBody,
      response: { 200: Envelope(Session), ...errors('VALIDATION_ERROR', 'INVALID_MESSAGE', 'UNAUTHORIZED', 'RATE_LIMITED') },
    },
  }, async (request) => ok(await auth.verify(request.body.message, request.body.signature as Hex, request.hostname)));

  app.post('/auth/refresh', {
    config: { rateLimit: SIGN_IN_RATE },
    schema: {
      tags: ['auth'],
      summary: 'Trade a refresh token for new tokens (the old refresh token stops working)',
      body: RefreshBody,
      response: { 200: Envelope(Session), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'RATE_LIMITED') },
    },
  }, async (request) => ok(await auth.refresh(request.body.refreshToken)));

  app.post('/auth/logout', {
    config: { auth: 'optional' },
    schema: {
      tags: ['auth'],
      summary: 'End a session',
      description: 'With a refresh token: ends that session. With only a bearer token: ends every session of the caller. Access tokens already issued stay valid until they expire.',
      body: LogoutBody,
      response: { 200: Envelope(Message), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => {
    await auth.logout(request.body?.refreshToken, request.user?.id);
    return ok({ message: 'Logged out' });
  });

  app.get('/auth/me', {
    config: { auth: 'required' },
    schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: Envelope(PublicUser), ...errors('UNAUTHORIZED', 'USER_NOT_FOUND') } },
  }, async (request) => ok(await users.get(requireUser(request).id)));
};
