import { Type } from 'typebox';

/** Limits of a relayed query (a public relay must not be an amplifier). */
export const SUBGRAPH_LIMITS = {
  /** characters of `query` */
  maxQueryLength: 20_000,
  /** lexer tokens of `query` */
  maxTokens: 5_000,
  /** nesting of selection sets, fragments expanded; `{ domains { name } }` is 2 */
  maxDepth: 10,
  /** fields selected in total, fragments expanded and aliases counted */
  maxFields: 1_000,
  /** brackets of any kind (`{`, `[`, `(`) inside one another, counted before parsing: the parser recurses */
  maxNesting: 32,
} as const;

/**
 * Deliberately permissive: the relay checks the body itself, so that every malformed request is
 * 400 INVALID_REQUEST (as the interface says) rather than a schema's VALIDATION_ERROR.
 */
export const RelayBody = Type.Unknown({
  description: [
    'A GraphQL request: `{query: string, variables?: object, operationName?: string}`.',
    `\`query\` must parse as GraphQL and hold only queries and fragments, at most ${SUBGRAPH_LIMITS.maxQueryLength} characters,`,
    `${SUBGRAPH_LIMITS.maxDepth} levels deep and ${SUBGRAPH_LIMITS.maxFields} fields (fragments expanded).`,
  ].join(' '),
  examples: [{ query: 'query ($first: Int!) { domains(first: $first, orderBy: id) { id name expiryDate } }', variables: { first: 1 } }],
});

export const RelayResponse = Type.Unknown({ description: 'the subgraph response, byte for byte (usually `{data, errors?}`); not enveloped' });
