import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { cached } from '../infra/cache.js';
import { isAddress, normalizeAddress } from '../lib/address.js';
import { decodeFuses, type Fuses } from '../lib/ens-fuses.js';
import { InvalidNameError, normalizeEthName } from '../lib/ens.js';
import { DAY } from '../lib/time.js';
import { pageB, offsetOf, type PageB } from '../lib/pagination.js';
import { createSubgraphClient, type SubgraphClient } from '../providers/subgraph/client.js';
import { loadSearchResults, type ResultJson } from '../search/results.js';

export const ROLES_CACHE_SECONDS = 15;
/** Manageable names are counted exactly up to here; above it the holder roll-up's count stands. */
const COUNT_CAP = 10_000;

export type RoleSource = 'subgraph' | 'database';
export type FallbackReason = 'subgraph_not_configured' | 'subgraph_failed' | 'not_in_subgraph';
export type Role = 'owner' | 'manager' | 'both' | null;

export interface NameRoles {
  name: string;
  owner: string | null;
  registrant: string | null;
  manager: string | null;
  wrappedOwner: string | null;
  ethAddress: string | null;
  isWrapped: boolean;
  fuses: Fuses | null;
  expiryDate: number | null;
  resolver: string | null;
  source: RoleSource;
  fallbackReason: FallbackReason | null;
}

const ROLES_QUERY = `query NameRoles($name: String!) {
  domains(where: { name: $name }, first: 1) {
    name
    owner { id }
    registrant { id }
    wrappedOwner { id }
    expiryDate
    registration { expiryDate }
    resolver { address }
    resolvedAddress { id }
    wrappedDomain { fuses }
  }
}`;

interface SubgraphDomain {
  owner?: { id?: unknown } | null;
  registrant?: { id?: unknown } | null;
  wrappedOwner?: { id?: unknown } | null;
  expiryDate?: unknown;
  registration?: { expiryDate?: unknown } | null;
  resolver?: { address?: unknown } | null;
  resolvedAddress?: { id?: unknown } | null;
  wrappedDomain?: { fuses?: unknown } | null;
}

const ZERO = '0x0000000000000000000000000000000000000000';

/** An address field of the subgraph's answer: lower-case, or null for none, the zero address or junk. */
function addressOf(value: unknown): string | null {
  if (!isAddress(value)) return null;
  const a = normalizeAddress(value);
  return a === ZERO ? null : a;
}

function integerOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
  return n;
}

/**
 * Who holds and who manages an ENS name. Our tables know the holder (`owner_address`, the
 * registrant or the wrapped owner) and whether the name is wrapped; the ENS registry's owner (the
 * manager), the resolver and the fuses come from the subgraph when ENS_SUBGRAPH_URL is set. A
 * subgraph that fails or does not know the name leaves the answer to our tables, and
 * `fallbackReason` says so. Answers are cached 15 seconds.
 */
export class EnsRolesService {
  private readonly subgraph: SubgraphClient | undefined;

  constructor(private readonly deps: Pick<Deps, 'db' | 'cache' | 'config' | 'logger'>) {
    this.subgraph = createSubgraphClient(deps.config, deps.logger);
  }

  async roles(rawName: string): Promise<NameRoles> {
    const name = nameOf(rawName);
    return cached(this.deps.cache, `ens-roles:${name}`, ROLES_CACHE_SECONDS, () => this.read(name));
  }

  async canManage(rawName: string, rawAddress: string) {
    const roles = await this.roles(rawName);
    const address = normalizeAddress(rawAddress);
    const holds = roles.owner === address;
    const manages = roles.manager === address;
    const role: Role = holds && manages ? 'both' : holds ? 'owner' : manages ? 'manager' : null;
    return {
      canManage: manages && (roles.fuses === null || roles.fuses.canSetResolver),
      role,
      isWrapped: roles.isWrapped,
      fuses: roles.fuses,
      source: roles.source,
      fallbackReason: roles.fallbackReason,
    };
  }

