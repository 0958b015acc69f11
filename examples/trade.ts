/**
 * Sign in with a demo account, list one of its names and make an offer on it from another demo
 * account, both as signed Seaport 1.6 orders. Needs only viem.
 *
 *   npm start                                   # in another terminal: the service with demo data
 *   npx tsx examples/trade.ts                   # against http://localhost:3000
 *   npx tsx examples/trade.ts http://localhost:3000 https://eth.example/rpc   # counters from chain
 */
import { createPublicClient, http, labelhash, namehash, parseAbi, parseEther, type Address, type Hex } from 'viem';
import { mnemonicToAccount, type HDAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';

// Ethereum mainnet (chain id 1).
const CHAIN_ID = 1;
const SEAPORT: Address = '0x0000000000000068F116a894984e2DB1123eB395'; // Seaport 1.6
const BASE_REGISTRAR: Address = '0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85'; // ERC-721, token id = uint256(labelhash(label))
const NAME_WRAPPER: Address = '0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401'; // ERC-1155, token id = uint256(namehash(name))
const WETH: Address = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'; // offers pay in an ERC-20; listings may ask ETH
const ETH: Address = '0x0000000000000000000000000000000000000000';
const ZERO_32: Hex = `0x${'0'.repeat(64)}`;

/** The demo data belongs to the first accounts of this mnemonic. Never hold real funds with it. */
const DEMO_MNEMONIC = 'test test test test test test test test test test test junk';

/** Seaport 1.6 EIP-712 domain and types: the wallet signs `OrderComponents`. */
const domain = { name: 'Seaport', version: '1.6', chainId: CHAIN_ID, verifyingContract: SEAPORT } as const;
const types = {
  OrderComponents: [
    { name: 'offerer', type: 'address' },
    { name: 'zone', type: 'address' },
    { name: 'offer', type: 'OfferItem[]' },
    { name: 'consideration', type: 'ConsiderationItem[]' },
    { name: 'orderType', type: 'uint8' },
    { name: 'startTime', type: 'uint256' },
    { name: 'endTime', type: 'uint256' },
    { name: 'zoneHash', type: 'bytes32' },
    { name: 'salt', type: 'uint256' },
    { name: 'conduitKey', type: 'bytes32' },
    { name: 'counter', type: 'uint256' },
  ],
  OfferItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
  ],
  ConsiderationItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
  ],
} as const;

interface Item { itemType: number; token: Address; identifierOrCriteria: bigint; startAmount: bigint; endAmount: bigint }
interface Components {
  offerer: Address; zone: Address; offer: Item[]; consideration: (Item & { recipient: Address })[]; orderType: number;
  startTime: bigint; endTime: bigint; zoneHash: Hex; salt: bigint; conduitKey: Hex; counter: bigint;
}

/** Calls the API and returns `data`; an error envelope becomes an exception carrying it. */
async function api<T>(baseUrl: string, path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const res = await fetch(new URL(path, baseUrl), {
    method: init.method ?? 'GET',
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const json = (await res.json()) as { success: boolean; data: T; error?: unknown };
  if (!json.success) throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status} ${JSON.stringify(json.error)}`);
  return json.data;
}

/** Sign in with Ethereum (EIP-4361): nonce → signed message → access token. */
export async function signIn(baseUrl: string, account: HDAccount): Promise<string> {
  const { nonce } = await api<{ nonce: string }>(baseUrl, `/api/v1/auth/nonce?address=${account.address}`);
  const url = new URL(baseUrl);
  const message = createSiweMessage({ address: account.address, chainId: CHAIN_ID, domain: url.host, nonce, uri: url.origin, version: '1', issuedAt: new Date() });
  const signature = await account.signMessage({ message });
  const session = await api<{ accessToken: string }>(baseUrl, '/api/v1/auth/verify', { method: 'POST', body: { message, signature } });
  return session.accessToken;
}

/** The name as a Seaport item: wrapped names trade as NameWrapper ERC-1155 tokens, the rest as registrar ERC-721 tokens. */
function nameItem(name: string, wrapped: boolean): Item {
  return wrapped
    ? { itemType: 3, token: NAME_WRAPPER, identifierOrCriteria: BigInt(namehash(name)), startAmount: 1n, endAmount: 1n }
    : { itemType: 2, token: BASE_REGISTRAR, identifierOrCriteria: BigInt(labelhash(name.split('.')[0])), startAmount: 1n, endAmount: 1n };
}

function payment(currency: Address, amount: bigint): Item {
  return { itemType: currency === ETH ? 0 : 1, token: currency, identifierOrCriteria: 0n, startAmount: amount, endAmount: amount };
}

/**
 * The offerer's Seaport counter. Every order carries it, and `incrementCounter` on Seaport voids
 * all orders signed with a lower one. With no RPC we assume a wallet that never raised it (0).
 */
export async function counterOf(offerer: Address, rpcUrl?: string): Promise<bigint> {
  if (!rpcUrl) return 0n;
  const client = createPublicClient({ transport: http(rpcUrl) });
  return client.readContract({ address: SEAPORT, abi: parseAbi(['function getCounter(address offerer) view returns (uint256)']), functionName: 'getCounter', args: [offerer] });
}

/** Signs the order (EIP-712) and shapes it as the API takes it: numbers as decimal strings. */
async function signOrder(account: HDAccount, order: Components) {
  const signature = await account.signTypedData({ domain, types, primaryType: 'OrderComponents', message: order });
  const parameters = JSON.parse(JSON.stringify(order, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
  return { parameters, signature };
}

function baseOrder(offerer: Address, days: number, counter: bigint) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  return {
    offerer, zone: ETH, orderType: 0, startTime: now, endTime: now + BigInt(days * 86_400),
    zoneHash: ZERO_32, salt: BigInt(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`), conduitKey: ZERO_32, counter,
  };
}

