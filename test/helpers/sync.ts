import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql, parse, valueFromASTUntyped, Kind, type OperationDefinitionNode } from 'graphql';
import {
  decodeFunctionData, encodeAbiParameters, encodeEventTopics, encodeFunctionResult, keccak256, labelhash, namehash,
  numberToHex, parseAbi, parseAbiItem, toHex, type AbiEvent, type Hex,
} from 'viem';
import { sql } from 'kysely';
import type { Executor } from '../../src/db/client.js';
import { startJsonRpcServer, type RpcServer } from './json-rpc.js';

/* ------------------------------------------------------------------------------------------------
 * A subgraph-compatible GraphQL server on 127.0.0.1 over an in-memory ENS subgraph. The schema is
 * the part of the ENS subgraph schema the name sync reads, with The Graph's filter conventions
 * (`id_gt: ID`, relation filters as `String`, `blockNumber_gt: Int`), so the sync's queries are
 * validated by graphql-js exactly as a real endpoint would.
 * --------------------------------------------------------------------------------------------- */

const SCHEMA = buildSchema(`
  scalar BigInt
  scalar Bytes
  enum OrderDirection { asc desc }
  enum Entity_orderBy { id blockNumber }
  type Account { id: ID! }
  type Registration { id: ID! registrationDate: BigInt! expiryDate: BigInt! cost: BigInt registrant: Account! domain: Domain! }
  type Domain {
    id: ID! name: String labelName: String labelhash: Bytes createdAt: BigInt! expiryDate: BigInt
    owner: Account! registrant: Account wrappedOwner: Account registration: Registration
  }
  type NameRegistered { id: ID! blockNumber: Int! transactionID: Bytes! registration: Registration! }
  type NameRenewed { id: ID! blockNumber: Int! transactionID: Bytes! registration: Registration! }
  type NameTransferred { id: ID! blockNumber: Int! transactionID: Bytes! registration: Registration! }
  type WrappedTransfer { id: ID! blockNumber: Int! transactionID: Bytes! domain: Domain! }
  input Domain_filter { id_gt: ID parent: String }
  input Event_filter { id_gt: ID blockNumber_gt: Int }
  type _Block_ { number: Int! }
  type _Meta_ { block: _Block_! }
  type Query {
    _meta: _Meta_
    domains(first: Int = 100, orderBy: Entity_orderBy, orderDirection: OrderDirection, where: Domain_filter): [Domain!]!
    nameRegistereds(first: Int = 100, orderBy: Entity_orderBy, orderDirection: OrderDirection, where: Event_filter): [NameRegistered!]!
    nameReneweds(first: Int = 100, orderBy: Entity_orderBy, orderDirection: OrderDirection, where: Event_filter): [NameRenewed!]!
    nameTransferreds(first: Int = 100, orderBy: Entity_orderBy, orderDirection: OrderDirection, where: Event_filter): [NameTransferred!]!
    wrappedTransfers(first: Int = 100, orderBy: Entity_orderBy, orderDirection: OrderDirection, where: Event_filter): [WrappedTransfer!]!
  }
`);

const ETH_NODE = namehash('eth');
const WRAPPER = '0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401';

export interface FakeDomain {
  id: string;
  name: string | null;
  labelName: string | null;
  labelhash: string;
  parent: string;
  createdAt: number;
  registrant: string | null;
  wrappedOwner: string | null;
  registration: { registrationDate: number; expiryDate: number } | null;
}

type Stream = 'nameRegistereds' | 'nameReneweds' | 'nameTransferreds' | 'wrappedTransfers';

export interface SubgraphRequest {
  /** top-level fields of the query, e.g. ['_meta', 'domains'] */
  fields: string[];
  /** arguments of the last top-level field (the list asked for), variables resolved */
  args: { first?: number; orderBy?: string; orderDirection?: string; where?: Record<string, unknown> };
}

let eventCounter = 0;
const eventId = () => `${keccak256(toHex(`event-${++eventCounter}`))}-${eventCounter % 7}`;

