import { parse } from 'node:querystring';

const NESTED = /^filters\[([^[\]]+)\](\[\])?$/;
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The app's query-string parser: the usual flat parse (repeated keys become arrays), plus the
 * bracket notation of search filters: `filters[minPrice]=1` → `{filters: {minPrice: '1'}}` and
 * `filters[clubs][]=999&filters[clubs][]=10k` → `{filters: {clubs: ['999', '10k']}}`.
 * Only the `filters[...]` family is nested; every other key (including `clubs[]`) stays as sent.
 */
export function parseQueryString(text: string): Record<string, unknown> {
  const flat = parse(text);
  // No bracket, plain or escaped: nothing to nest (most requests; `parse` gives a null-prototype object too).
  if (!text.includes('[') && !/%5b/i.test(text)) return flat;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(flat)) {
    const m = NESTED.exec(key);
    if (!m || UNSAFE.has(m[1]) || (out.filters !== undefined && typeof out.filters !== 'object')) {
      out[key] = value;
      continue;
    }
    const filters = (out.filters ??= Object.create(null)) as Record<string, unknown>;
    const values = Array.isArray(value) ? value : [value];
    const previous = filters[m[1]];
    if (m[2] || Array.isArray(previous) || previous !== undefined || values.length > 1) {
      filters[m[1]] = [...(previous === undefined ? [] : Array.isArray(previous) ? previous : [previous]), ...values];
    } else {
      filters[m[1]] = values[0];
    }
  }
  return out;
}
