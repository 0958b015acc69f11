import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema, graphql } from 'graphql';
import { createTestApp, createTestDatabase, body, show, type TestContext } from '../helpers/app.js';
import { closedPortUrl, startHttpServer, type TestHttpServer } from '../helpers/standings.js';

/** A real GraphQL server shaped like the ENS subgraph, with switchable failure modes. */
const schema = buildSchema(`
  type Domain { id: ID! name: String labelName: String owner: Account! registration: Registration }
  type Account { id: ID! domains: [Domain!]! }
  type Registration { id: ID! expiryDate: String! }
  type Query { domains(first: Int, where: DomainFilter): [Domain!]! }
  input DomainFilter { name: String }
`);
const domains = [
  { id: '0x01', name: 'abc.eth', labelName: 'abc', owner: { id: '0xaa', domains: [] }, registration: { id: '0x02', expiryDate: '1900000000' } },
  { id: '0x03', name: 'xyz.eth', labelName: 'xyz', owner: { id: '0xbb', domains: [] }, registration: null },
];
const root = {
  domains: ({ first, where }: { first?: number; where?: { name?: string } }) =>
    domains.filter((d) => !where?.name || d.name === where.name).slice(0, first ?? 100),
};

type Mode = 'graphql' | 'status500' | 'html' | 'slow' | 'array' | 'reset' | 'bad-request-errors';

