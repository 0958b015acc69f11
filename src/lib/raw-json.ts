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
  constructor(private readonly text: string) {}

  /** The JSON text. */
  get json(): string {
    return this.text;
  }

  /** The texts (or their UTF-8 bytes) that, written one after another, are `json` (a page's rows stay apart: see jsonArray). */
  pieces(): readonly Piece[] {
    return [this.text];
  }

  /** The value, parsed: what JSON.stringify writes outside a response serializer. */
  value(): unknown {
    return JSON.parse(this.json);
  }

  toJSON(): unknown {
    if (slots === undefined) return this.value();
    slots.push(this);
    return PLACEHOLDER;
  }
}

/** A piece of a response's JSON: text, or its UTF-8 bytes (written as they are). */
export type Piece = string | Buffer;

/** A JSON array of JSON texts, each written as it is in its turn, never joined into one string first. */
class RawJsonArray extends RawJson {
  constructor(private readonly items: readonly string[]) {
    super(''); // its text is the items' (json, pieces)
  }

  override get json(): string {
    return this.pieces().join('');
  }

  override pieces(): readonly Piece[] {
    const pieces: Piece[] = ['['];
    for (const [i, item] of this.items.entries()) {
      if (i > 0) pieces.push(',');
      pieces.push(item);
    }
    pieces.push(']');
    return pieces;
  }
}

/** JSON written as the given pieces one after another (texts, and bytes copied as they are). */
class RawJsonPieces extends RawJson {
  constructor(private readonly parts: readonly Piece[]) {
    super(''); // its text is its pieces'
  }

  override get json(): string {
    return this.parts.map((p) => (typeof p === 'string' ? p : p.toString('utf8'))).join('');
  }

  override pieces(): readonly Piece[] {
    return this.parts;
  }
}

/** JSON given as pieces (a kept page's bytes with a viewer's fields between them), to write as they are. */
export function jsonPieces(pieces: readonly Piece[]): RawJson {
  return new RawJsonPieces(pieces);
}

/**
 * JSON given as its UTF-8 bytes (a page of results kept whole: search/results.ts), which a response
 * copies as they are instead of encoding a text again on every request.
 */
export const jsonBytes = (bytes: Buffer): RawJson => jsonPieces([bytes]);

/** A JSON array of the given JSON texts (rows PostgreSQL wrote), to write as it is. */
export function jsonArray(items: readonly string[]): RawJson {
  return new RawJsonArray(items);
}

/** The schema keyword of a raw JSON slot: the serializer writes what stands there with JSON.stringify. */
export const RAW_JSON = 'x-raw-json';

const PLACEHOLDER = '\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/** The RawJson values written so far by the serializer running now (it is synchronous). */
let slots: RawJson[] | undefined;

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

/**
 * A serializer that writes each RawJson's text in its slot (see the module comment), as the
 * response's UTF-8 bytes: each piece (the serializer's text between slots, each row of a page) is
 * encoded once, straight into one buffer of its exact size (room for the longest encoding, 3 bytes
 * a character, made the garbage collector run for the memory outside the heap). Joined into one
 * string first, a page was copied twice more, measured again for its Content-Length and encoded
 * again by the socket, and one row with a character beyond Latin-1 (an emoji name) made the whole
 * page a two-byte string: the service's CPU per 20-row page of listings fell by a sixth, per
 * 100-row page to a third.
 */
export function splicingRawJson(serialize: Serialize): (doc: unknown) => string | Buffer {
  return (doc) => {
    const values: RawJson[] = [];
    const outer = slots;
    slots = values;
    let json: string;
    try {
      json = serialize(doc);
    } finally {
      slots = outer;
    }
    if (values.length === 0) return json;
    const parts = json.split(PLACEHOLDER_JSON);
    if (parts.length !== values.length + 1) throw new Error(`raw JSON: ${values.length} values but ${parts.length - 1} placeholders`);
    const pieces: Piece[] = [parts[0]!];
    for (let i = 0; i < values.length; i += 1) pieces.push(...values[i]!.pieces(), parts[i + 1]!);
    return utf8(pieces);
  };
}

/** The UTF-8 encoding of the pieces one after another (bytes as they are), in one buffer of their exact size. */
export function utf8(pieces: readonly Piece[]): Buffer {
  let size = 0;
  for (const p of pieces) size += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of pieces) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
  return out;
}
