import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { providerBreaker } from '../breaker.js';
import { LocalSuggestionGenerator } from './local.js';
import { OpenAiSuggestionGenerator } from './openai.js';
import type { SuggestionGenerator } from './types.js';

export type { SuggestionGenerator, SuggestionRequest, SuggestionPurpose } from './types.js';
export { SuggestionError } from './types.js';

/** The model server when LLM_BASE_URL is set, else the embedded WordNet generator. */
export function createSuggestionGenerator(config: Config, logger?: Logger): SuggestionGenerator {
  if (config.llm.baseUrl) {
    return new OpenAiSuggestionGenerator({ baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model: config.llm.model, timeoutMs: config.llm.timeoutMs, breaker: providerBreaker('model server', config, logger), logger });
  }
  return new LocalSuggestionGenerator();
}
