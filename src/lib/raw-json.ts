/**
 * JSON text read from PostgreSQL (a jsonb column as `::text`) that a response writes as it is: a
 * page of listings or offers carries a signed order per row (about 1.2 KB each), and parsing each
 * into objects only to stringify them again was a third of such a page's CPU.
 *
 * A response schema marks where such text may stand with `RAW_JSON` (`storedOrder` in
 * contracts/order.ts for a stored order, `asJsonText` in contracts/common.ts for rows PostgreSQL
 * wrote whole: db/json-rows.ts); the route's serializer (schema-compilers.ts) writes a placeholder there,
 * the JSON string "\u0000", and then puts each text in its placeholder's place. No other string
 * of a response can be U+0000: PostgreSQL refuses it in text and jsonb, and a request holding one
 * anywhere is refused (route-contract.ts); so the placeholders are the only "\u0000" strings of
 * the output, and a count that disagrees is a bug and throws. Everywhere else (a cache, a webhook
 * body, a test) a RawJson serializes as the value its text holds.
 */
export class RawJson {
  constructor(readonly json: string) {}

  /** The value, parsed: what JSON.stringify writes outside a response serializer. */
  value(): unknown {
    return JSON.parse(this.json);
  }

  toJSON(): unknown {
    if (slots === undefined) return this.value();
    slots.push(this.json);
    return PLACEHOLDER;
  }
}

/** A JSON array of the given JSON texts (rows PostgreSQL wrote), to write as it is. */
export function jsonArray(texts: readonly string[]): RawJson {
  return new RawJson(`[${texts.join(',')}]`);
}

/** The schema keyword of a raw JSON slot: the serializer writes what stands there with JSON.stringify. */
export const RAW_JSON = 'x-raw-json';

const PLACEHOLDER = '\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/** The texts of the RawJson values written so far by the serializer running now (it is synchronous). */
let slots: string[] | undefined;

type Serialize = (doc: unknown) => string;
type Schema = Record<string, unknown>;

/**
 * `schema` with each `RAW_JSON` subschema replaced by `{}` (any value, which fast-json-stringify
 * writes with JSON.stringify, calling toJSON); `undefined` when it has none. Copies only the path
 * to a slot: the route's own schema objects (also the OpenAPI document's) are left as they are.
 */
export function withRawSlots(schema: unknown): Schema | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if ((schema as Schema)[RAW_JSON] === true) return {};
  let copy: Schema | unknown[] | undefined;
  for (const [key, value] of Object.entries(schema)) {
    const replaced = withRawSlots(value);
    if (replaced === undefined) continue;
    copy ??= Array.isArray(schema) ? [...schema] : { ...schema };
    (copy as Schema)[key] = replaced;
  }
  return copy as Schema | undefined;
}

/** A serializer that writes each RawJson's text in its slot (see the module comment). */
export function splicingRawJson(serialize: Serialize): Serialize {
  return (doc) => {
    const texts: string[] = [];
    const outer = slots;
    slots = texts;
    let json: string;
    try {
      json = serialize(doc);
    } finally {
      slots = outer;
    }
    if (texts.length === 0) return json;
    const parts = json.split(PLACEHOLDER_JSON);
    if (parts.length !== texts.length + 1) throw new Error(`raw JSON: ${texts.length} values but ${parts.length - 1} placeholders`);
    let out = parts[0]!;
    for (let i = 0; i < texts.length; i += 1) out += texts[i]! + parts[i + 1]!;
    return out;
  };
}
