import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createTestApp, type TestContext } from '../helpers/app.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `METHOD /path` of every route of the OpenAPI document, in the `:param` form docs/INTERFACE.md uses. */
function openapiRoutes(doc: { paths: Record<string, Record<string, unknown>> }): Set<string> {
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]) routes.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
  }
  return routes;
}

/** Routes named by the headings of docs/INTERFACE.md (`#### GET /api/v1/listings`). */
function documentedRoutes(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{2,5} (GET|POST|PUT|PATCH|DELETE) (\/\S*)\s*$/gm)].map((m) => `${m[1]} ${m[2]}`));
}

describe('docs/INTERFACE.md is in step with /openapi.json', () => {
  let t: TestContext;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t?.close(); });

  it('every route of the OpenAPI document has a heading in docs/INTERFACE.md, and every heading is a route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const served = openapiRoutes(JSON.parse(res.body));
    const documented = documentedRoutes(readFileSync('docs/INTERFACE.md', 'utf8'));
    const undocumented = [...served].filter((r) => !documented.has(r)).sort();
    const gone = [...documented].filter((r) => !served.has(r)).sort();
    assert.deepEqual(
      { undocumented, gone },
      { undocumented: [], gone: [] },
      `docs/INTERFACE.md: add a "#### METHOD /path" section for each of undocumented [${undocumented.join(', ')}]; remove or fix gone [${gone.join(', ')}]`,
    );
    assert.ok(served.size > 40, `the OpenAPI document lists ${served.size} routes`);
  });
});