describe('POST /api/v1/subgraph', () => {
  let upstream: TestHttpServer;
  let mode: Mode = 'graphql';
  let lastRaw = '';
  let lastRequest: any;
  let t: TestContext;
  let unset: TestContext;
  let down: TestContext;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  const relay = (ctx: TestContext, payload: unknown, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/subgraph', payload: payload as string, headers });

  before(async () => {
    upstream = await startHttpServer(async (req, res, raw) => {
      lastRequest = { method: req.method, url: req.url, contentType: req.headers['content-type'], body: JSON.parse(raw) };
      switch (mode) {
        case 'graphql': {
          const result = await graphql({ schema, source: lastRequest.body.query, variableValues: lastRequest.body.variables, rootValue: root });
          lastRaw = JSON.stringify(result, null, 1); // unusual spacing: the relay must not re-encode it
          res.setHeader('content-type', 'application/json');
          res.end(lastRaw);
          return;
        }
        case 'bad-request-errors':
          lastRaw = '{"errors":[{"message":"Unknown argument"}]}';
          res.writeHead(400, { 'content-type': 'application/json' }).end(lastRaw);
          return;
        case 'status500':
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":[{"message":"indexer down"}]}');
          return;
        case 'html':
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
          return;
        case 'array':
          res.writeHead(200, { 'content-type': 'application/json' }).end('[1,2]');
          return;
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, 1500));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
          return;
        case 'reset':
          req.socket.destroy();
          return;
      }
    });
    database = await createTestDatabase();
    // Failures in a row on purpose: the breaker (test/reliability/providers.test.ts) must not skip the subgraph here.
    t = await createTestApp({ ENS_SUBGRAPH_URL: upstream.url, SUBGRAPH_TIMEOUT_MS: '600', PROVIDER_BREAKER_FAILURES: '1000' }, { database });
    unset = await createTestApp({ ENS_SUBGRAPH_URL: undefined }, { database });
    down = await createTestApp({ ENS_SUBGRAPH_URL: await closedPortUrl() }, { database });
  });
  after(async () => {
    await t?.close();
    await unset?.close();
    await down?.close();
    await upstream?.close();
    await database?.drop();
  });

  it('relays a query with variables and returns the upstream JSON byte for byte', async () => {
    mode = 'graphql';
    const query = 'query Names($first: Int!, $name: String) { domains(first: $first, where: {name: $name}) { id name owner { id } registration { expiryDate } } }';
    const res = await relay(t, { query, variables: { first: 5, name: 'abc.eth' }, operationName: 'Names', extra: 'dropped' });
    assert.equal(res.statusCode, 200, show(res));
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.body, lastRaw, 'unchanged, not enveloped');
    assert.deepEqual(JSON.parse(res.body), { data: { domains: [{ id: '0x01', name: 'abc.eth', owner: { id: '0xaa' }, registration: { expiryDate: '1900000000' } }] } });
    assert.deepEqual(lastRequest.body, { query, variables: { first: 5, name: 'abc.eth' }, operationName: 'Names' });
    assert.equal(lastRequest.method, 'POST');
    assert.equal(lastRequest.url, '/subgraphs/name/ens');
    assert.match(lastRequest.contentType, /application\/json/);
  });

  it('passes GraphQL errors of the subgraph through', async () => {
    mode = 'graphql';
    const res = await relay(t, { query: '{ domains { nope } }' });
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.body, lastRaw);
    assert.ok(Array.isArray(JSON.parse(res.body).errors));
    mode = 'bad-request-errors';
    const four = await relay(t, { query: '{ domains { id } }', variables: null });
    assert.equal(four.statusCode, 200, show(four));
    assert.equal(four.body, lastRaw);
  });

  it('answers 502 BAD_GATEWAY when the subgraph fails, times out or answers nonsense', async () => {
    for (const m of ['status500', 'html', 'array', 'slow', 'reset'] as const) {
      mode = m;
      const res = await relay(t, { query: '{ domains { id } }' });
      assert.equal(res.statusCode, 502, `${m}: ${show(res)}`);
      assert.equal(body(res).error.code, 'BAD_GATEWAY', `${m}: ${show(res)}`);
      assert.equal(body(res).success, false);
    }
    mode = 'graphql';
  });

  it('answers 502 BAD_GATEWAY when the subgraph is down', async () => {
    const res = await relay(down, { query: '{ domains { id } }' });
    assert.equal(res.statusCode, 502, show(res));
    assert.equal(body(res).error.code, 'BAD_GATEWAY');
  });

  it('answers 503 SERVICE_UNAVAILABLE when no subgraph is configured', async () => {
    const res = await relay(unset, { query: '{ domains { id } }' });
    assert.equal(res.statusCode, 503, show(res));
    assert.equal(body(res).error.code, 'SERVICE_UNAVAILABLE');
  });

  it('answers 400 INVALID_REQUEST for anything but a GraphQL query object', async () => {
    const deep = `{ ${'a { '.repeat(11)}b${' }'.repeat(11)} }`;
    const wide = `{ ${Array.from({ length: 1001 }, (_, i) => `f${i}: id`).join(' ')} }`;
    const bomb = 'fragment A on Domain { id name } fragment B on Domain { x1: owner { ...A } x2: owner { ...A } } { domains { ...B ...Cyc } } fragment Cyc on Domain { ...Cyc }';
    const cases: [string, unknown, Record<string, string>?][] = [
      ['no body', undefined],
      ['not JSON', '{"query": ', { 'content-type': 'application/json' }],
      ['an array', JSON.stringify([{ query: '{ a }' }]), { 'content-type': 'application/json' }],
      ['a string', JSON.stringify('{ domains { id } }'), { 'content-type': 'application/json' }],
      ['plain text', '{ domains { id } }', { 'content-type': 'text/plain' }],
      ['no query', { variables: {} }],
      ['query not a string', { query: 42 }],
      ['query an array', { query: ['{ domains { id } }'] }],
      ['empty query', { query: '  ' }],
      ['unparseable query', { query: '{ domains { id }' }],
      ['variables an array', { query: '{ domains { id } }', variables: [1] }],
      ['variables a string', { query: '{ domains { id } }', variables: '{}' }],
      ['operationName a number', { query: '{ domains { id } }', operationName: 1 }],
      ['a mutation', { query: 'mutation { setName(name: "x") }' }],
      ['a subscription', { query: 'subscription { domains { id } }' }],
      ['a schema definition', { query: 'type Foo { id: ID }' }],
      ['too deep', { query: deep }],
      ['too many fields', { query: wide }],
      ['a cyclic fragment', { query: bomb }],
      ['an unknown fragment', { query: '{ domains { ...Missing } }' }],
      ['too long', { query: `{ domains { id } }${' '.repeat(20_001)}` }],
    ];
    for (const [label, payload, headers] of cases) {
      const res = await relay(t, payload, headers);
      assert.equal(res.statusCode, 400, `${label}: ${show(res)}`);
      assert.equal(body(res).error.code, 'INVALID_REQUEST', `${label}: ${show(res)}`);
    }
  });

  it('accepts queries at the depth limit and fragments used many times', async () => {
    mode = 'graphql';
    const nested = `{ domains { owner { domains { owner { domains { owner { domains { owner { domains { id } } } } } } } } } }`; // depth 10
    const res = await relay(t, { query: nested });
    assert.equal(res.statusCode, 200, show(res));
    const fragments = `fragment D on Domain { id name labelName } { ${Array.from({ length: 50 }, (_, i) => `q${i}: domains(first: 1) { ...D }`).join(' ')} }`;
    const many = await relay(t, { query: fragments });
    assert.equal(many.statusCode, 200, show(many));
    assert.equal(Object.keys(JSON.parse(many.body).data).length, 50);
  });
});
