import { sql, type RawBuilder } from 'kysely';
import { KNOWN_CURRENCIES } from '../lib/currencies.js';

/**
 * Rows a response shows as PostgreSQL writes them: one compact JSON text per row, which the
 * response writes as it is (lib/raw-json.ts). A page of 20 listings decoded into 480 JavaScript
 * values, mapped and written again cost the service about a millisecond; PostgreSQL writes the
 * same text for a fraction of that. The field list of such a row is the one mapping of its
 * resource to the API (LISTING_JSON in listings.repository.ts): the response schema describes
 * it, and the tests check every kind of row against that schema.
 *
 * The helpers build SQL text from our own constants (column names, literals), never from input:
 * the row is one raw fragment, compiled once, not a tree of a hundred nodes Kysely would compile
 * on every request.
 */

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A timestamptz as `iso()` writes it (lib/time.ts: UTC, milliseconds, `Z`; to_char's MS truncates as a Date does); null stays null. */
export const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An amount (numeric, wei) or a token id as a decimal string (a JSON number would lose digits); null stays null. */
export const weiText = (column: string) => `${column}::text`;

/** `currency_symbol` and `currency_decimals` of the currency at `address` (lower-case), as `currencyFields` gives them. */
export function currencyJson(address: string): { currency_symbol: string; currency_decimals: string } {
  const cases = (pick: (c: (typeof KNOWN_CURRENCIES)[number]) => string) => `CASE ${address} ${KNOWN_CURRENCIES.map((c) => `WHEN ${quoted(c.address)} THEN ${pick(c)}`).join(' ')} END`;
  return { currency_symbol: cases((c) => quoted(c.symbol)), currency_decimals: cases((c) => String(c.decimals)) };
}

/**
 * One row as a compact JSON object text (`{"id":1,"name":"a"}`), keys in the order of `fields`
 * (key → SQL expression): to_json of a one-row select (json_build_object would write `"id" : 1, `).
 * A jsonb value is written as its text, a null as null.
 */
export function jsonObject(fields: Record<string, string>): RawBuilder<string> {
  return sql.raw<string>(`${jsonValue(fields)}::text`);
}

/** The SQL of `jsonObject`'s row as a json value (to nest in another, or to aggregate). */
export function jsonValue(fields: Record<string, string>): string {
  const columns = Object.entries(fields).map(([key, value]) => `${value} AS "${key.replaceAll('"', '""')}"`).join(', ');
  return `(SELECT to_json(j) FROM (SELECT ${columns}) AS j)`;
}
