import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSiweMessage } from 'viem/siwe';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { account } from '../helpers/accounts.js';
import { startJsonRpcServer, type RpcServer } from '../helpers/json-rpc.js';

const WALLET = '0x1111111111111111111111111111111111111111';
const TRUE = `0x${'0'.repeat(63)}1`;
const FALSE = `0x${'0'.repeat(64)}`;

describe('sign-in of a contract wallet (EIP-1271) through ETH_RPC_URL', () => {
  let t: TestContext;
  let rpc: RpcServer;
  let accept = true;

  before(async () => {
    rpc = await startJsonRpcServer((method) => {
      if (method === 'eth_chainId') return '0x1';
      if (method === 'eth_call') return accept ? TRUE : FALSE;
      throw new Error(`unexpected ${method}`);
    });
    t = await createTestApp({ ETH_RPC_URL: rpc.url });
  });
  after(async () => {
    await t?.close();
    await rpc?.close();
  });

  async function attempt() {
    const nonceRes = await t.app.inject({ method: 'GET', url: `/api/v1/auth/nonce?address=${WALLET}` });
    const message = createSiweMessage({ address: WALLET, chainId: 1, domain: 'localhost', nonce: body(nonceRes).data.nonce, uri: 'http://localhost', version: '1' });
    // An owner key of the wallet signs; only the wallet contract can say whether that counts.
    const signature = await account(3).signMessage({ message });
    return t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', headers: { host: 'localhost' }, payload: { message, signature } });
  }

  it('signs in when the wallet contract accepts the signature', async () => {
    accept = true;
    const res = await attempt();
    assert.equal(res.statusCode, 200, show(res));
    assert.equal(body(res).data.user.address, WALLET);
    assert.ok(rpc.calls.some((c) => c.method === 'eth_call'), 'the wallet was asked');
  });

  it('refuses when the wallet contract rejects it', async () => {
    accept = false;
    const res = await attempt();
    assert.equal(res.statusCode, 401, show(res));
  });
});
