import type { Deps } from '../deps.js';
import { SuggestionError } from '../providers/llm/index.js';
import { labelOfParam } from '../search/name-param.js';
import { findNameId } from '../search/query.js';
import { readSuggestions, writeSuggestions } from '../search/suggestion-store.js';
import { SingleFlight, tieredLookup, type Tiered } from '../search/tiered.js';

/** Database tier of recommendations (interface: "15 s plus 60 days in the database"). */
export const RECOMMENDATIONS_TTL_SECONDS = 60 * 86_400;
const MIN_LABEL = 3;
const COUNT = 20;

export interface Recommendations {
  /** Full names (`pear.eth`), most relevant first. */
  suggestions: string[];
}

/** GET /ai-recommendations/:name: similar names, with the name's clubs as context. */
export class RecommendationsService {
  private readonly flights = new SingleFlight();

  constructor(private readonly deps: Pick<Deps, 'cache' | 'db' | 'logger' | 'suggestions'>) {}

  async forName(nameParam: string, signedIn: boolean): Promise<Tiered<Recommendations>> {
    const label = labelOfParam(nameParam, { minLength: MIN_LABEL });
    const { db, cache, suggestions, logger } = this.deps;
    let clubs: string[] = [];
    const toNames = (labels: readonly string[]) => ({ suggestions: labels.map((l) => `${l}.eth`) });
    return tieredLookup<Recommendations>(cache, this.flights, {
      key: `search:recommendations:${label}`,
      empty: { suggestions: [] },
      signedIn,
      readStored: async () => {
        const stored = await readSuggestions(db, 'recommendations', label);
        return stored ? { value: toNames(stored) } : undefined;
      },
      nameExists: async () => {
        const found = await findNameId(db, `${label}.eth`);
        clubs = found?.clubs ?? [];
        return found !== undefined;
      },
      fetchAndStore: async () => {
        const labels = await suggestions.suggest({ purpose: 'recommendations', text: label, clubs, count: COUNT });
        await writeSuggestions(db, 'recommendations', label, labels, RECOMMENDATIONS_TTL_SECONDS);
        return toNames(labels);
      },
      isFailure: (e) => {
        if (!(e instanceof SuggestionError)) return false;
        logger.warn({ err: e, label }, 'recommendations could not be generated');
        return true;
      },
    });
  }
}
