import { mnemonicToAccount, type HDAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import type { App } from '../../src/app.js';

export const MNEMONIC = 'test test test test test test test test test test test junk';

const derived = new Map<number, HDAccount>();

/**
 * Demo account i of the standard test mnemonic (account 0 is 0xf39F…2266). Derived once per
 * process: a derivation costs about 70 ms, and factories ask for an account several times per order.
 */
export function account(i: number): HDAccount {
  let acct = derived.get(i);
  if (!acct) {
    acct = mnemonicToAccount(MNEMONIC, { addressIndex: i });
    derived.set(i, acct);
  }
  return acct;
}

export function addressOf(i: number): `0x${string}` {
  return account(i).address.toLowerCase() as `0x${string}`;
}

export interface SignedIn {
  token: string;
  refreshToken: string;
  address: `0x${string}`;
  userId: number;
  headers: { authorization: string };
}

/** Signs an EIP-4361 message for the nonce the app hands out. */
export async function siweMessage(app: App, i: number, overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}): Promise<{ message: string; signature: `0x${string}` }> {
  const acct = account(i);
  const nonceRes = await app.inject({ method: 'GET', url: `/api/v1/auth/nonce?address=${acct.address}` });
  const nonce = JSON.parse(nonceRes.body).data.nonce as string;
  const message = createSiweMessage({
    address: acct.address,
    chainId: 1,
    domain: 'localhost',
    nonce,
    uri: 'http://localhost/login',
    version: '1',
    issuedAt: new Date(),
    ...overrides,
  });
  return { message, signature: await acct.signMessage({ message }) };
}

/** Full sign-in of demo account i; returns its bearer headers. */
export async function signIn(app: App, i: number): Promise<SignedIn> {
  const { message, signature } = await siweMessage(app, i);
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/verify', headers: { host: 'localhost' }, payload: { message, signature } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const data = JSON.parse(res.body).data;
  return { token: data.accessToken, refreshToken: data.refreshToken, address: addressOf(i), userId: data.user.id, headers: { authorization: `Bearer ${data.accessToken}` } };
}
