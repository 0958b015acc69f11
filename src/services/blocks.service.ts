import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { MAX_BLOCKS } from '../contracts/comments.js';
import { isAddress } from '../lib/address.js';
import { iso } from '../lib/time.js';
import { nameIdOf } from './comments.service.js';

/**
 * A user's block list: whom they do not want to read. Blocking hides the blocked user's comments
 * from the blocker (the comment reads filter on it); it tells the blocked user nothing.
 */
export class BlockService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  async list(userId: number): Promise<{ blocks: { user_id: number; address: string; created_at: string }[] }> {
    const rows = await this.deps.db.selectFrom('user_blocks as b').innerJoin('users as u', 'u.id', 'b.blocked_user_id')
      .select(['b.blocked_user_id', 'u.address', 'b.created_at'])
      .where('b.blocker_user_id', '=', userId)
      .orderBy('b.created_at', 'desc').orderBy('b.blocked_user_id', 'desc')
      .limit(MAX_BLOCKS)
      .execute();
    return { blocks: rows.map((r) => ({ user_id: r.blocked_user_id, address: r.address, created_at: iso(r.created_at) })) };
  }

  /**
   * Blocks the user `target` names: an address, or a name whose owner is blocked. Only users who
   * have signed in can be blocked (nobody else can have written anything); blocking twice is
   * harmless.
   */
  async add(userId: number, target: string): Promise<{ blocker_user_id: number; blocked_user_id: number; address: string }> {
    const db = this.deps.db;
    let address: string;
    if (isAddress(target)) {
      address = target.toLowerCase();
    } else {
      const name = await nameIdOf(db, target, 'body.user');
      const owner = await db.selectFrom('ens_names').select('owner_address').where('id', '=', name.id).executeTakeFirstOrThrow();
      if (!owner.owner_address) throw new AppError('USER_NOT_FOUND', `${name.name} has no owner`);
      address = owner.owner_address;
    }
    const blocked = await db.selectFrom('users').select(['id', 'address']).where('address', '=', address).executeTakeFirst();
    if (!blocked) throw new AppError('USER_NOT_FOUND', `${address} has never signed in here`);
    if (blocked.id === userId) throw new AppError('VALIDATION_ERROR', 'body.user: you cannot block yourself', { field: 'body.user' });

    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`blocks:${userId}`}, 0))`.execute(trx);
      const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM user_blocks WHERE blocker_user_id = ${userId}`.execute(trx);
      const already = await trx.selectFrom('user_blocks').select('blocked_user_id').where('blocker_user_id', '=', userId).where('blocked_user_id', '=', blocked.id).executeTakeFirst();
      if (already) return;
      if ((count.rows[0]?.n ?? 0) >= MAX_BLOCKS) throw new AppError('CONFLICT', `You have blocked ${MAX_BLOCKS} users, the most allowed; unblock someone first`);
      await trx.insertInto('user_blocks').values({ blocker_user_id: userId, blocked_user_id: blocked.id }).execute();
    });
    return { blocker_user_id: userId, blocked_user_id: blocked.id, address: blocked.address };
  }

  async remove(userId: number, blockedId: number): Promise<{ blocker_user_id: number; blocked_user_id: number; removed: boolean }> {
    const r = await this.deps.db.deleteFrom('user_blocks').where('blocker_user_id', '=', userId).where('blocked_user_id', '=', blockedId).executeTakeFirst();
    return { blocker_user_id: userId, blocked_user_id: blockedId, removed: Number(r.numDeletedRows) > 0 };
  }
}
