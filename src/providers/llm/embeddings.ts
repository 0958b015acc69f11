import OpenAI, { APIConnectionError, APIError } from 'openai';
import { CircuitOpenError, type CircuitBreaker } from '../../lib/circuit-breaker.js';
import { SuggestionError } from './types.js';

export interface EmbeddingOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Time budget of one batch, its retry included. */
  timeoutMs: number;
  breaker: CircuitBreaker;
}

const ATTEMPTS = 2;
const RETRY_DELAY_MS = 300;
/** Inputs per request: well under every compatible server's batch limit. */
const BATCH = 256;

/**
 * Vectors from any OpenAI-compatible `/embeddings` endpoint (OpenAI, vLLM, Ollama, llama.cpp…).
 * The answer is checked (one finite vector per input, all of one length); a 429 or 5xx gets one
 * retry within the time budget; anything else, an open circuit breaker included, is a
 * SuggestionError, which callers treat as "no model".
 */
export class OpenAiEmbeddings {
  readonly kind = 'openai-compatible';
  readonly model: string;
  private readonly client: OpenAI;

  constructor(private readonly options: EmbeddingOptions) {
    this.model = options.model;
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey ?? 'unused', timeout: options.timeoutMs, maxRetries: 0 });
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) out.push(...(await this.batch(texts.slice(i, i + BATCH))));
    return out;
  }

  private async batch(input: readonly string[]): Promise<number[][]> {
    try {
      return await this.options.breaker.run(() => this.attempts(input));
    } catch (e) {
      if (e instanceof CircuitOpenError) throw new SuggestionError(e.message, { cause: e });
      throw e;
    }
  }

  private async attempts(input: readonly string[]): Promise<number[][]> {
    const deadline = Date.now() + this.options.timeoutMs;
    let lastError: unknown;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const answer = await this.client.embeddings.create({ model: this.model, input: [...input], encoding_format: 'float' }, { timeout: Math.max(1, deadline - Date.now()) });
        return checked(answer.data, input.length);
      } catch (e) {
        lastError = e;
        if (!retryable(e)) break;
      }
      if (deadline - Date.now() <= RETRY_DELAY_MS) break;
      if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
    }
    throw new SuggestionError('the model server gave no embeddings', { cause: lastError });
  }
}

function checked(data: ReadonlyArray<{ index: number; embedding: unknown }> | undefined, count: number): number[][] {
  if (!Array.isArray(data) || data.length !== count) throw new SuggestionError(`expected ${count} embeddings`);
  const vectors: number[][] = new Array<number[]>(count);
  for (const item of data) {
    const v = item.embedding;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new SuggestionError('an embedding is not a vector of numbers');
    if (!Number.isInteger(item.index) || item.index < 0 || item.index >= count) throw new SuggestionError('an embedding has no valid index');
    vectors[item.index] = v as number[];
  }
  const dims = vectors[0]?.length;
  if (vectors.some((v) => v === undefined || v.length !== dims)) throw new SuggestionError('embeddings of different lengths');
  return vectors;
}

function retryable(e: unknown): boolean {
  if (e instanceof APIConnectionError) return true;
  if (e instanceof APIError) return e.status === 408 || e.status === 429 || (e.status !== undefined && e.status >= 500);
  return false;
}

/** Cosine similarity of two vectors of one length. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
