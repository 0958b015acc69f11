import type { Deps } from '../deps.js';
import { findUserById, updateUser, type ProfileChanges } from '../db/repositories/users.repository.js';
import { AppError } from '../errors.js';
import { toPublicUser, type PublicUser } from './auth.service.js';
import { startEmailVerification } from './email-verification.service.js';

export interface ProfileUpdate {
  email?: string;
  telegram?: string | null;
  discord?: string | null;
  notifyOnOfferReceived?: boolean;
  notifyOnListingSold?: boolean;
  notifyOnExpiry?: boolean;
  minOfferThreshold?: number | null;
}

/** The web app's profile form sends every field, empty ones as "": an empty field clears it. */
function cleared(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

export class UserService {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'jobs'>) {}

  async get(userId: number): Promise<PublicUser> {
    const user = await findUserById(this.deps.db, userId);
    if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
    return toPublicUser(user);
  }

  /**
   * Updates the profile. A new e-mail address is stored unverified and its verification starts
   * in the same transaction; sending the address already on file changes nothing; an empty one
   * clears the address (and with it any pending verification, whose token names the old address).
   */
  async update(userId: number, update: ProfileUpdate): Promise<PublicUser> {
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).forUpdate().executeTakeFirst();
      if (!current) throw new AppError('USER_NOT_FOUND', 'User not found');
      const changes: ProfileChanges = {
        telegram: cleared(update.telegram),
        discord: cleared(update.discord),
        notifyOnOfferReceived: update.notifyOnOfferReceived,
        notifyOnListingSold: update.notifyOnListingSold,
        notifyOnExpiry: update.notifyOnExpiry,
        minOfferThreshold: update.minOfferThreshold === undefined || update.minOfferThreshold === null ? update.minOfferThreshold : String(update.minOfferThreshold),
      };
      const email = cleared(update.email);
      const emailChanged = email !== undefined && (email ?? '').toLowerCase() !== (current.email ?? '').toLowerCase();
      if (emailChanged) {
        changes.email = email;
        changes.emailVerifiedAt = null;
      }
      const user = await updateUser(trx, userId, changes);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      if (emailChanged && email !== null) await startEmailVerification(this.deps, trx, userId, email);
      return toPublicUser(user);
    });
  }
}
