export const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';
const ADDRESS_RE = new RegExp(ADDRESS_PATTERN);

export type Address = `0x${string}`;

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

export function isAddress(value: unknown): value is string {
  return typeof value === 'string' && ADDRESS_RE.test(value);
}

/** Addresses are stored and compared lower-case; checksums are a display concern. */
export function normalizeAddress(value: string): Address {
  if (!isAddress(value)) throw new TypeError(`not an address: ${value}`);
  return value.toLowerCase() as Address;
}
