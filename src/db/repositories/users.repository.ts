import type { Executor } from '../client.js';
import type { User } from '../schema.js';

const COLUMNS = [
  'id', 'address', 'email', 'email_verified_at', 'telegram', 'discord',
  'notify_on_offer_received', 'notify_on_listing_sold', 'notify_on_expiry', 'min_offer_threshold', 'created_at', 'updated_at',
] as const;

export async function findUserById(db: Executor, id: number): Promise<User | undefined> {
  return db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findUserByAddress(db: Executor, address: string): Promise<User | undefined> {
  return db.selectFrom('users').select(COLUMNS).where('address', '=', address.toLowerCase()).executeTakeFirst();
}

/** The user of an address, created on first sign-in. */
export async function upsertUserByAddress(db: Executor, address: string): Promise<User> {
  return db
    .insertInto('users')
    .values({ address: address.toLowerCase() })
    .onConflict((oc) => oc.column('address').doUpdateSet({ updated_at: new Date() }))
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export interface ProfileChanges {
  email?: string | null;
  emailVerifiedAt?: Date | null;
  telegram?: string | null;
  discord?: string | null;
  notifyOnOfferReceived?: boolean;
  notifyOnListingSold?: boolean;
  notifyOnExpiry?: boolean;
  /** ETH as a decimal string; null: no threshold. */
  minOfferThreshold?: string | null;
}

export async function updateUser(db: Executor, id: number, changes: ProfileChanges): Promise<User | undefined> {
  return db
    .updateTable('users')
    .set({
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.emailVerifiedAt !== undefined ? { email_verified_at: changes.emailVerifiedAt } : {}),
      ...(changes.telegram !== undefined ? { telegram: changes.telegram } : {}),
      ...(changes.discord !== undefined ? { discord: changes.discord } : {}),
      ...(changes.notifyOnOfferReceived !== undefined ? { notify_on_offer_received: changes.notifyOnOfferReceived } : {}),
      ...(changes.notifyOnListingSold !== undefined ? { notify_on_listing_sold: changes.notifyOnListingSold } : {}),
      ...(changes.notifyOnExpiry !== undefined ? { notify_on_expiry: changes.notifyOnExpiry } : {}),
      ...(changes.minOfferThreshold !== undefined ? { min_offer_threshold: changes.minOfferThreshold } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
}
