import type { Deps } from '../container.js';
import { findUserById, updateUser, type ProfileChanges } from '../db/repositories/users.repository.js';
import { AppError } from '../errors.js';
import { toPublicUser, type PublicUser } from './auth.service.js';
import { startEmailVerification } from './email-verification.service.js';

export interface ProfileUpdate {
  email?: string;
  telegram?: string | null;
  discord?: string | null;
}

export class UserService {
  constructor(private readonly deps: Deps) {}

  async get(userId: number): Promise<PublicUser> {
    const user = await findUserById(this.deps.db, userId);
    if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
    return toPublicUser(user);
  }

  /**
   * Updates the profile. A new e-mail address is stored unverified and its verification starts
   * in the same transaction; sending the address already on file changes nothing.
   */
  async update(userId: number, update: ProfileUpdate): Promise<PublicUser> {
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).forUpdate().executeTakeFirst();
      if (!current) throw new AppError('USER_NOT_FOUND', 'User not found');
      const changes: ProfileChanges = { telegram: update.telegram, discord: update.discord };
      const email = update.email?.trim();
      const emailChanged = email !== undefined && email.toLowerCase() !== (current.email ?? '').toLowerCase();
      if (emailChanged) {
        changes.email = email;
        changes.emailVerifiedAt = null;
      }
      const user = await updateUser(trx, userId, changes);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      if (emailChanged) await startEmailVerification(this.deps, trx, userId, email);
      return toPublicUser(user);
    });
  }
}
