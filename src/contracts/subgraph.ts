import { Type } from 'typebox';
import { SUBGRAPH_LIMITS } from '../services/subgraph.service.js';

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
