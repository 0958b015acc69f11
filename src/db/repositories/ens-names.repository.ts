import type { Executor } from '../client.js';
import { AppError } from '../../errors.js';
import { InvalidNameError, parseEthName } from '../../lib/ens.js';

export interface NameRef {
  id: number;
  name: string;
  owner_address: string | null;
  expiry_date: Date | null;
}

/** The name behind a path or query value: 400 INVALID_NAME when it does not normalize, 404 when unknown. */
export async function resolveName(db: Executor, input: string): Promise<NameRef> {
  let name: string;
  try {
    name = parseEthName(input).name;
  } catch (e) {
    if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', e.message, { field: 'name' });
    throw e;
  }
  const row = await db.selectFrom('ens_names').select(['id', 'name', 'owner_address', 'expiry_date']).where('name', '=', name).executeTakeFirst();
  if (!row) throw new AppError('ENS_NAME_NOT_FOUND', `${name} is not known here`);
  return row;
}
