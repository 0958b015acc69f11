import type { Deps } from '../deps.js';
import type { ErrorCode } from '../errors.js';
import type { AuthUser } from '../services/tokens.js';

export type AuthLevel = 'required' | 'optional' | 'none';

/** One route as registered: what tests and tools enumerate (the authorization matrix). */
export interface RouteEntry {
  method: string;
  url: string;
  auth: AuthLevel;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Authentication level of the route (interface document, "Authentication"). Default none. */
    auth?: AuthLevel;
    /** Seconds a client or proxy may cache a successful GET; absent means `no-store`. */
    cacheSeconds?: number;
    /** The code of a malformed request (NUL, bad JSON) on this route; default VALIDATION_ERROR. */
    inputError?: ErrorCode;
  }
  interface FastifyRequest {
    /** The caller when a valid bearer token was sent, else null. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    deps: Deps;
    /** Compiles every route schema not compiled yet (they compile on first use: plugins/schema-compilers.ts). */
    compileSchemas(): void;
    /** Every route registered, with its authentication level. */
    routeTable: readonly RouteEntry[];
  }
}