/** An ENS subgraph in memory: names, their registrations and the change events since a block. */
export class FakeSubgraph {
  /** the block the subgraph has indexed (`_meta`) */
  block = 1000;
  readonly domains = new Map<string, FakeDomain>();
  readonly events: Record<Stream, { id: string; blockNumber: number; domainId: string }[]> = {
    nameRegistereds: [], nameReneweds: [], nameTransferreds: [], wrappedTransfers: [],
  };
  readonly requests: SubgraphRequest[] = [];
  /** answer 500 to a request when this says so */
  fail: ((request: SubgraphRequest) => boolean) | undefined;

  /** A registered .eth name (a raw label: it may be one that does not normalize). */
  add(label: string, options: { owner: string; wrapped?: boolean; registeredAt?: Date; expiresAt?: Date; unregistered?: boolean; labelName?: string | null }): FakeDomain {
    const id = namehash(`${label}.eth`);
    const registeredAt = Math.floor((options.registeredAt ?? new Date('2021-01-01T00:00:00Z')).getTime() / 1000);
    const domain: FakeDomain = {
      id,
      name: `${label}.eth`,
      labelName: options.labelName === undefined ? label : options.labelName,
      labelhash: labelhash(label),
      parent: ETH_NODE,
      createdAt: registeredAt,
      registrant: options.wrapped ? WRAPPER : options.owner.toLowerCase(),
      wrappedOwner: options.wrapped ? options.owner.toLowerCase() : null,
      registration: options.unregistered ? null : {
        registrationDate: registeredAt,
        expiryDate: Math.floor((options.expiresAt ?? new Date(Date.now() + 365 * 86_400_000)).getTime() / 1000),
      },
    };
    this.domains.set(id, domain);
    return domain;
  }

  /** A new registration seen at `block` (advances the indexed block). */
  register(label: string, block: number, options: Parameters<FakeSubgraph['add']>[1]): FakeDomain {
    const d = this.add(label, options);
    this.record('nameRegistereds', block, d.id);
    return d;
  }

  renew(label: string, block: number, expiresAt: Date): void {
    const d = this.get(label);
    d.registration!.expiryDate = Math.floor(expiresAt.getTime() / 1000);
    this.record('nameReneweds', block, d.id);
  }

  transfer(label: string, block: number, to: string): void {
    const d = this.get(label);
    if (d.wrappedOwner) {
      d.wrappedOwner = to.toLowerCase();
      this.record('wrappedTransfers', block, d.id);
    } else {
      d.registrant = to.toLowerCase();
      this.record('nameTransferreds', block, d.id);
    }
  }

  get(label: string): FakeDomain {
    const d = this.domains.get(namehash(`${label}.eth`));
    if (!d) throw new Error(`no fake domain ${label}`);
    return d;
  }

  private record(stream: Stream, block: number, domainId: string): void {
    this.events[stream].push({ id: eventId(), blockNumber: block, domainId });
    this.block = Math.max(this.block, block);
  }

  private domainOut(d: FakeDomain): Record<string, unknown> {
    const account = (a: string | null) => (a ? { id: a } : null);
    return {
      id: d.id, name: d.name, labelName: d.labelName, labelhash: d.labelhash, createdAt: String(d.createdAt),
      expiryDate: d.registration ? String(d.registration.expiryDate + 90 * 86_400) : null,
      owner: { id: d.wrappedOwner ? WRAPPER : d.registrant ?? '0x0000000000000000000000000000000000000000' },
      registrant: account(d.registrant),
      wrappedOwner: account(d.wrappedOwner),
      registration: d.registration ? {
        id: d.labelhash, registrationDate: String(d.registration.registrationDate), expiryDate: String(d.registration.expiryDate),
        registrant: { id: d.registrant }, domain: null,
      } : null,
    };
  }

