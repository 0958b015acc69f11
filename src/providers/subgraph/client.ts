import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { CircuitOpenError, type CircuitBreaker } from '../../lib/circuit-breaker.js';
import { providerBreaker } from '../breaker.js';

/** A GraphQL request as relayed: only these members are forwarded. */
export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** `unavailable`: not called, its circuit breaker skips it after repeated failures. */
export type SubgraphFailure = 'timeout' | 'network' | 'status' | 'not-json' | 'too-large' | 'unavailable';

export class SubgraphError extends Error {
  constructor(readonly reason: SubgraphFailure, message: string, readonly status?: number) {
    super(message);
    this.name = 'SubgraphError';
  }
}

export interface SubgraphClientOptions {
  url: string;
  /** Whole budget of one call, retries included. */
  timeoutMs: number;
  /** Largest response accepted, in bytes. */
  maxResponseBytes?: number;
  /** Guards the subgraph: after repeated failures, calls fail at once for a while. */
  breaker?: CircuitBreaker;
}

const RETRY_DELAY_MS = 200;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * HTTP client of an ENS subgraph (The Graph or ENSNode, subgraph-compatible GraphQL). One call
 * has one time budget; a connection failure or a 502/503/504 is retried once if the budget
 * allows. The answer is accepted when it is a JSON object and either 2xx, or 4xx carrying a
 * GraphQL `errors` list (some servers answer invalid queries with 400). With a circuit breaker,
 * a call it skips fails at once with reason `unavailable`.
 */
export class SubgraphClient {
  private readonly maxBytes: number;

  constructor(private readonly options: SubgraphClientOptions) {
    this.maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** Posts the request; returns the upstream JSON text exactly as received. */
  async post(request: GraphQLRequest): Promise<string> {
    const breaker = this.options.breaker;
    if (!breaker) return this.attempts(request);
    try {
      // A response over the size limit is the query's doing, not an outage.
      return await breaker.run(() => this.attempts(request), (e) => !(e instanceof SubgraphError && e.reason === 'too-large'));
    } catch (e) {
      if (e instanceof CircuitOpenError) throw new SubgraphError('unavailable', e.message);
      throw e;
    }
  }

  private async attempts(request: GraphQLRequest): Promise<string> {
    const deadline = Date.now() + this.options.timeoutMs;
    const payload = JSON.stringify({ query: request.query, variables: request.variables, operationName: request.operationName });
    let lastError: SubgraphError | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      try {
        return await this.once(payload, remaining);
      } catch (e) {
        if (!(e instanceof SubgraphError)) throw e;
        lastError = e;
        const retryable = e.reason === 'network' || (e.reason === 'status' && [502, 503, 504].includes(e.status ?? 0));
        if (!retryable || deadline - Date.now() <= RETRY_DELAY_MS) break;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
    throw lastError ?? new SubgraphError('timeout', 'subgraph did not answer in time');
  }

  /** Runs a query and returns its `data`; GraphQL errors are failures (for sync jobs). */
  async query<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const parsed = JSON.parse(await this.post({ query, variables })) as { data?: T; errors?: { message?: string }[] };
    if (parsed.errors && parsed.errors.length > 0) {
      throw new SubgraphError('status', `subgraph query failed: ${parsed.errors.map((e) => e.message ?? '?').join('; ')}`);
    }
    if (parsed.data === undefined || parsed.data === null) throw new SubgraphError('not-json', 'subgraph answered without data');
    return parsed.data;
  }

  private async once(payload: string, timeoutMs: number): Promise<string> {
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Response;
    try {
      res = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
        body: payload,
        signal,
        redirect: 'error',
      });
    } catch (e) {
      throw signal.aborted ? new SubgraphError('timeout', 'subgraph did not answer in time') : new SubgraphError('network', `subgraph unreachable: ${(e as Error).message}`);
    }
    let text: string;
    try {
      text = await readCapped(res, this.maxBytes);
    } catch (e) {
      if (e instanceof SubgraphError) throw e;
      throw signal.aborted ? new SubgraphError('timeout', 'subgraph did not answer in time') : new SubgraphError('network', `subgraph response broke off: ${(e as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new SubgraphError(res.ok ? 'not-json' : 'status', `subgraph answered ${res.status} without JSON`, res.status);
    }
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    if (res.ok && isObject) return text;
    const graphqlErrors = isObject && Array.isArray((parsed as { errors?: unknown }).errors);
    if (res.status >= 400 && res.status < 500 && graphqlErrors) return text;
    throw new SubgraphError(res.ok ? 'not-json' : 'status', `subgraph answered ${res.status}`, res.status);
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new SubgraphError('too-large', `subgraph response over ${maxBytes} bytes`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new SubgraphError('too-large', `subgraph response over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The configured subgraph behind its circuit breaker, or undefined when ENS_SUBGRAPH_URL is unset. */
export function createSubgraphClient(config: Pick<Config, 'ensSubgraphUrl' | 'subgraphTimeoutMs' | 'providerBreaker'>, logger?: Logger): SubgraphClient | undefined {
  if (!config.ensSubgraphUrl) return undefined;
  return new SubgraphClient({ url: config.ensSubgraphUrl, timeoutMs: config.subgraphTimeoutMs, breaker: providerBreaker('subgraph', config, logger) });
}
