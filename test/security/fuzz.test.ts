import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ERROR_STATUS } from '../../src/errors.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { bulkNames } from '../helpers/search.js';
import { createTestApp, show, type TestContext } from '../helpers/app.js';

/**
 * Fuzzing from the running service's own /openapi.json: for every operation, FC_RUNS (300)
 * requests mixing valid values drawn from its schemas with hostile ones. Replay a failure with
 * the FC_SEED it prints.
 */
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
const RUNS = Number(process.env.FC_RUNS ?? 300);
/** The whole run's time budget, shared by the operations: on a busy machine fewer than RUNS fit, and the count run is printed. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 60_000);

type Schema = Record<string, any>;
type Method = NonNullable<InjectOptions['method']>;
interface Operation { method: Method; path: string; op: Schema }

const HOSTILE_STRINGS = [
  '', ' ', 'a\u0000b', '\u0000', 'x'.repeat(5000), 'Infinity', '-Infinity', '1e309', 'NaN', '-1', '0', '99999999999999999999999',
  '9'.repeat(78), '0x' + 'f'.repeat(65), "' OR 1=1 --", '"; DROP TABLE users; --', '<script>alert(1)</script>', '../../etc/passwd',
  '${jndi:ldap://x}', '{{7*7}}', '__proto__', 'constructor', '🦄💥', 'ﬀ.eth', 'Ä.eth', '\u202e', '%00', '%FF', 'a/b', 'true', 'null', '[]', '{}',
];
const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_STRINGS, -1, 0, 1.5, -(2 ** 63), 2 ** 63, 2 ** 53 + 1, Number.MAX_VALUE, null, true, false, [], {}, [1, 2], { a: 1 }, ['x'],
];

const hostile = fc.constantFrom(...HOSTILE_VALUES);
const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));

/** A value for `schema`: usually valid, sometimes hostile. */
function valueOf(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validOf(schema, depth) }, { weight: 1, arbitrary: hostile });
}

/**
 * A valid value, often the schema's own example when it has one: the names, ids and addresses of
 * the examples exist in the fuzzed service (see `before`), so writes get past their look-ups and
 * change something, and sent again meet what they wrote.
 */
function validOf(schema: Schema | undefined, depth: number): fc.Arbitrary<unknown> {
  const own = schema && Array.isArray(schema.examples) && schema.examples.length > 0 && typeof schema.examples[0] !== 'object' ? schema.examples : undefined;
  return own ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...own) }, { weight: 2, arbitrary: generated(schema, depth) }) : generated(schema, depth);
}

function generated(schema: Schema | undefined, depth: number): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant('x');
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validOf(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 1000, 1e9) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
      if (schema.format === 'date-time') return fc.date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'email') return fc.constantFrom('a@example.test', 'fuzz@example.test');
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
    case 'array':
      return fc.array(valueOf(schema.items, depth + 1), { maxLength: 3 });
    case 'object':
      return objectOf(schema, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null));
  }
}

/** An object for an object schema: each property present or not (required ones usually), sometimes an extra one. */
function objectOf(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const required = new Set<string>(schema.required ?? []);
  const entries = props.map(([key, s]) =>
    fc.option(valueOf(s, depth + 1).map((v) => [key, v] as const), { freq: required.has(key) ? 12 : 2, nil: undefined }),
  );
  const extra = fc.option(fc.tuple(hostileString, hostile), { freq: 4, nil: undefined });
  return fc.tuple(fc.tuple(...entries), extra).map(([present, more]) => {
    const out: Record<string, unknown> = {};
    for (const e of present) if (e) out[e[0]] = e[1];
    if (more && more[0] !== '__proto__') out[more[0]] = more[1];
    return out;
  });
}

/**
 * The body a client would most likely send: the required fields, each its example (or default,
 * first allowed value); undefined when one has none. Sent twice by a signed-in user, it reaches
 * the second-write paths (already added, already voted) that random bodies seldom do.
 */