  /** Root resolvers, applying The Graph's `where`, `first` and `orderBy: id` semantics. */
  root(): Record<string, unknown> {
    const page = <T extends { id: string }>(items: T[], args: { first?: number; where?: { id_gt?: string } }) =>
      items.filter((x) => !args.where?.id_gt || x.id > args.where.id_gt).sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, args.first ?? 100);
    const events = (stream: Stream) => (args: { first?: number; where?: { id_gt?: string; blockNumber_gt?: number } }) =>
      page(this.events[stream].filter((e) => args.where?.blockNumber_gt === undefined || e.blockNumber > args.where.blockNumber_gt), args).map((e) => {
        const domain = this.domainOut(this.domains.get(e.domainId)!);
        const base = { id: e.id, blockNumber: e.blockNumber, transactionID: e.id.slice(0, 66) };
        return stream === 'wrappedTransfers' ? { ...base, domain } : { ...base, registration: { ...(domain.registration as object ?? {}), domain } };
      });
    return {
      _meta: () => ({ block: { number: this.block } }),
      domains: (args: { first?: number; where?: { id_gt?: string; parent?: string } }) =>
        page([...this.domains.values()].filter((d) => !args.where?.parent || d.parent === args.where.parent), args).map((d) => this.domainOut(d)),
      nameRegistereds: events('nameRegistereds'),
      nameReneweds: events('nameReneweds'),
      nameTransferreds: events('nameTransferreds'),
      wrappedTransfers: events('wrappedTransfers'),
    };
  }
}

export interface SubgraphServer {
  url: string;
  /** serve another fake from now on (one server for a whole test file) */
  use(fake: FakeSubgraph): void;
  close(): Promise<void>;
}

