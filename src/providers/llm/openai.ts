import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { Logger } from 'pino';
import { CircuitOpenError, type CircuitBreaker } from '../../lib/circuit-breaker.js';
import { cleanLabels } from './labels.js';
import { SuggestionError, type SuggestionGenerator, type SuggestionRequest } from './types.js';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Time budget of one suggestion, its retry included. */
  timeoutMs: number;
  /** Guards the model server: after repeated failures, suggestions fail at once for a while. */
  breaker: CircuitBreaker;
  logger?: Logger;
}

const ATTEMPTS = 2;
const RETRY_DELAY_MS = 300;

/**
 * Suggestions from any OpenAI-compatible chat-completions server (OpenAI, vLLM, Ollama,
 * llama.cpp…). JSON output is requested, the answer is read defensively, and each suggestion is
 * normalized; a 429 or 5xx, or an unusable answer gets one retry within the time budget. While
 * the circuit breaker is open the server is not called and the answer is an immediate failure.
 */
export class OpenAiSuggestionGenerator implements SuggestionGenerator {
  readonly kind = 'openai-compatible';
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiOptions) {
    // Local servers take any key; the SDK insists on one.
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey ?? 'unused', timeout: options.timeoutMs, maxRetries: 0 });
  }

  async suggest(request: SuggestionRequest): Promise<string[]> {
    try {
      return await this.options.breaker.run(() => this.attempts(request));
    } catch (e) {
      if (e instanceof CircuitOpenError) throw new SuggestionError(e.message, { cause: e });
      throw e;
    }
  }

  private async attempts(request: SuggestionRequest): Promise<string[]> {
    const deadline = Date.now() + this.options.timeoutMs;
    let jsonMode = true;
    let lastError: unknown;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const completion = await this.client.chat.completions.create({
          model: this.options.model,
          messages: prompt(request),
          temperature: 0.7,
          ...(jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
        }, { timeout: Math.max(1, deadline - Date.now()) });
        const labels = cleanLabels(extractSuggestions(completion.choices?.[0]?.message?.content), request.text, request.count);
        if (labels.length > 0) return labels;
        lastError = new SuggestionError('the model answered without usable names');
      } catch (e) {
        lastError = e;
        // Some compatible servers refuse response_format: ask again without it.
        if (e instanceof APIError && e.status === 400 && jsonMode) jsonMode = false;
        else if (!retryable(e)) break;
      }
      this.options.logger?.warn({ err: lastError, attempt }, 'suggestion request failed');
      if (deadline - Date.now() <= RETRY_DELAY_MS) break;
      if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
    }
    throw new SuggestionError('the model server gave no suggestions', { cause: lastError });
  }

  async close(): Promise<void> {}
}

function retryable(e: unknown): boolean {
  if (e instanceof APIConnectionError) return true; // includes timeouts
  if (e instanceof APIError) return e.status === 408 || e.status === 429 || (e.status !== undefined && e.status >= 500);
  return e instanceof SuggestionError || e instanceof SyntaxError;
}

function prompt(r: SuggestionRequest): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  const system = [
    'You suggest Ethereum Name Service (.eth) names for a name marketplace.',
    'Answer with one JSON object of the form {"suggestions": ["name", ...]} and nothing else.',
    'Each suggestion is a single label without the .eth suffix: lower case, no spaces, no explanations.',
  ].join(' ');
  const user =
    r.purpose === 'related'
      ? `Suggest ${r.count} .eth names related to the search ${JSON.stringify(r.text)}: synonyms, names of the same kind or category, closely related ideas, and common variations people register.`
      : `Suggest ${r.count} .eth names similar to ${JSON.stringify(`${r.text}.eth`)} that a collector of it would also want. ` +
        (r.clubs.length > 0
          ? `It belongs to these ENS clubs: ${r.clubs.join(', ')}; prefer names of the same clubs and the same pattern.`
          : 'It belongs to no ENS club; prefer names of the same theme, style and length.');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

const LIST_KEYS = ['suggestions', 'names', 'results', 'domains', 'labels', 'items', 'data'];

/**
 * The suggestion strings in a model answer, whatever shape it took: the requested object, a bare
 * array, JSON inside a code fence or prose, objects with a `name`, or failing all that, one name
 * per line or comma.
 */
export function extractSuggestions(content: string | null | undefined): string[] {
  if (!content) return [];
  const text = content.trim().replace(/^```[a-z]*\s*/i, '').replace(/```\s*$/, '').trim();
  for (const candidate of [text, between(text, '{', '}'), between(text, '[', ']')]) {
    if (candidate === undefined) continue;
    try {
      const found = fromJson(JSON.parse(candidate) as unknown);
      if (found.length > 0) return found;
    } catch {
      // not JSON; try the next reading
    }
  }
  return text
    .split(/[\n,]+/)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(/["'`]/g, '').trim())
    .filter((s) => s !== '' && !/\s/.test(s));
}

function between(text: string, open: string, close: string): string | undefined {
  const a = text.indexOf(open);
  const b = text.lastIndexOf(close);
  return a >= 0 && b > a ? text.slice(a, b + 1) : undefined;
}

function fromJson(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (typeof item === 'string') return [item];
      if (item && typeof item === 'object') {
        const o = item as Record<string, unknown>;
        const name = o.name ?? o.label ?? o.suggestion ?? o.domain;
        return typeof name === 'string' ? [name] : [];
      }
      return [];
    });
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const key of LIST_KEYS) if (Array.isArray(o[key])) return fromJson(o[key]);
    for (const v of Object.values(o)) if (Array.isArray(v)) return fromJson(v);
  }
  return [];
}
