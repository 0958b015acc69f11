import { GraphQLError, Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { graphqlNesting } from '../lib/nesting.js';
import { createSubgraphClient, SubgraphError, type GraphQLRequest, type SubgraphClient } from '../providers/subgraph/client.js';
import { SUBGRAPH_LIMITS } from '../contracts/subgraph.js';

function invalid(message: string, field = 'body'): AppError {
  return new AppError('INVALID_REQUEST', message, { field });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a relay body: an object with a `query` string that parses as a GraphQL document of
 * queries (and fragments) within the limits, an optional `variables` object and an optional
 * `operationName` string. Anything else is INVALID_REQUEST.
 */
export function parseRelayRequest(body: unknown): GraphQLRequest {
  if (!isPlainObject(body)) throw invalid('Body must be a JSON object with a "query" string');
  const { query, variables, operationName } = body;
  if (typeof query !== 'string' || query.trim() === '') throw invalid('"query" must be a non-empty string', 'body.query');
  if (query.length > SUBGRAPH_LIMITS.maxQueryLength) throw invalid(`"query" is longer than ${SUBGRAPH_LIMITS.maxQueryLength} characters`, 'body.query');
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) throw invalid('"variables" must be an object', 'body.variables');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') throw invalid('"operationName" must be a string', 'body.operationName');
  if (graphqlNesting(query, SUBGRAPH_LIMITS.maxNesting) > SUBGRAPH_LIMITS.maxNesting) {
    throw invalid(`"query" nests brackets deeper than ${SUBGRAPH_LIMITS.maxNesting} levels`, 'body.query');
  }

  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true, maxTokens: SUBGRAPH_LIMITS.maxTokens });
  } catch (e) {
    if (e instanceof GraphQLError) throw invalid(`"query" is not valid GraphQL: ${e.message}`, 'body.query');
    throw e;
  }
  checkDocument(document);
  return {
    query,
    ...(isPlainObject(variables) ? { variables } : {}),
    ...(typeof operationName === 'string' ? { operationName } : {}),
  };
}

/** Only queries and fragments; depth and field count within the limits, fragments expanded. */
function checkDocument(document: DocumentNode): void {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    else if (def.kind !== Kind.OPERATION_DEFINITION) throw invalid('"query" may only hold operations and fragments', 'body.query');
    else if (def.operation !== 'query') throw invalid(`only queries are relayed, not ${def.operation}s`, 'body.query');
  }
  // depth and field count of each fragment, computed once (a fragment used many times is cheap to check)
  const measured = new Map<string, { depth: number; fields: number }>();
  const visiting = new Set<string>();

  const measure = (set: SelectionSetNode): { depth: number; fields: number } => {
    let depth = 0;
    let fields = 0;
    for (const sel of set.selections) {
      let inner: { depth: number; fields: number };
      if (sel.kind === Kind.FIELD) {
        const below = sel.selectionSet ? measure(sel.selectionSet) : { depth: 0, fields: 0 };
        inner = { depth: below.depth + 1, fields: below.fields + 1 };
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        inner = measure(sel.selectionSet);
      } else {
        inner = fragment(sel.name.value);
      }
      depth = Math.max(depth, inner.depth);
      fields += inner.fields;
      if (depth > SUBGRAPH_LIMITS.maxDepth) throw invalid(`"query" nests deeper than ${SUBGRAPH_LIMITS.maxDepth} levels`, 'body.query');
      if (fields > SUBGRAPH_LIMITS.maxFields) throw invalid(`"query" selects more than ${SUBGRAPH_LIMITS.maxFields} fields`, 'body.query');
    }
    return { depth, fields };
  };

  const fragment = (name: string): { depth: number; fields: number } => {
    const known = measured.get(name);
    if (known) return known;
    const def = fragments.get(name);
    if (!def) throw invalid(`unknown fragment "${name}"`, 'body.query');
    if (visiting.has(name)) throw invalid(`fragment "${name}" spreads itself`, 'body.query');
    visiting.add(name);
    const result = measure(def.selectionSet);
    visiting.delete(name);
    measured.set(name, result);
    return result;
  };

  for (const def of document.definitions) if (def.kind === Kind.OPERATION_DEFINITION) measure(def.selectionSet);
}

/** The GraphQL relay: checks the request, then forwards it to the configured ENS subgraph. */
export class SubgraphService {
  private readonly client: SubgraphClient | undefined;

  constructor(deps: Pick<Deps, 'config' | 'logger'>) {
    this.client = createSubgraphClient(deps.config, deps.logger);
  }

  /** Returns the upstream JSON text unchanged. */
  async relay(body: unknown): Promise<string> {
    const request = parseRelayRequest(body);
    if (!this.client) throw new AppError('SERVICE_UNAVAILABLE', 'The subgraph relay is not configured');
    try {
      return await this.client.post(request);
    } catch (e) {
      if (e instanceof SubgraphError) throw new AppError('BAD_GATEWAY', 'The subgraph did not answer usefully', { reason: e.reason, ...(e.status ? { upstreamStatus: e.status } : {}) });
      throw e;
    }
  }
}