/** Serves `fake` as a subgraph GraphQL endpoint (POST {query, variables}) on 127.0.0.1. */
export async function startSubgraphServer(initial: FakeSubgraph): Promise<SubgraphServer> {
  let fake = initial;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        const { query, variables } = JSON.parse(raw) as { query: string; variables?: Record<string, unknown> };
        const op = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
        const top = op?.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s] : [])) ?? [];
        const main = top.at(-1);
        // JSON round trip: graphql-js builds input objects without a prototype.
        const args = JSON.parse(JSON.stringify(Object.fromEntries(main?.arguments?.map((a) => [a.name.value, valueFromASTUntyped(a.value, variables)]) ?? [])));
        const request: SubgraphRequest = { fields: top.map((f) => f.name.value), args };
        fake.requests.push(request);
        if (fake.fail?.(request)) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('indexer unavailable');
          return;
        }
        const result = await graphql({ schema: SCHEMA, source: query, variableValues: variables, rootValue: fake.root() });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/subgraphs/name/ensdomains/ens`,
    use: (next) => {
      fake = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/* ------------------------------------------------------------------------------------------------
 * A JSON-RPC chain on 127.0.0.1: a head, logs built with viem's ABI encoders, block times,
 * transaction senders and the Chainlink feed.
 * --------------------------------------------------------------------------------------------- */

export const CONTRACTS = {
  legacyController: '0x283af0b28c62c092c9727f1ee09c02ca627eb7f5',
  wrappedController: '0x253553366da8546fc250f225fe3d25d0c782303b',
  referrerController: '0x59e16fccd424cc24e280be16e11bcd56fb0ce547',
  renewalWithReferrer: '0xf55575bde5953ee4272d5ce7cdd924c74d8fa81a',
  baseRegistrar: '0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85',
  nameWrapper: WRAPPER,
  seaport: '0x0000000000000068f116a894984e2db1123eb395',
  chainlink: '0x5f4ec3df9cbd43714fe2740f5e3616155c5b8419',
  weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
} as const;

/** Event signatures as the contracts declare them (see src/providers/rpc/abis.ts for sources). */
export const EVENTS = {
  legacyRegistered: 'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 cost, uint256 expires)',
  wrappedRegistered: 'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)',
  referrerRegistered: 'event NameRegistered(string label, bytes32 indexed labelhash, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires, bytes32 referrer)',
  renewed: 'event NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)',
  referrerRenewed: 'event NameRenewed(string label, bytes32 indexed labelhash, uint256 cost, uint256 expires, bytes32 referrer)',
  renewalReferred: 'event RenewalReferred(string label, bytes32 indexed labelHash, uint256 cost, uint256 duration, bytes32 referrer)',
  transfer: 'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  transferSingle: 'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  orderCancelled: 'event OrderCancelled(bytes32 orderHash, address indexed offerer, address indexed zone)',
  counterIncremented: 'event CounterIncremented(uint256 newCounter, address indexed offerer)',
} as const;

const ORDER_FULFILLED = parseAbi([
  'struct SpentItem { uint8 itemType; address token; uint256 identifier; uint256 amount; }',
  'struct ReceivedItem { uint8 itemType; address token; uint256 identifier; uint256 amount; address recipient; }',
  'event OrderFulfilled(bytes32 orderHash, address indexed offerer, address indexed zone, address recipient, SpentItem[] offer, ReceivedItem[] consideration)',
]).find((x) => x.type === 'event') as AbiEvent;

/** topics + data of an event, from its signature and named arguments. */
export function encodeEvent(event: AbiEvent | string, args: Record<string, unknown>): { topics: Hex[]; data: Hex } {
  const item = typeof event === 'string' ? (parseAbiItem(event) as AbiEvent) : event;
  const indexed = Object.fromEntries(item.inputs.filter((i) => i.indexed).map((i) => [i.name!, args[i.name!]]));
  const topics = encodeEventTopics({ abi: [item], eventName: item.name, args: indexed } as never) as Hex[];
  const plain = item.inputs.filter((i) => !i.indexed);
  const data = encodeAbiParameters(plain, plain.map((i) => args[i.name!]));
  return { topics, data };
}

export interface ChainLog {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: number;
  transactionHash: Hex;
  logIndex: number;
}

let txCounter = 0;
export const txHash = (): Hex => keccak256(toHex(`tx-${++txCounter}-${Date.now()}`));
export const bytes32 = (ascii: string): Hex => `0x${Buffer.from(ascii).toString('hex').padEnd(64, '0')}`;
export const tokenIdOf = (label: string) => BigInt(labelhash(label));
export const wrappedIdOf = (label: string) => BigInt(namehash(`${label}.eth`));
/** 2026-05-01T00:00:00Z: after the awards program start, so referral events count there. */
export const GENESIS_TIME = 1_777_593_600;

/** The chain's state; the JSON-RPC server answers from it. */
export class FakeChain {
  head = 0;
  readonly logs: ChainLog[] = [];
  readonly senders = new Map<string, string>();
  /** eth_getLogs refuses ranges with more logs than this (like hosted endpoints do) */
  maxLogsPerRequest = Infinity;
  /** Chainlink ETH/USD: 8 decimals */
  price = { answer: 3_123_45678901n, updatedAt: Math.floor(Date.now() / 1000) };

  timeOf(block: number): number {
    return GENESIS_TIME + block * 12;
  }

  /** Appends an event at `block` (log indexes follow the order of calls within a block). */
  emit(block: number, address: string, event: AbiEvent | string, args: Record<string, unknown>, options: { tx?: Hex; from?: string } = {}): ChainLog {
    const tx = options.tx ?? txHash();
    if (options.from) this.senders.set(tx, options.from.toLowerCase());
    const { topics, data } = encodeEvent(event, args);
    const logIndex = this.logs.filter((l) => l.blockNumber === block).length;
    const log = { address, topics, data, blockNumber: block, transactionHash: tx, logIndex };
    this.logs.push(log);
    return log;
  }

  orderFulfilled(block: number, args: {
    orderHash: Hex; offerer: string; recipient: string;
    offer: { itemType: number; token: string; identifier: bigint; amount: bigint }[];
    consideration: { itemType: number; token: string; identifier: bigint; amount: bigint; recipient: string }[];
  }, options: { tx?: Hex } = {}): ChainLog {
    return this.emit(block, CONTRACTS.seaport, ORDER_FULFILLED, { ...args, zone: '0x0000000000000000000000000000000000000000' }, options);
  }

  handle(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'eth_chainId':
        return '0x1';
      case 'eth_blockNumber':
        return numberToHex(this.head);
      case 'eth_getLogs': {
        const f = params[0] as { fromBlock: Hex; toBlock: Hex; address?: string[]; topics?: (Hex[] | null)[] };
        const from = Number(BigInt(f.fromBlock));
        const to = Number(BigInt(f.toBlock));
        const addresses = f.address?.map((a) => a.toLowerCase());
        const topic0 = f.topics?.[0];
        const found = this.logs.filter((l) =>
          l.blockNumber >= from && l.blockNumber <= to && l.blockNumber <= this.head &&
          (!addresses || addresses.includes(l.address)) && (!topic0 || topic0.includes(l.topics[0])));
        if (found.length > this.maxLogsPerRequest) throw new Error(`query returned more than ${this.maxLogsPerRequest} results`);
        return found.map((l) => ({
          address: l.address, topics: l.topics, data: l.data, blockNumber: numberToHex(l.blockNumber),
          transactionHash: l.transactionHash, logIndex: numberToHex(l.logIndex), blockHash: keccak256(numberToHex(l.blockNumber)),
          transactionIndex: '0x0', removed: false,
        }));
      }
      case 'eth_getBlockByNumber': {
        const n = Number(BigInt(params[0] as Hex));
        if (n > this.head) return null;
        return { number: numberToHex(n), hash: keccak256(numberToHex(n)), timestamp: numberToHex(this.timeOf(n)), transactions: [] };
      }
      case 'eth_getTransactionByHash': {
        const from = this.senders.get(params[0] as string);
        return from ? { hash: params[0], from, to: CONTRACTS.wrappedController, value: '0x0' } : null;
      }
      case 'eth_call': {
        const call = params[0] as { to: string; data: Hex };
        if (call.to.toLowerCase() !== CONTRACTS.chainlink) throw new Error('execution reverted');
        const { functionName } = decodeFunctionData({ abi: CHAINLINK, data: call.data });
        if (functionName === 'decimals') return encodeFunctionResult({ abi: CHAINLINK, functionName, result: 8 });
        return encodeFunctionResult({ abi: CHAINLINK, functionName: 'latestRoundData', result: [1n, this.price.answer, BigInt(this.price.updatedAt), BigInt(this.price.updatedAt), 1n] });
      }
      default:
        throw new Error(`method ${method} not supported by the test chain`);
    }
  }
}

const CHAINLINK = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

export interface ChainServer extends RpcServer {
  /** answer from another chain from now on (one server for a whole test file) */
  use(chain: FakeChain): void;
}

export async function startChainServer(initial: FakeChain): Promise<ChainServer> {
  let chain = initial;
  const server = await startJsonRpcServer((method, params) => chain.handle(method, params));
  return {
    ...server,
    use: (next) => {
      chain = next;
      server.calls.length = 0;
    },
  };
}

/** Empties what the sync writes, between tests that share one database. */
export async function resetSyncData(db: Executor): Promise<void> {
  await sql`TRUNCATE sync_state, registrations, sales, notifications, listings, offers, ens_names RESTART IDENTITY CASCADE`.execute(db);
}

/** Environment for createTestApp pointing the sync at the test servers. */
export function syncEnv(options: { subgraphUrl?: string; rpcUrl?: string; confirmations?: number; blockRange?: number } = {}): Record<string, string | undefined> {
  return {
    ENS_SUBGRAPH_URL: options.subgraphUrl,
    ETH_RPC_URL: options.rpcUrl,
    CONFIRMATIONS: String(options.confirmations ?? 12),
    SYNC_START_BLOCK: '1',
    SYNC_BLOCK_RANGE: String(options.blockRange ?? 50),
  };
}