function exampleOf(schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return alternatives.map(exampleOf).find((v) => v !== undefined);
  if (schema.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of (schema.required ?? []) as string[]) {
      const value = exampleOf((schema.properties ?? {})[key] as Schema | undefined);
      if (value === undefined) return undefined;
      out[key] = value;
    }
    return out;
  }
  if (schema.type === 'array') {
    const item = exampleOf(schema.items as Schema | undefined);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

/** Raw body texts a JSON parser must survive. */
const RAW_BODIES = [
  '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '{', '[]', '"text"', '1e309', 'null',
  `{"a":${'['.repeat(3000)}${']'.repeat(3000)}}`, `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`, '\u0000', '{"a":"\\u0000"}',
];

function requestOf({ method, path, op }: Operation, token: string): fc.Arbitrary<InjectOptions> {
  const parameters = (op.parameters ?? []) as Schema[];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const pathValue = (p: Schema) => fc.oneof(
    // ``, `.` and `..` would land on another route (`/cart/` is `/cart`; dots are resolved away by the URL)
    { weight: 4, arbitrary: valueOf(p.schema).map((v) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v) ?? '')).map((v) => (/^\.{0,2}$/.test(v) ? `${v}x` : v)) },
    { weight: 1, arbitrary: fc.constantFrom('%FF', '%', '%2F', 'a'.repeat(600), '%E0%A4%A') },
  );
  const query = fc.tuple(...queryParams.map((p) => fc.option(valueOf(p.schema), { freq: 2, nil: undefined })), fc.option(fc.tuple(hostileString, hostileString), { nil: undefined }))
    .map((values) => {
      const q = new URLSearchParams();
      queryParams.forEach((p, i) => {
        const v = values[i];
        if (v !== undefined) q.append(p.name as string, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
      });
      const extra = values[queryParams.length] as [string, string] | undefined;
      if (extra) q.append(extra[0], extra[1]);
      return q.toString();
    });
  const takesBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
  const example = bodySchema ? exampleOf(bodySchema) : undefined;
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = takesBody
    ? fc.oneof(
        { weight: 6, arbitrary: (bodySchema ? valueOf(bodySchema) : fc.constant(undefined)).map((v) => ({ payload: v === undefined ? undefined : JSON.stringify(v), contentType: 'application/json' })) },
        { weight: example === undefined ? 0 : 2, arbitrary: fc.constant({ payload: JSON.stringify(example), contentType: 'application/json' }) },
        { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES).map((payload) => ({ payload, contentType: 'application/json' })) },
        { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded').map((contentType) => ({ payload: 'a=1', contentType })) },
      )
    : fc.constant({});
  const auth = fc.constantFrom<string | undefined>(undefined, `Bearer ${token}`, `Bearer ${token}`, 'Bearer x.y.z', 'Basic abc');
  return fc.record({ params: fc.tuple(...pathParams.map(pathValue)), query, body, auth }).map(({ params, query: q, body: b, auth: a }) => {
    let url = path;
    pathParams.forEach((p, i) => (url = url.replace(`{${p.name as string}}`, params[i])));
    const headers: Record<string, string> = {};
    if (a) headers.authorization = a;
    if (b.contentType && b.payload !== undefined) headers['content-type'] = b.contentType;
    return { method: method as InjectOptions['method'], url: q ? `${url}?${q}` : url, headers, ...(b.payload !== undefined ? { payload: b.payload } : {}) };
  });
}

/** Every value of an `examples` list anywhere in the document. */
function examplesIn(node: unknown): unknown[] {
  if (Array.isArray(node)) return node.flatMap(examplesIn);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => (key === 'examples' && Array.isArray(value) ? [...value, ...value.flatMap(examplesIn)] : examplesIn(value)));
}

