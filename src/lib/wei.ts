/** Money is wei: decimal strings on the wire, numeric(78,0) in SQL, bigint in between. */
export const WEI_PATTERN = '^(0|[1-9][0-9]{0,77})$';
const WEI_RE = new RegExp(WEI_PATTERN);
export const MAX_UINT256 = (1n << 256n) - 1n;

export function isWei(value: unknown): value is string {
  return typeof value === 'string' && WEI_RE.test(value) && BigInt(value) <= MAX_UINT256;
}

/** A uint256 as decimal (`wei`) or 0x-hex string: the JSON Schema format `uint256` of request amounts. */
export function isUint256(value: string): boolean {
  if (!/^(0|[1-9][0-9]{0,77}|0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(value)) return false;
  return BigInt(value) <= MAX_UINT256;
}

export function parseWei(value: string): bigint {
  if (!isWei(value)) throw new RangeError(`not a wei amount: ${value}`);
  return BigInt(value);
}

/** numeric columns come back from pg as strings; normalise null/number/bigint to a decimal string. */
export function weiString(value: string | number | bigint): string;
export function weiString(value: string | number | bigint | null | undefined): string | null;
export function weiString(value: string | number | bigint | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return BigInt(value).toString();
}
