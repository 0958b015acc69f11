import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf, signIn } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { DAY } from '../../src/lib/time.js';

const A = addressOf(0).toLowerCase();
const B = addressOf(1).toLowerCase();
const WRAPPER = '0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401';
const RESOLVER = '0x231b0ee14048e9dccd1d247744d114a4eb5e8e63';

/** Domains the test subgraph knows; `broken.eth` makes it answer 500. */
const DOMAINS: Record<string, unknown> = {
  'plainrole.eth': { name: 'plainrole.eth', owner: { id: B }, registrant: { id: A }, wrappedOwner: null, expiryDate: null, registration: { expiryDate: '1900000000' }, resolver: { address: RESOLVER }, resolvedAddress: { id: A }, wrappedDomain: null },
  'wrappedrole.eth': { name: 'wrappedrole.eth', owner: { id: WRAPPER }, registrant: { id: WRAPPER }, wrappedOwner: { id: A }, expiryDate: '1900000000', registration: { expiryDate: '1892224000' }, resolver: { address: RESOLVER }, resolvedAddress: null, wrappedDomain: { fuses: 65537 } },
  'lockedrole.eth': { name: 'lockedrole.eth', owner: { id: WRAPPER }, registrant: { id: WRAPPER }, wrappedOwner: { id: A }, expiryDate: '1900000000', registration: null, resolver: null, resolvedAddress: null, wrappedDomain: { fuses: 65537 | 8 } },
};