describe(`fuzzing every operation of /openapi.json (FC_SEED=${SEED}, FC_RUNS=${RUNS})`, () => {
  let t: TestContext;
  let doc: { paths: Record<string, Record<string, Schema>> };
  let token: string;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats.default(ajv);
  ajv.addFormat('uint256', true);
  const validators = new Map<Schema, ReturnType<typeof ajv.compile>>();

  before(async () => {
    t = await createTestApp();
    token = (await signIn(t.app, 3)).token;
    doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);
    // the examples' names, owned by the fuzzing user, and names up to the examples' ids
    const owner = addressOf(3);
    const examples = examplesIn(doc);
    for (const name of new Set(examples.filter((e): e is string => typeof e === 'string' && /^[a-z0-9-]+\.eth$/.test(e)))) {
      await createName(t.container.db, name, { owner });
    }
    await bulkNames(t.container.db, 'fuzzed', Math.max(0, ...examples.filter((e): e is number => Number.isInteger(e) && (e as number) < 1000)));
  });
  after(async () => { await t?.close(); });

  function check(operation: Operation, req: InjectOptions, res: LightMyRequestResponse): void {
    const where = `FC_SEED=${SEED} ${operation.method} ${operation.path}: ${req.method} ${String(req.url).slice(0, 300)} → ${show(res).slice(0, 600)}`;
    const declared = operation.op.responses?.[String(res.statusCode)] as Schema | undefined;
    assert.ok(declared, `undeclared status ${res.statusCode}: ${where}`);
    assert.notEqual(res.statusCode, 500, where);
    const json = String(res.headers['content-type'] ?? '').startsWith('application/json') ? (JSON.parse(res.body) as Schema) : undefined;
    if (res.statusCode >= 400 && !(operation.path.startsWith('/health') && res.statusCode === 503)) {
      assert.ok(json, `error without JSON: ${where}`);
      assert.equal(json.success, false, where);
      const code = json.error?.code as keyof typeof ERROR_STATUS;
      assert.equal(ERROR_STATUS[code], res.statusCode, `code ${code} is not catalogued with this status: ${where}`);
      assert.equal(typeof json.meta?.timestamp, 'string', where);
    }
    const schema = declared.content?.['application/json']?.schema as Schema | undefined;
    if (schema && json) {
      let validate = validators.get(schema);
      if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
      assert.ok(validate(json), `response does not match its declared schema ${JSON.stringify(validate.errors?.slice(0, 2))}: ${where}`);
    }
  }

  it('answers every input with a declared status, a catalogued code in the envelope, a body matching its schema, and no 500', async () => {
    const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => ({ method: m.toUpperCase() as Method, path, op: item[m] })),
    );
    assert.ok(operations.length > 40, `${operations.length} operations`);
    // Each operation has its share of the budget, and at least 1 s; past it the remaining values
    // are generated but not sent. The budget is kept here rather than by fast-check's
    // interruptAfterTimeLimit, which counts a property interrupted before its first run ends as a
    // failure: one cold first request on a busy CI machine (16 test processes on 2 cores) failed
    // the whole suite that way. So every operation is asked at least once, however slow.
    const perOperation = Math.max(Math.floor(BUDGET_MS / operations.length), 1000);
    let runs = 0;
    let short = 0;
    for (const operation of operations) {
      let count = 0;
      await t.app.inject({ method: operation.method, url: operation.path.replace(/\{[^}]+\}/g, 'x') }); // warm the route
      const deadline = Date.now() + perOperation;
      await fc.assert(
        fc.asyncProperty(requestOf(operation, token), async (req) => {
          if (count > 0 && Date.now() > deadline) return;
          count++;
          check(operation, req, await t.app.inject(req));
          // a write sent again meets what it wrote the first time (a second click, a retry)
          if (operation.method !== 'GET') check(operation, req, await t.app.inject(req));
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      runs += count;
      if (count < RUNS) short++;
      const health = await t.app.inject({ method: 'GET', url: '/health' });
      assert.equal(health.statusCode, 200, `/health after ${operation.method} ${operation.path}: ${show(health)}`);
    }
    console.log(`fuzz: ${runs} requests over ${operations.length} operations (FC_SEED=${SEED}); ${short} operations stopped short of ${RUNS} by the ${BUDGET_MS} ms budget`);
  });
});
