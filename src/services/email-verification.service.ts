import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/client.js';
import { AppError, isAppError } from '../errors.js';
import { addSeconds } from '../lib/time.js';
import { newSecret, sha256 } from './tokens.js';

export const VERIFICATION_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** Retries of a verification mail; with the default 30 s first delay, doubling, about 8-17 hours. */
export const VERIFICATION_MAIL_RETRY_LIMIT = 10;

/**
 * Starts the verification of `email` for a user, inside the caller's transaction: earlier tokens
 * stop working, a new 24-hour token is stored (its SHA-256 only) and the mail job is enqueued, so
 * that either all of it happens or none of it does.
 */
export async function startEmailVerification(deps: Pick<Deps, 'jobs' | 'config'>, trx: Executor, userId: number, email: string): Promise<void> {
  const now = new Date();
  await trx
    .updateTable('email_verification_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  const token = newSecret();
  await trx
    .insertInto('email_verification_tokens')
    .values({ user_id: userId, email, token_hash: sha256(token), expires_at: addSeconds(now, VERIFICATION_TOKEN_TTL_SECONDS) })
    .execute();
  await deps.jobs.send(
    'mail.verify-email',
    { userId, email, sealedToken: sealToken(deps.config, token, userId, email) },
    { trx, retryLimit: VERIFICATION_MAIL_RETRY_LIMIT, retryDelay: deps.config.mailRetryDelaySeconds, retryBackoff: true, expireInSeconds: mailJobExpireSeconds(deps.config) },
  );
}

/** The web app's verification page, carrying the token. */
export function verificationLink(config: Pick<Config, 'appUrl'>, token: string): string {
  return `${config.appUrl.replace(/\/+$/, '')}/verify-email?token=${encodeURIComponent(token)}`;
}

/**
 * The still-usable token of a queued mail, or undefined when the payload does not decrypt, the
 * token was used, superseded or expired meanwhile (then the mail is not worth sending), or its
 * mail already went (a job run again after a crash).
 */
export async function liveTokenOfJob(deps: Pick<Deps, 'config' | 'db'>, payload: { userId: number; email: string; sealedToken?: string }): Promise<string | undefined> {
  if (typeof payload.sealedToken !== 'string') return undefined;
  const token = openToken(deps.config, payload.sealedToken, payload.userId, payload.email);
  if (token === undefined) return undefined;
  const live = await deps.db
    .selectFrom('email_verification_tokens')
    .select('id')
    .where('token_hash', '=', sha256(token))
    .where('user_id', '=', payload.userId)
    .where('used_at', 'is', null)
    .where('mailed_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return live ? token : undefined;
}

/** Records that the token's mail was handed to the mail server, so a re-run of its job does not send it again. */
export async function markMailed(deps: Pick<Deps, 'db'>, token: string): Promise<void> {
  await deps.db.updateTable('email_verification_tokens').set({ mailed_at: new Date() }).where('token_hash', '=', sha256(token)).execute();
}

/**
 * How long a mail job may run before pg-boss takes it for lost (its worker died) and retries it:
 * one SMTP delivery has three timeouts (connection, greeting, socket) of SMTP_TIMEOUT_MS.
 */
export function mailJobExpireSeconds(config: Pick<Config, 'smtpTimeoutMs'>): number {
  return Math.ceil((3 * config.smtpTimeoutMs) / 1000) + 5;
}

/** POST /verification/email and /verification/resend. */
export class EmailVerificationService {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'jobs' | 'logger'>) {}

  /**
   * Marks the token used and the address verified, in one transaction. The token is found by its
   * SHA-256 (a unique index), so no comparison runs on the secret itself; the stored hash is then
   * compared in constant time. Unknown, used (verified, or superseded by a resend or a new
   * address) and expired tokens are all INVALID_TOKEN, so an answer tells nothing about a token.
   */
  async verify(token: string): Promise<{ message: string }> {
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const hash = sha256(token);
        const row = await trx
          .selectFrom('email_verification_tokens')
          .select(['id', 'user_id', 'email', 'token_hash', 'expires_at', 'used_at'])
          .where('token_hash', '=', hash)
          .forUpdate()
          .executeTakeFirst();
        if (!row || !timingSafeEqual(row.token_hash, hash) || row.used_at !== null || row.expires_at.getTime() <= Date.now()) {
          throw invalidToken();
        }
        const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', row.user_id).forUpdate().executeTakeFirst();
        // The address changed since the mail went out (its tokens were revoked then; belt and braces).
        if (!user || user.email === null || user.email.toLowerCase() !== row.email.toLowerCase()) throw invalidToken();
        const now = new Date();
        await trx.updateTable('email_verification_tokens').set({ used_at: now }).where('id', '=', row.id).execute();
        await trx.updateTable('users').set({ email_verified_at: now, updated_at: now }).where('id', '=', user.id).execute();
        return { message: 'Email verified successfully' };
      });
    } catch (err) {
      if (isAppError(err)) throw err;
      this.deps.logger.error({ err }, 'e-mail verification failed');
      throw new AppError('VERIFICATION_FAILED', 'Email verification failed');
    }
  }

  /** A new 24-hour token and mail for the caller's unverified address; earlier tokens stop working. */
  async resend(userId: number): Promise<{ message: string }> {
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['id', 'email', 'email_verified_at']).where('id', '=', userId).forUpdate().executeTakeFirst();
        if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
        if (user.email === null || user.email === '') throw new AppError('NO_EMAIL', 'No e-mail address on file');
        if (user.email_verified_at !== null) throw new AppError('ALREADY_VERIFIED', 'E-mail address is already verified');
        await startEmailVerification(this.deps, trx, user.id, user.email);
        return { message: 'Verification email sent' };
      });
    } catch (err) {
      if (isAppError(err)) throw err;
      this.deps.logger.error({ err, userId }, 'verification resend failed');
      throw new AppError('RESEND_FAILED', 'Could not resend the verification email');
    }
  }
}

function invalidToken(): AppError {
  return new AppError('INVALID_TOKEN', 'Invalid or expired verification token', { field: 'body.token' });
}

// --- Sealing the raw token inside the job payload ---------------------------------------------

const SEAL_INFO = 'ens-market mail.verify-email token v1';
const keys = new WeakMap<Uint8Array, Buffer>();

function sealKey(config: Pick<Config, 'jwtSecret'>): Buffer {
  let key = keys.get(config.jwtSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', config.jwtSecret, Buffer.alloc(0), SEAL_INFO, 32));
    keys.set(config.jwtSecret, key);
  }
  return key;
}

/** The payload's user and address are authenticated too, so a sealed token cannot be moved. */
function aad(userId: number, email: string): Buffer {
  return Buffer.from(`${userId}\n${email}`, 'utf8');
}

/** base64url(iv ‖ ciphertext ‖ tag), AES-256-GCM. */
export function sealToken(config: Pick<Config, 'jwtSecret'>, token: string, userId: number, email: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(config), iv);
  cipher.setAAD(aad(userId, email));
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The token, or undefined when the sealed value was altered or sealed under another secret. */
export function openToken(config: Pick<Config, 'jwtSecret'>, sealed: string, userId: number, email: string): string | undefined {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 12 + 16 + 1) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(config), raw.subarray(0, 12));
    decipher.setAAD(aad(userId, email));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
