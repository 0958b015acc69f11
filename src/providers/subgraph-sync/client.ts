/**
 * A small GraphQL client for the ENS subgraph (The Graph, ENSNode or any subgraph-compatible API):
 * POST `{query, variables}`, a timeout per attempt, retries with back-off on network errors, 5xx
 * and 429, and the body checked to be `{data}` without `errors`.
 */
export class SubgraphError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
    this.name = 'SubgraphError';
  }
}

export interface SubgraphClientOptions {
  timeoutMs: number;
  /** Attempts per request (1 = no retry). */
  attempts?: number;
  /** First back-off delay; doubles per attempt. */
  retryDelayMs?: number;
}

export class SubgraphClient {
  private readonly attempts: number;
  private readonly retryDelayMs: number;

  constructor(readonly url: string, private readonly options: SubgraphClientOptions) {
    this.attempts = options.attempts ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 500;
  }

  async query<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        return await this.once<T>(query, variables);
      } catch (err) {
        lastError = err;
        const retryable = !(err instanceof SubgraphError) || err.retryable;
        if (!retryable || attempt === this.attempts) break;
        await new Promise((r) => setTimeout(r, this.retryDelayMs * 2 ** (attempt - 1)));
      }
    }
    throw lastError;
  }

  private async once<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      throw new SubgraphError(`subgraph answered ${res.status}: ${text.slice(0, 200)}`, res.status >= 500 || res.status === 429);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SubgraphError('subgraph answered with something that is not JSON', true);
    }
    if (typeof body !== 'object' || body === null) throw new SubgraphError('subgraph answered without a body', true);
    const { data, errors } = body as { data?: unknown; errors?: unknown };
    if (Array.isArray(errors) && errors.length > 0) {
      const first = errors[0] as { message?: unknown };
      // Indexers report overload and "indexing behind" as GraphQL errors too; retrying is cheap.
      throw new SubgraphError(`subgraph error: ${typeof first?.message === 'string' ? first.message : 'unknown'}`, true);
    }
    if (typeof data !== 'object' || data === null) throw new SubgraphError('subgraph answered without data', true);
    return data as T;
  }
}
