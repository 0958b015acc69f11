import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { LRUCache } from 'lru-cache';
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
 * What a secret verifies with: its HMAC key, imported once (jose imports a raw secret again on
 * every verification: half of its 60–80 µs), and the tokens it has verified, each with its user and
 * expiry. An access token is not revoked before it expires (a logout ends its refresh token), so a
 * token verified once is the same user until its `exp`: a signed-in request reads it from here (1
 * µs) instead of checking the signature again. Only verified tokens are kept; each is checked
 * against its expiry on every use.
 */
interface Verifier {
  key: Promise<webcrypto.CryptoKey>;
  verified: LRUCache<string, { user: AuthUser; exp: number }>;
}

/** Tokens kept verified per secret (about 400 bytes each). */
const MAX_VERIFIED = 50_000;
const verifiers = new WeakMap<Uint8Array, Verifier>();

function verifierOf(secret: Uint8Array): Verifier {
  let v = verifiers.get(secret);
  if (v === undefined) {
    const key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    verifiers.set(secret, v = { key, verified: new LRUCache({ max: MAX_VERIFIED }) });
  }
  return v;
}

/** Seconds since the epoch, as jose reads `exp` against: a token is expired from its `exp` second on. */
const epochSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Verifies signature (HS256 only, so `alg: none` and key confusion fail), issuer, audience and
 * expiry (a token without one is refused). Returns undefined for any bad token; the caller decides
 * what that means.
 */
export async function verifyAccessToken(config: Config, token: string): Promise<AuthUser | undefined> {
  const verifier = verifierOf(config.jwtSecret);
  const known = verifier.verified.get(token);
  if (known !== undefined) {
    if (epochSeconds() < known.exp) return known.user;
    verifier.verified.delete(token);
    return undefined;
  }
  try {
    const { payload } = await jwtVerify(token, await verifier.key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, requiredClaims: ['exp'] });
    const id = Number(payload.sub);
    const address = payload.address;
    if (!Number.isSafeInteger(id) || id < 1 || typeof address !== 'string' || !/^0x[0-9a-f]{40}$/.test(address)) return undefined;
    const user = { id, address: address as `0x${string}` };
    verifier.verified.set(token, { user, exp: payload.exp! });
    return user;
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
