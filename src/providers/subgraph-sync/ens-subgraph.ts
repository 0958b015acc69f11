import { SubgraphError, type SubgraphClient } from './client.js';

/** namehash('eth'): the parent of every .eth second-level domain. */
export const ETH_NODE = '0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae';

/** What the name sync reads of a subgraph Domain (ENS subgraph schema). */
export interface SubgraphDomain {
  /** namehash */
  id: string;
  name: string | null;
  labelName: string | null;
  labelhash: string | null;
  /** unix seconds */
  createdAt: string | null;
  owner: string | null;
  registrant: string | null;
  /** set for names held in the NameWrapper: the ERC-1155 holder */
  wrappedOwner: string | null;
  registration: { registrationDate: string; expiryDate: string } | null;
}

/**
 * Event entities whose appearance since a block means that a .eth name changed: registered
 * (or re-registered), renewed, ERC-721 transferred (which includes wrap and unwrap), and
 * transferred inside the NameWrapper.
 */
export const CHANGE_STREAMS = ['nameRegistereds', 'nameReneweds', 'nameTransferreds', 'wrappedTransfers'] as const;
export type ChangeStream = (typeof CHANGE_STREAMS)[number];

const DOMAIN_FIELDS = `
  id name labelName labelhash createdAt
  owner { id } registrant { id } wrappedOwner { id }
  registration { registrationDate expiryDate }
`;

// Values are written into the query as literals rather than variables: endpoints type `id_gt` as
// ID (The Graph) or String (ENSNode), and a literal fits either where a typed variable does not.
// `_meta` rides along with every page: The Graph answers a query at one block, so it is the block
// the page's state is as of.
const str = (value: string) => JSON.stringify(value);
const int = (value: number) => {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a block or page size: ${value}`);
  return String(value);
};

function domainsQuery(last: string, first: number): string {
  return `
    query SyncDomains {
      _meta { block { number } }
      domains(first: ${int(first)}, orderBy: id, orderDirection: asc, where: { parent: ${str(ETH_NODE)}, id_gt: ${str(last)} }) {
        ${DOMAIN_FIELDS}
      }
    }
  `;
}

function changesQuery(stream: ChangeStream, since: number, last: string, first: number): string {
  const domain = stream === 'wrappedTransfers' ? `domain { ${DOMAIN_FIELDS} }` : `registration { domain { ${DOMAIN_FIELDS} } }`;
  return `
    query SyncChanges {
      _meta { block { number } }
      events: ${stream}(first: ${int(first)}, orderBy: id, orderDirection: asc, where: { blockNumber_gt: ${int(since)}, id_gt: ${str(last)} }) {
        id
        ${domain}
      }
    }
  `;
}

const META_QUERY = `query SyncMeta { _meta { block { number } } }`;

export interface Page {
  /** the block the page's state is as of */
  block: number;
  /** id of the last item of the page (the next cursor), undefined when the page is empty */
  lastId: string | undefined;
  /** items on the page (a full page means there may be more) */
  count: number;
  domains: SubgraphDomain[];
}

/** The queries of the name sync, over a SubgraphClient. */
export class EnsSubgraph {
  constructor(private readonly client: SubgraphClient) {}

  /** The block the subgraph has indexed up to. */
  async indexedBlock(): Promise<number> {
    return metaBlock(await this.client.query<{ _meta?: unknown }>(META_QUERY, {}));
  }

  /** One page of .eth second-level domains with ids after `last`, in id order. */
  async domainsPage(last: string, first: number): Promise<Page> {
    const data = await this.client.query<{ _meta?: unknown; domains?: unknown }>(domainsQuery(last, first), {});
    if (!Array.isArray(data.domains)) throw new SubgraphError('subgraph answered without domains', false);
    const domains = data.domains.map(toDomain);
    return { block: metaBlock(data), lastId: domains.at(-1)?.id, count: domains.length, domains };
  }

  /** One page of change events of a stream after block `since`, with the domain each touched. */
  async changesPage(stream: ChangeStream, since: number, last: string, first: number): Promise<Page> {
    const data = await this.client.query<{ _meta?: unknown; events?: unknown }>(changesQuery(stream, since, last, first), {});
    if (!Array.isArray(data.events)) throw new SubgraphError(`subgraph answered without ${stream}`, false);
    const domains: SubgraphDomain[] = [];
    let lastId: string | undefined;
    for (const raw of data.events as Array<Record<string, unknown>>) {
      if (typeof raw?.id !== 'string') throw new SubgraphError(`subgraph ${stream} item without id`, false);
      lastId = raw.id;
      const domain = stream === 'wrappedTransfers' ? raw.domain : (raw.registration as Record<string, unknown> | null | undefined)?.domain;
      if (domain) domains.push(toDomain(domain));
    }
    return { block: metaBlock(data), lastId, count: data.events.length, domains };
  }
}

function metaBlock(data: { _meta?: unknown }): number {
  const n = (data._meta as { block?: { number?: unknown } } | undefined)?.block?.number;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new SubgraphError('subgraph _meta has no block number', false);
  return n;
}

function idOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' ? id.toLowerCase() : null;
}

function strOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new SubgraphError('subgraph field has an unexpected type', false);
}

function toDomain(raw: unknown): SubgraphDomain {
  const d = raw as Record<string, unknown>;
  if (typeof d !== 'object' || d === null || typeof d.id !== 'string') throw new SubgraphError('subgraph domain without id', false);
  const reg = d.registration as Record<string, unknown> | null | undefined;
  const registrationDate = strOrNull(reg?.registrationDate);
  const expiryDate = strOrNull(reg?.expiryDate);
  return {
    id: d.id.toLowerCase(),
    name: strOrNull(d.name),
    labelName: strOrNull(d.labelName),
    labelhash: strOrNull(d.labelhash)?.toLowerCase() ?? null,
    createdAt: strOrNull(d.createdAt),
    owner: idOf(d.owner),
    registrant: idOf(d.registrant),
    wrappedOwner: idOf(d.wrappedOwner),
    registration: registrationDate !== null && expiryDate !== null ? { registrationDate, expiryDate } : null,
  };
}
