import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Config } from '../config.js';

const ISSUER = 'ens-market';
const AUDIENCE = 'ens-market-api';

/** Who a valid access token speaks for. */
export interface AuthUser {
  id: number;
  address: `0x${string}`;
}

export async function issueAccessToken(config: Config, user: AuthUser): Promise<string> {
  return new SignJWT({ address: user.address })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(user.id))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setJti(randomBytes(12).toString('base64url'))
    .setExpirationTime(`${config.accessTokenTtlSeconds}s`)
    .sign(config.jwtSecret);
}

/**
 * Verifies signature (HS256 only, so `alg: none` and key confusion fail), issuer, audience and
 * expiry. Returns undefined for any bad token; the caller decides what that means.
 */
export async function verifyAccessToken(config: Config, token: string): Promise<AuthUser | undefined> {
  try {
    const { payload } = await jwtVerify(token, config.jwtSecret, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
    const id = Number(payload.sub);
    const address = payload.address;
    if (!Number.isSafeInteger(id) || id < 1 || typeof address !== 'string' || !/^0x[0-9a-f]{40}$/.test(address)) return undefined;
    return { id, address: address as `0x${string}` };
  } catch (e) {
    if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return undefined;
    throw e;
  }
}

/** Opaque random secrets (refresh and e-mail tokens): we store only their SHA-256. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
