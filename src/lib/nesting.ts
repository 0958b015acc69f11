/**
 * Bracket nesting of a text, counted without building anything: a hostile body nested thousands
 * of levels deep is refused before a recursive parser (JSON.stringify, GraphQL's) overflows its stack.
 */

/** Request bodies nest far less (a signed order is 5 levels); past this a body is refused. */
export const MAX_JSON_NESTING = 32;

/** Deepest `{`/`[` nesting of a JSON text, strings skipped. Stops counting once past `limit`. */
export function jsonNesting(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/** Deepest `{`/`[`/`(` nesting of a GraphQL text, strings, block strings and comments skipped. */
export function graphqlNesting(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === '"' && text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      if (end < 0) return deepest;
      i = end + 2;
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[' || c === '(') {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === '}' || c === ']' || c === ')') {
      depth--;
    }
  }
  return deepest;
}