  /**
   * Names the address holds (registered or in grace), soonest expiry first, as standard search
   * results with the role. From our tables, where the holder is also taken to be the manager.
   */
  async manageable(rawAddress: string, page: number, limit: number, viewerId?: number): Promise<{ address: string; names: ResultJson[]; pagination: PageB }> {
    const address = normalizeAddress(rawAddress);
    const db = this.deps.db;
    // The page of ids and its total are the same for every caller: shared 15 s; the results (with
    // the caller's vote) are loaded per request.
    const { ids, total } = await cached(this.deps.cache, `ens-roles:manageable:${address}:${page}:${limit}`, ROLES_CACHE_SECONDS, async () => {
      const cutoff = new Date(Date.now() - this.deps.config.gracePeriodDays * DAY);
      const held = db.selectFrom('ens_names').where('owner_address', '=', address)
        .where((eb) => eb.or([eb('expiry_date', 'is', null), eb('expiry_date', '>', cutoff)]));
      const [rows, counted] = await Promise.all([
        held.select('id').orderBy('expiry_date').orderBy('id').limit(limit).offset(offsetOf(page, limit)).execute(),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM (${held.select(sql`1`.as('one')).limit(COUNT_CAP)}) capped`.execute(db),
      ]);
      let n = counted.rows[0].n;
      if (n >= COUNT_CAP) {
        const rolled = await db.selectFrom('holder_leaderboard').select('names_owned').where('address', '=', address).executeTakeFirst();
        n = Math.max(n, rolled?.names_owned ?? 0);
      }
      return { ids: rows.map((r) => r.id), total: n };
    });
    const results = await loadSearchResults(db, ids, viewerId);
    return { address, names: results.map((r) => r.with({ role: 'both' })), pagination: pageB(page, limit, total) };
  }

  private async read(name: string): Promise<NameRoles> {
    const row = await this.deps.db.selectFrom('ens_names')
      .select(['owner_address', 'registrant_address', 'wrapped', 'expiry_date'])
      .where('name', '=', name).executeTakeFirst();
    const fromTables = (reason: FallbackReason): NameRoles => {
      if (!row) throw new AppError('NAME_NOT_FOUND', `${name} is not known`);
      return {
        name,
        owner: row.owner_address,
        registrant: row.wrapped ? this.deps.config.nameWrapperAddress.toLowerCase() : row.registrant_address ?? row.owner_address,
        manager: row.owner_address,
        wrappedOwner: row.wrapped ? row.owner_address : null,
        ethAddress: null,
        isWrapped: row.wrapped,
        fuses: null,
        expiryDate: row.expiry_date ? Math.floor(row.expiry_date.getTime() / 1000) : null,
        resolver: null,
        source: 'database',
        fallbackReason: reason,
      };
    };
    if (!this.subgraph) return fromTables('subgraph_not_configured');
    let domain: SubgraphDomain | undefined;
    try {
      const data = await this.subgraph.query<{ domains?: unknown }>(ROLES_QUERY, { name });
      if (!Array.isArray(data.domains)) throw new Error('subgraph answered without a domains list');
      domain = data.domains[0] as SubgraphDomain | undefined;
    } catch (err) {
      this.deps.logger.warn({ err, name }, 'ENS roles: subgraph failed, answering from our tables');
      return fromTables('subgraph_failed');
    }
    if (!domain || typeof domain !== 'object') return fromTables('not_in_subgraph');
    const wrappedOwner = addressOf(domain.wrappedOwner?.id);
    const registrant = addressOf(domain.registrant?.id);
    const registryOwner = addressOf(domain.owner?.id);
    const isWrapped = wrappedOwner !== null;
    const rawFuses = integerOf(domain.wrappedDomain?.fuses);
    return {
      name,
      owner: isWrapped ? wrappedOwner : registrant ?? registryOwner,
      registrant,
      manager: isWrapped ? wrappedOwner : registryOwner,
      wrappedOwner,
      ethAddress: addressOf(domain.resolvedAddress?.id),
      isWrapped,
      fuses: isWrapped && rawFuses !== null ? decodeFuses(rawFuses) : null,
      expiryDate: integerOf(domain.registration?.expiryDate) ?? integerOf(domain.expiryDate),
      resolver: addressOf(domain.resolver?.address),
      source: 'subgraph',
      fallbackReason: null,
    };
  }
}

function nameOf(raw: string): string {
  try {
    return normalizeEthName(raw);
  } catch (e) {
    if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', `Invalid name: ${e.message}`, { field: 'params.name' });
    throw e;
  }
}
