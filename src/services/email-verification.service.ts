import type { Deps } from '../container.js';
import type { Executor } from '../db/client.js';
import { newSecret, sha256 } from './tokens.js';
import { addSeconds } from '../lib/time.js';

export const VERIFICATION_TOKEN_TTL_SECONDS = 24 * 60 * 60;

/**
 * Starts the verification of `email` for a user, inside the caller's transaction: earlier tokens
 * stop working, a new 24-hour token is stored (its SHA-256 only) and the mail job is enqueued, so
 * that either all of it happens or none of it does.
 */
export async function startEmailVerification(deps: Pick<Deps, 'jobs'>, trx: Executor, userId: number, email: string): Promise<void> {
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
  await deps.jobs.send('mail.verify-email', { userId, email, token }, { trx });
}

declare module '../jobs/queue.js' {
  interface JobPayloads {
    /** The raw token travels only inside the job row, never in logs; the table keeps its hash. */
    'mail.verify-email': { userId: number; email: string; token: string };
  }
}
