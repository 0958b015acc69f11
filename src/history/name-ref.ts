import { AppError, type ErrorCode } from '../errors.js';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import { InvalidNameError, normalizeEthName } from '../lib/ens.js';

export interface NameRef {
  id: number;
  name: string;
}

/**
 * The stored name a path parameter names (`abc`, `abc.eth`, `ABC.eth`): 400 INVALID_NAME when it
 * does not normalize, `notFound` (the route's documented 404 code) when it is not stored.
 */
export async function resolveName(db: Executor, raw: string, notFound: ErrorCode, field = 'params.name'): Promise<NameRef> {
  const name = nameOfParam(raw, field);
  const row = await db.selectFrom('ens_names').modifyFront(GENERIC_PLAN).select(['id', 'name']).where('name', '=', name).executeTakeFirst();
  if (!row) throw new AppError(notFound, `${name} is not in the marketplace`);
  return row;
}

/** The normalized .eth name a parameter names (`abc`, `abc.eth`, `ABC.eth`): 400 INVALID_NAME naming `field` when it does not normalize. */
export function nameOfParam(raw: string, field = 'params.name'): string {
  try {
    return normalizeEthName(raw);
  } catch (e) {
    if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', `Invalid name: ${e.message}`, { field });
    throw e;
  }
}
