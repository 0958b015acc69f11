import { AppError } from '../errors.js';
import { InvalidNameError, labelLength, parseEthName } from '../lib/ens.js';

/** Longest name accepted in a path, before normalization (interface Limits). */
export const MAX_NAME_PARAM = 40;

/**
 * The normalized label of a name given in a path (`abc`, `abc.eth`, `ABC.eth`), or 400
 * INVALID_NAME: empty or over 40 characters as sent, not a normalizable .eth second-level name,
 * or, once normalized, shorter than `minLength` or longer than `maxLength` characters.
 */
export function labelOfParam(raw: string, rule: { minLength?: number; maxLength?: number } = {}): string {
  const sent = [...raw.trim()].length;
  if (sent < 1 || sent > MAX_NAME_PARAM) throw new AppError('INVALID_NAME', `A name has 1 to ${MAX_NAME_PARAM} characters`, { field: 'params.name' });
  let label: string;
  try {
    label = parseEthName(raw).label;
  } catch (e) {
    if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', `Invalid name: ${e.message}`, { field: 'params.name' });
    throw e;
  }
  const length = labelLength(label);
  if (rule.minLength !== undefined && length < rule.minLength) throw new AppError('INVALID_NAME', `The name needs at least ${rule.minLength} characters`, { field: 'params.name' });
  if (rule.maxLength !== undefined && length > rule.maxLength) throw new AppError('INVALID_NAME', `The name may have at most ${rule.maxLength} characters`, { field: 'params.name' });
  return label;
}