describe('ENS roles (subgraph with fallback to our tables), balances and primary names without an RPC', () => {
  let t: TestContext;
  let subgraph: Server;
  let queries = 0;

  before(async () => {
    subgraph = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        queries += 1;
        const name = (JSON.parse(raw) as { variables: { name: string } }).variables.name;
        if (name === 'broken.eth') {
          res.writeHead(500).end('oops');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { domains: DOMAINS[name] ? [DOMAINS[name]] : [] } }));
      });
    });
    await new Promise<void>((resolve) => subgraph.listen(0, '127.0.0.1', resolve));
    const { port } = subgraph.address() as { port: number };
    t = await createTestApp({ ENS_SUBGRAPH_URL: `http://127.0.0.1:${port}/`, ETH_RPC_URL: undefined });
    const db = t.container.db;
    for (const [i, name] of ['plainrole.eth', 'broken.eth', 'onlyours.eth', 'held-1.eth', 'held-2.eth', 'held-3.eth'].entries()) {
      await createName(db, name, { owner: A, expiryDate: new Date(Date.now() + (10 + i) * DAY) });
    }
    await db.updateTable('ens_names').set({ wrapped: true }).where('name', '=', 'onlyours.eth').execute();
    await createName(db, 'long-gone.eth', { owner: A, expiryDate: new Date(Date.now() - 200 * DAY) });
    await db.insertInto('primary_names').values({ address: A, name: 'plainrole.eth', checked_at: new Date(Date.now() - 10 * DAY) }).execute();
  });
  after(async () => {
    await t?.close();
    await new Promise((resolve) => subgraph?.close(resolve));
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('roles of an unwrapped and a wrapped name come from the subgraph', async () => {
    const res = await get('/api/v1/ens-roles/names/PlainRole.eth/roles');
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(res.headers['cache-control'], 'public, max-age=15');
    assert.deepEqual(body(res).data, {
      name: 'plainrole.eth', owner: A, registrant: A, manager: B, wrappedOwner: null, ethAddress: A, isWrapped: false, fuses: null,
      expiryDate: 1900000000, resolver: RESOLVER, source: 'subgraph', fallbackReason: null,
    });
    const wrapped = body(await get('/api/v1/ens-roles/names/wrappedrole/roles')).data;
    assert.equal(wrapped.owner, A);
    assert.equal(wrapped.manager, A);
    assert.equal(wrapped.registrant, WRAPPER);
    assert.equal(wrapped.isWrapped, true);
    assert.deepEqual(wrapped.fuses, {
      canUnwrap: false, canBurnFuses: true, canTransfer: true, canSetResolver: true, canSetTTL: true, canCreateSubdomain: true,
      parentCanControl: false, canExtendExpiry: false, raw: 65537,
    });
  });

  it('a failing subgraph, or one that does not know the name, leaves the answer to our tables and says so', async () => {
    const broken = body(await get('/api/v1/ens-roles/names/broken.eth/roles')).data;
    assert.equal(broken.source, 'database');
    assert.equal(broken.fallbackReason, 'subgraph_failed');
    assert.equal(broken.owner, A);
    assert.equal(broken.manager, A);
    const ours = body(await get('/api/v1/ens-roles/names/onlyours.eth/roles')).data;
    assert.equal(ours.fallbackReason, 'not_in_subgraph');
    assert.equal(ours.isWrapped, true);
    assert.equal(ours.wrappedOwner, A);
    const missing = await get('/api/v1/ens-roles/names/nowhere-at-all.eth/roles');
    assert.equal(missing.statusCode, 404, show(missing));
    assert.equal(body(missing).error.code, 'NAME_NOT_FOUND');
    const invalid = await get('/api/v1/ens-roles/names/a..b/roles');
    assert.equal(invalid.statusCode, 400, show(invalid));
    assert.equal(body(invalid).error.code, 'INVALID_NAME');
  });

  it('can-manage: the manager may, the holder alone may not, and a burned CANNOT_SET_RESOLVER stops everyone', async () => {
    const can = (name: string, who: string) => get(`/api/v1/ens-roles/names/${name}/can-manage/${who}`).then((r) => { assert.equal(r.statusCode, 200, show(r)); return body(r).data; });
    assert.deepEqual(await can('plainrole.eth', B), { canManage: true, role: 'manager', isWrapped: false, fuses: null, source: 'subgraph', fallbackReason: null });
    assert.equal((await can('plainrole.eth', A)).role, 'owner');
    assert.equal((await can('plainrole.eth', A)).canManage, false);
    assert.equal((await can('wrappedrole.eth', A)).role, 'both');
    assert.equal((await can('wrappedrole.eth', A)).canManage, true);
    const locked = await can('lockedrole.eth', A);
    assert.equal(locked.canManage, false);
    assert.equal(locked.fuses.canSetResolver, false);
    assert.deepEqual(await can('wrappedrole.eth', addressOf(3).toLowerCase()), { ...(await can('wrappedrole.eth', addressOf(3))), canManage: false, role: null });
    const bad = await get('/api/v1/ens-roles/names/plainrole.eth/can-manage/0xnope');
    assert.equal(bad.statusCode, 400);
    assert.equal(body(bad).error.details.field, 'params.address');
  });

  it('answers are cached 15 seconds: a second ask does not query the subgraph', async () => {
    const before = queries;
    await get('/api/v1/ens-roles/names/plainrole.eth/roles');
    await get('/api/v1/ens-roles/names/plainrole.eth/can-manage/' + A);
    assert.equal(queries, before);
  });

  it('manageable names: the held names, soonest expiry first, paged, with the role and the caller\'s vote', async () => {
    const me = await signIn(t.app, 0);
    const res = await get(`/api/v1/ens-roles/users/${A}/manageable-names?page=2&limit=4`, me.headers);
    assert.equal(res.statusCode, 200, show(res));
    const data = body(res).data;
    assert.deepEqual(data.pagination, { page: 2, limit: 4, total: 6, totalPages: 2, hasNext: false, hasPrev: true });
    assert.deepEqual(data.names.map((n: { name: string }) => n.name), ['held-2.eth', 'held-3.eth']);
    assert.equal(data.names[0].role, 'both');
    assert.equal(data.names[0].user_vote, null);
    const first = body(await get(`/api/v1/ens-roles/users/${A}/manageable-names?limit=2`)).data;
    assert.deepEqual(first.names.map((n: { name: string }) => n.name), ['plainrole.eth', 'broken.eth']);
    assert.equal('user_vote' in first.names[0], false);
    const none = body(await get(`/api/v1/ens-roles/users/${B}/manageable-names`)).data;
    assert.deepEqual(none.names, []);
    assert.equal(none.pagination.total, 0);
    const bad = await get(`/api/v1/ens-roles/users/${A}/manageable-names?limit=500`);
    assert.equal(bad.statusCode, 400);
    assert.equal(body(bad).error.details.field, 'query.limit');
  });

  it('without an RPC: balances are null with the reason, and the profile keeps the last primary name seen', async () => {
    const res = await get(`/api/v1/users/${A}/balances`);
    assert.equal(res.statusCode, 200, show(res));
    const data = body(res).data;
    assert.equal(data.reason, 'rpc_not_configured');
    assert.deepEqual(Object.keys(data.balances), ['eth', 'weth', 'usdc']);
    for (const b of Object.values(data.balances) as { wei: null; formatted: null }[]) {
      assert.equal(b.wei, null);
      assert.equal(b.formatted, null);
    }
    const profile = body(await get(`/api/v1/profiles/${A}`)).data;
    assert.equal(profile.primaryName, 'plainrole.eth');
    assert.equal(profile.primaryNameSource, 'cache');
    assert.equal(body(await get(`/api/v1/profiles/${B}`)).data.primaryNameSource, null);
  });
});
