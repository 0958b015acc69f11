import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { verifyMessage, type Hex } from 'viem';
import { parseSiweMessage, validateSiweMessage, type SiweMessage } from 'viem/siwe';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/client.js';
import type { User } from '../db/schema.js';
import { findUserById, upsertUserByAddress } from '../db/repositories/users.repository.js';
import { AppError } from '../errors.js';
import { addSeconds, iso } from '../lib/time.js';
import { issueAccessToken, newSecret, sha256 } from './tokens.js';

export interface SessionTokens {
  token: string;
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  user: PublicUser;
}

export interface PublicUser {
  id: number;
  address: string;
  email: string | null;
  emailVerified: boolean;
  telegram: string | null;
  discord: string | null;
  notifyOnOfferReceived: boolean;
  notifyOnListingSold: boolean;
  notifyOnExpiry: boolean;
  minOfferThreshold: number | null;
  createdAt: string;
  updatedAt: string;
}

export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    address: user.address,
    email: user.email,
    emailVerified: user.email !== null && user.email_verified_at !== null,
    telegram: user.telegram,
    discord: user.discord,
    notifyOnOfferReceived: user.notify_on_offer_received,
    notifyOnListingSold: user.notify_on_listing_sold,
    notifyOnExpiry: user.notify_on_expiry,
    minOfferThreshold: user.min_offer_threshold === null ? null : Number(user.min_offer_threshold),
    createdAt: iso(user.created_at),
    updatedAt: iso(user.updated_at),
  };
}

/** Clock skew we tolerate on a message's issuedAt. */
const ISSUED_AT_SKEW_MS = 5 * 60 * 1000;

function refuse(reason: string): never {
  throw new AppError('UNAUTHORIZED', `Sign-in refused: ${reason}`, { reason });
}

