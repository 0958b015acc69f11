import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { body, createTestApp, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';

type Schema = Record<string, any>;

/** The fixed set of values a parameter schema allows, when it has one. */
function fixedValues(s: Schema | undefined): unknown[] | undefined {
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return s.enum;
  const members = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  const one = (m: Schema) => (m.const !== undefined ? [m.const] : Array.isArray(m.enum) && m.enum.length === 1 ? m.enum : undefined);
  if (members?.length && members.every((m) => one(m))) return members.flatMap((m) => one(m)!);
  return undefined;
}

const SAMPLE_QUERY: Record<string, string> = { q: 'apple' };
const SAMPLE_PATH: Record<string, string> = { name: 'apple.eth', ensName: 'apple.eth', address: addressOf(0), id: '1', itemId: '1' };

/** Every query parameter with a fixed set of values, on every GET route: a wrong value is 400 naming the allowed values. */
describe('enum validation errors list the allowed values, on every route', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('each query enum of the OpenAPI document answers 400 VALIDATION_ERROR with details.field and details.allowed', async () => {
    const me = await signIn(t.app, 0);
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body) as Schema;
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
      const op = item.get as Schema | undefined;
      if (!op) continue;
      const url = path.replace(/\{([^}]+)\}/g, (_m, p: string) => SAMPLE_PATH[p] ?? '1');
      for (const p of (op.parameters ?? []) as Schema[]) {
        const allowed = fixedValues(p.schema);
        if (p.in !== 'query' || !allowed) continue;
        // Other required parameters get a good value, so the wrong one is the only fault.
        const others: Schema[] = ((op.parameters ?? []) as Schema[]).filter((o) => o.in === 'query' && o !== p && o.required && o.schema?.default === undefined);
        const rest: string = others.map((o: Schema) => `&${o.name}=${SAMPLE_QUERY[o.name] ?? 'apple'}`).join('');
        const res = await t.app.inject({ method: 'GET', url: `${url}?${encodeURIComponent(p.name)}=not-a-value${rest}`, headers: me.headers });
        const where = `GET ${path} ${p.name}: ${show(res)}`;
        assert.equal(res.statusCode, 400, where);
        assert.equal(body(res).error.code, 'VALIDATION_ERROR', where);
        assert.equal(body(res).error.details.field, `query.${p.name.replace('[]', '')}`, where);
        assert.deepEqual(body(res).error.details.allowed, allowed, where);
        checked++;
      }
    }
    assert.ok(checked >= 8, `checked ${checked} enum parameters`);
  });
});
