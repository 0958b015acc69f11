import { Type } from 'typebox';
import { Address, described, EnsNameParam, Envelope, Limit, Page, PaginationB } from './common.js';
import { searchResultWith } from './search-result.js';

const NullableAddress = (description: string) => Type.Union([Address, Type.Null()], { description });

export const RoleNameParams = Type.Object({ name: EnsNameParam });
export const CanManageParams = Type.Object({ name: EnsNameParam, address: Address });
export const ManageableParams = Type.Object({ address: Address });
export const ManageableQuery = Type.Object({ page: Page, limit: Limit });

export const Fuses = Type.Object({
  canUnwrap: Type.Boolean({ description: 'CANNOT_UNWRAP not burned: the owner may unwrap the name' }),
  canBurnFuses: Type.Boolean({ description: 'CANNOT_BURN_FUSES not burned: more fuses may be burned' }),
  canTransfer: Type.Boolean({ description: 'CANNOT_TRANSFER not burned: the name may be transferred' }),
  canSetResolver: Type.Boolean({ description: 'CANNOT_SET_RESOLVER not burned: the resolver may be changed' }),
  canSetTTL: Type.Boolean({ description: 'CANNOT_SET_TTL not burned' }),
  canCreateSubdomain: Type.Boolean({ description: 'CANNOT_CREATE_SUBDOMAIN not burned' }),
  parentCanControl: Type.Boolean({ description: 'PARENT_CANNOT_CONTROL not burned: the parent may still take the name back' }),
  canExtendExpiry: Type.Boolean({ description: 'CAN_EXTEND_EXPIRY set: the owner may extend the expiry' }),
  raw: Type.Integer({ description: 'the fuse bits as the NameWrapper stores them', examples: [65537] }),
}, { description: 'what the NameWrapper fuses allow (wrapped names only)' });

export const RoleSource = Type.Union([Type.Literal('subgraph'), Type.Literal('database')], {
  description: '`subgraph`: read from ENS_SUBGRAPH_URL now; `database`: our own tables (no subgraph configured, or it failed: see `fallbackReason`)',
});

const Role = Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('both'), Type.Null()], {
  description: '`owner` holds the name, `manager` may edit its records, `both`, or null',
});

const FallbackReason = Type.Union([Type.Literal('subgraph_not_configured'), Type.Literal('subgraph_failed'), Type.Literal('not_in_subgraph'), Type.Null()], {
  description: 'why the answer comes from our tables; null when it comes from the subgraph',
});

export const RolesResponse = Envelope(Type.Object({
  name: Type.String({ examples: ['brantly.eth'] }),
  owner: NullableAddress('NFT holder: the registrant of an unwrapped name, the wrapped owner of a wrapped one'),
  registrant: NullableAddress('holder of the base registrar token (the NameWrapper for wrapped names)'),
  manager: NullableAddress('address that may edit the records (the ENS registry owner; the wrapped owner for wrapped names). From our tables it is taken to be the holder, as at registration'),
  wrappedOwner: NullableAddress('holder of the NameWrapper token, or null when unwrapped'),
  ethAddress: NullableAddress('the ETH address record (subgraph only)'),
  isWrapped: Type.Boolean(),
  fuses: Type.Union([Fuses, Type.Null()]),
  expiryDate: Type.Union([Type.Integer(), Type.Null()], { description: 'registration expiry, Unix seconds', examples: [1745000000] }),
  resolver: NullableAddress('resolver contract (subgraph only)'),
  source: RoleSource,
  fallbackReason: FallbackReason,
}));

export const CanManageResponse = Envelope(Type.Object({
  canManage: Type.Boolean({ description: 'whether the address may update the records (never when the CANNOT_SET_RESOLVER fuse is burned)' }),
  role: Role,
  isWrapped: Type.Boolean(),
  fuses: Type.Union([Fuses, Type.Null()]),
  source: RoleSource,
  fallbackReason: FallbackReason,
}));

export const ManageableResponse = Envelope(Type.Object({
  address: Address,
  names: Type.Array(searchResultWith({ role: described("the address's role on the name", Role) }), {
    description: 'names the address holds, registered or in grace, soonest expiry first (from our tables)',
  }),
  pagination: PaginationB,
}));
