import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../../errors.js';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { EmailVerificationService } from '../../../services/email-verification.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { Message, VerifyEmailBody } from '../../../contracts/verification.js';

export const verificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const verification = new EmailVerificationService(app.deps);

  app.post('/verification/email', {
    config: { auth: 'none', rateLimit: { max: 30, timeWindow: '1 minute' } },
    // The validator coerces numbers to strings; a token that is not a JSON string is a bad request.
    preValidation: async (request) => {
      const token = (request.body as { token?: unknown } | undefined)?.token;
      if (token !== undefined && typeof token !== 'string') {
        throw new AppError('VALIDATION_ERROR', 'body.token must be a string', { field: 'body.token' });
      }
    },
    schema: {
      tags: ['verification'],
      summary: 'Verify an e-mail address with the token from the verification link',
      description:
        'The token works once, within 24 hours of being issued, and only while it is the latest one of its user ' +
        '(a resend or a new address makes earlier tokens unusable). Unknown, used, superseded and expired tokens ' +
        'are all 400 INVALID_TOKEN. Rate limit: 30 requests per minute per IP.',
      body: VerifyEmailBody,
      response: { 200: Envelope(Message), ...errors('VALIDATION_ERROR', 'INVALID_TOKEN', 'RATE_LIMITED', 'VERIFICATION_FAILED') },
    },
  }, async (request) => ok(await verification.verify(request.body.token)));

  app.post('/verification/resend', {
    config: { auth: 'required', rateLimit: { max: 10, timeWindow: '1 minute' } },
    schema: {
      tags: ['verification'],
      summary: "Send a new verification mail to the caller's address",
      description:
        'No body. Issues a new 24-hour token (earlier ones stop working) and queues the mail in the same transaction; ' +
        'the mail is sent by a worker, retried with back-off while the SMTP server fails. Rate limit: 10 requests per minute per IP.',
      response: { 200: Envelope(Message), ...errors('NO_EMAIL', 'ALREADY_VERIFIED', 'UNAUTHORIZED', 'USER_NOT_FOUND', 'RATE_LIMITED', 'RESEND_FAILED') },
    },
  }, async (request) => ok(await verification.resend(requireUser(request).id)));
};
