/** NameWrapper fuse bits (ensdomains/ens-contracts, INameWrapper.sol). */
const CANNOT_UNWRAP = 1;
const CANNOT_BURN_FUSES = 2;
const CANNOT_TRANSFER = 4;
const CANNOT_SET_RESOLVER = 8;
const CANNOT_SET_TTL = 16;
const CANNOT_CREATE_SUBDOMAIN = 32;
const PARENT_CANNOT_CONTROL = 1 << 16;
const CAN_EXTEND_EXPIRY = 1 << 18;

export interface Fuses {
  canUnwrap: boolean;
  canBurnFuses: boolean;
  canTransfer: boolean;
  canSetResolver: boolean;
  canSetTTL: boolean;
  canCreateSubdomain: boolean;
  parentCanControl: boolean;
  canExtendExpiry: boolean;
  raw: number;
}

/** What a wrapped name's fuses allow: a burned CANNOT_* fuse forbids, CAN_EXTEND_EXPIRY grants. */
export function decodeFuses(raw: number): Fuses {
  const burned = (bit: number) => (raw & bit) !== 0;
  return {
    canUnwrap: !burned(CANNOT_UNWRAP),
    canBurnFuses: !burned(CANNOT_BURN_FUSES),
    canTransfer: !burned(CANNOT_TRANSFER),
    canSetResolver: !burned(CANNOT_SET_RESOLVER),
    canSetTTL: !burned(CANNOT_SET_TTL),
    canCreateSubdomain: !burned(CANNOT_CREATE_SUBDOMAIN),
    parentCanControl: !burned(PARENT_CANNOT_CONTROL),
    canExtendExpiry: burned(CAN_EXTEND_EXPIRY),
    raw,
  };
}