/** Sign-in with Ethereum (EIP-4361): nonces, message checks, tokens and refresh rotation. */
export class AuthService {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'rpc'>) {}

  async createNonce(address: string | undefined): Promise<{ nonce: string; expiresAt: string }> {
    const nonce = randomBytes(16).toString('hex');
    const expiresAt = addSeconds(new Date(), this.deps.config.nonceTtlSeconds);
    await this.deps.db.insertInto('auth_nonces').values({ nonce, address: address?.toLowerCase() ?? null, expires_at: expiresAt }).execute();
    return { nonce, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Checks the message (domain, chain, nonce, times) and the signature (EOA, or EIP-1271 through
   * the RPC), consumes the nonce, and opens a session for the signer.
   */
  async verify(messageText: string, signature: Hex, requestHost: string | undefined): Promise<SessionTokens> {
    let message: Partial<SiweMessage>;
    try {
      message = parseSiweMessage(messageText);
    } catch {
      throw new AppError('INVALID_MESSAGE', 'Not an EIP-4361 message', { field: 'body.message' });
    }
    const { address, domain, nonce, chainId } = message;
    if (!address || !domain || !nonce || chainId === undefined || !message.uri || message.version !== '1' || !message.issuedAt) {
      throw new AppError('INVALID_MESSAGE', 'EIP-4361 message lacks address, domain, uri, version 1, chain id, nonce or issued-at', { field: 'body.message' });
    }
    if (!this.domainAllowed(domain, requestHost)) refuse(`domain ${domain} is not accepted here`);
    if (chainId !== this.deps.config.chainId) refuse(`chain id ${chainId} is not ${this.deps.config.chainId}`);
    const now = new Date();
    if (!validateSiweMessage({ message, time: now })) refuse('message expired or not yet valid');
    if (message.issuedAt.getTime() > now.getTime() + ISSUED_AT_SKEW_MS) refuse('issued-at lies in the future');
    if (!(await this.signatureValid(address, messageText, signature))) refuse('signature does not match the address');

    const signer = address.toLowerCase();
    return this.deps.db.transaction().execute(async (trx) => {
      const consumed = await trx
        .updateTable('auth_nonces')
        .set({ used_at: now })
        .where('nonce', '=', nonce)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .where((eb) => eb.or([eb('address', 'is', null), eb('address', '=', signer)]))
        .returning('nonce')
        .executeTakeFirst();
      if (!consumed) refuse('nonce unknown, expired, already used or issued for another address');
      const user = await upsertUserByAddress(trx, signer);
      return this.openSession(trx, user, randomUUID());
    });
  }

  /** Rotates a refresh token. Presenting a rotated token again revokes its whole family. */
  async refresh(refreshToken: string): Promise<SessionTokens> {
    const hash = sha256(refreshToken);
    const now = new Date();
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('refresh_tokens')
        .select(['id', 'user_id', 'family_id', 'expires_at', 'revoked_at'])
        .where('token_hash', '=', hash)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new AppError('UNAUTHORIZED', 'Invalid refresh token');
      if (row.revoked_at !== null) {
        // A rotated token came back: someone holds a copy. End every session of that sign-in.
        await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', row.family_id).where('revoked_at', 'is', null).execute();
        return 'reused' as const;
      }
      if (row.expires_at <= now) throw new AppError('UNAUTHORIZED', 'Refresh token expired');
      const user = await findUserById(trx, row.user_id);
      if (!user) throw new AppError('UNAUTHORIZED', 'Invalid refresh token');
      const session = await this.openSession(trx, user, row.family_id);
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now, replaced_by: sql<number>`(SELECT id FROM refresh_tokens WHERE token_hash = ${sha256(session.refreshToken)})` })
        .where('id', '=', row.id)
        .execute();
      return session;
    });
    if (outcome === 'reused') throw new AppError('UNAUTHORIZED', 'Refresh token already used; sign in again');
    return outcome;
  }

  /** Ends the session of `refreshToken`, or every session of `userId` when no token is given. */
  async logout(refreshToken: string | undefined, userId: number | undefined): Promise<void> {
    const now = new Date();
    if (refreshToken !== undefined) {
      const row = await this.deps.db.selectFrom('refresh_tokens').select(['family_id', 'user_id']).where('token_hash', '=', sha256(refreshToken)).executeTakeFirst();
      if (!row || (userId !== undefined && row.user_id !== userId)) throw new AppError('UNAUTHORIZED', 'Invalid refresh token');
      await this.deps.db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', row.family_id).where('revoked_at', 'is', null).execute();
      return;
    }
    if (userId === undefined) throw new AppError('UNAUTHORIZED', 'Send a bearer token or a refresh token');
    await this.deps.db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }

  private async openSession(trx: Executor, user: User, familyId: string): Promise<SessionTokens> {
    const { config } = this.deps;
    const refreshToken = newSecret();
    await trx
      .insertInto('refresh_tokens')
      .values({ user_id: user.id, token_hash: sha256(refreshToken), family_id: familyId, expires_at: addSeconds(new Date(), config.refreshTokenTtlSeconds) })
      .execute();
    const accessToken = await issueAccessToken(config, { id: user.id, address: user.address as `0x${string}` });
    return { token: accessToken, accessToken, refreshToken, tokenType: 'Bearer', expiresIn: config.accessTokenTtlSeconds, user: toPublicUser(user) };
  }

  /** SIWE_DOMAINS when set; otherwise the host the request came to, and localhost (any port). */
  private domainAllowed(domain: string, requestHost: string | undefined): boolean {
    const hostOf = (d: string) => d.toLowerCase().replace(/:\d+$/, '');
    const allowed = this.deps.config.siweDomains.length > 0 ? this.deps.config.siweDomains : [requestHost ?? '', 'localhost'];
    return allowed.some((a) => {
      if (!a) return false;
      const entry = a.toLowerCase();
      return /:\d+$/.test(entry) ? entry === domain.toLowerCase() : hostOf(domain) === entry.replace(/:\d+$/, '');
    });
  }

  private async signatureValid(address: `0x${string}`, message: string, signature: Hex): Promise<boolean> {
    try {
      if (await verifyMessage({ address, message, signature })) return true;
    } catch {
      // not an EOA signature; a contract wallet may still accept it
    }
    const { rpc } = this.deps;
    if (!rpc) return false;
    try {
      return await rpc.verifyMessage({ address, message, signature });
    } catch (err) {
      this.deps.logger.warn({ err }, 'EIP-1271 check failed');
      return false;
    }
  }
}