/** A signed listing: the seller offers the name token and asks `price` (wei) in ETH, paid to themselves. */
export async function signedListing(seller: HDAccount, name: string, wrapped: boolean, price: bigint, o: { days?: number; counter?: bigint } = {}) {
  return signOrder(seller, {
    ...baseOrder(seller.address, o.days ?? 30, o.counter ?? 0n),
    offer: [nameItem(name, wrapped)],
    consideration: [{ ...payment(ETH, price), recipient: seller.address }],
  });
}

/** A signed offer: the buyer offers `amount` (wei) of WETH and asks for the name token, sent to themselves. */
export async function signedOffer(buyer: HDAccount, name: string, wrapped: boolean, amount: bigint, o: { days?: number; counter?: bigint } = {}) {
  return signOrder(buyer, {
    ...baseOrder(buyer.address, o.days ?? 7, o.counter ?? 0n),
    offer: [payment(WETH, amount)],
    consideration: [{ ...nameItem(name, wrapped), recipient: buyer.address }],
  });
}

export const demoAccount = (i: number) => mnemonicToAccount(DEMO_MNEMONIC, { addressIndex: i });

interface NameResult { name: string; wrapped?: boolean }
interface Listing { id: number; ens_name: string; price_wei: string; order_hash: string; status: string }
interface Offer { id: number; name: string; offer_amount_wei: string; order_hash: string; status: string }

export async function main(baseUrl = 'http://localhost:3000', rpcUrl?: string): Promise<{ listing: Listing; offer: Offer }> {
  const seller = demoAccount(0);
  const buyer = demoAccount(1);

  // 1. The seller signs in and picks one of their names that is not listed yet.
  const sellerToken = await signIn(baseUrl, seller);
  const { results } = await api<{ results: NameResult[] }>(baseUrl, `/api/v1/search?owner=${seller.address}&listed=false&sortBy=alphabetical&sortOrder=asc&limit=1`);
  if (results.length === 0) throw new Error(`${seller.address} owns no unlisted name`);
  const { name, wrapped = false } = results[0];

  // 2. The seller lists it for 0.5 ETH for 30 days.
  const listingOrder = await signedListing(seller, name, wrapped, parseEther('0.5'), { counter: await counterOf(seller.address, rpcUrl) });
  const listing = await api<Listing>(baseUrl, '/api/v1/listings', { method: 'POST', token: sellerToken, body: { orderData: listingOrder } });

  // 3. The buyer signs in and offers 0.2 WETH for 7 days.
  const buyerToken = await signIn(baseUrl, buyer);
  const offerOrder = await signedOffer(buyer, name, wrapped, parseEther('0.2'), { counter: await counterOf(buyer.address, rpcUrl) });
  const offer = await api<Offer>(baseUrl, '/api/v1/offers', { method: 'POST', token: buyerToken, body: { orderData: offerOrder } });
  return { listing, offer };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { listing, offer } = await main(process.argv[2], process.argv[3]);
  console.log(`listed ${listing.ens_name} for ${listing.price_wei} wei (listing ${listing.id}, order ${listing.order_hash})`);
  console.log(`offered ${offer.offer_amount_wei} wei of WETH on ${offer.name} (offer ${offer.id}, order ${offer.order_hash})`);
}
