import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { API_VERSION } from './lib/envelope.js';

/**
 * Typed, frozen configuration read from environment variables. Every variable is listed here
 * once, with its default; a wrong value stops start-up with one line naming the variable.
 */
export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly version: string;
  readonly host: string;
  readonly port: number;
  /** HTTP worker processes (Node cluster); 1 serves from this process. */
  readonly webConcurrency: number;
  readonly logLevel: string;
  readonly dataDir: string;
  /** Set: use that PostgreSQL. Unset: start the embedded one under dataDir/pg. */
  readonly databaseUrl: string | undefined;
  readonly embeddedPgPort: number;
  readonly dbPoolMax: number;
  readonly statementTimeoutMs: number;
  /** Client-side limit on getting a database connection and on each API query (503 after it). */
  readonly dbTimeoutMs: number;
  readonly seedOnEmpty: boolean;
  readonly jwtSecret: Uint8Array;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly nonceTtlSeconds: number;
  /** Domains a SIWE message may name; empty means "the request's own host, and localhost". */
  readonly siweDomains: readonly string[];
  readonly chainId: number;
  readonly ethRpcUrl: string | undefined;
  readonly redisUrl: string | undefined;
  /** Prefix of every Redis key (cache and rate limits), so deployments can share one Redis. */
  readonly redisPrefix: string;
  readonly corsOrigins: readonly string[] | true;
  readonly trustProxy: boolean | string;
  readonly bodyLimitBytes: number;
  /** Anonymous GET answers of routes with a declared cache duration are kept that long in process. */
  readonly responseCache: boolean;
  readonly jobsEnabled: boolean;
  /** How often the job queue's upkeep runs: lost jobs (their worker died) are retried by it. */
  readonly jobsMaintenanceIntervalSeconds: number;
  readonly appUrl: string;
  /** Base of the ENS metadata service: token images are <base>/<contract>/<token id>/image. */
  readonly ensMetadataUrl: string;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** Connection, greeting and socket timeout of one SMTP delivery. */
  readonly smtpTimeoutMs: number;
  /** First retry delay of a failed mail (doubling, with jitter, up to 10 retries). */
  readonly mailRetryDelaySeconds: number;
  readonly llm: { readonly baseUrl: string | undefined; readonly apiKey: string | undefined; readonly model: string; readonly embeddingModel: string; readonly timeoutMs: number };
  readonly googleAds: {
    readonly baseUrl: string;
    readonly tokenUrl: string;
    readonly developerToken: string | undefined;
    readonly clientId: string | undefined;
    readonly clientSecret: string | undefined;
    readonly refreshToken: string | undefined;
    readonly customerId: string | undefined;
    readonly loginCustomerId: string | undefined;
    /** Time budget of one keyword lookup, token renewal and retry included. */
    readonly timeoutMs: number;
  };
  /**
   * Circuit breaker of each outside provider (model server, keyword metrics, subgraph relay):
   * after `failures` consecutive failed calls the provider is skipped for `cooldownMs`.
   */
  readonly providerBreaker: { readonly failures: number; readonly cooldownMs: number };
  readonly ensSubgraphUrl: string | undefined;
  readonly subgraphTimeoutMs: number;
  readonly referrerCode: `0x${string}`;
  readonly seaportAddress: `0x${string}`;
  readonly baseRegistrarAddress: `0x${string}`;
  readonly nameWrapperAddress: `0x${string}`;
  /** ENS registry: reverse records (primary names) are read through it. */
  readonly ensRegistryAddress: `0x${string}`;
  /** The premium auction's start, in US dollars (ENS: $100,000,000), halving daily over the premium period. */
  readonly premiumStartUsd: number;
  readonly wethAddress: `0x${string}`;
  /** Currencies accepted for offers (ERC-20) and listings (plus native ETH, the zero address). */
  readonly acceptedCurrencies: readonly `0x${string}`[];
  /** Brokered listings: the broker's fee in basis points of the price, at least `minFeeBps` (POST /brokered-listings) and at most `maxFeeBps` (every listing). */
  readonly broker: { readonly minFeeBps: number; readonly maxFeeBps: number };
  readonly gracePeriodDays: number;
  readonly premiumPeriodDays: number;
  readonly confirmations: number;
  /** ETH registrar controllers (and the referral renewal contract) whose events the chain sync reads. */
  readonly ethRegistrarControllerAddresses: readonly `0x${string}`[];
  /** Chainlink ETH/USD aggregator for the daily price table. */
  readonly chainlinkEthUsdAddress: `0x${string}`;
  /** First block the event sync reads when it has no checkpoint yet. */
  readonly syncStartBlock: number;
  /** Blocks per eth_getLogs request (halved automatically when the endpoint refuses a range). */
  readonly syncBlockRange: number;
  /** Comments one user may post: per UTC day (counted in the database) and per minute (the rate limiter). */
  readonly comments: { readonly perDay: number; readonly perMinute: number };
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use one of ${protocols.join(' ')}, got ${parsed.protocol}`);
  }
  return raw;
}

function address(env: Env, name: string, fallback: `0x${string}`): `0x${string}` {
  const raw = str(env, name) ?? fallback;
  if (!ADDRESS.test(raw)) throw new ConfigError(name, 'must be 0x followed by 40 hex characters');
  return raw.toLowerCase() as `0x${string}`;
}

function addressList(env: Env, name: string, fallback: readonly string[]): `0x${string}`[] {
  const raw = str(env, name) === undefined ? fallback : list(env, name);
  for (const a of raw) if (!ADDRESS.test(a)) throw new ConfigError(name, `has "${a}", not an address`);
  return raw.map((a) => a.toLowerCase() as `0x${string}`);
}

function list(env: Env, name: string): string[] {
  return (str(env, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** The JWT secret: from JWT_SECRET, else a random one kept in dataDir so tokens survive restarts. */
function jwtSecret(env: Env, dataDir: string): Uint8Array {
  const raw = str(env, 'JWT_SECRET');
  if (raw !== undefined) {
    if (raw.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters');
    return new TextEncoder().encode(raw);
  }
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export const MAINNET = {
  seaport: '0x0000000000000068f116a894984e2db1123eb395',
  baseRegistrar: '0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85',
  nameWrapper: '0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401',
  ensRegistry: '0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e',
  weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  /** legacy (2020), wrapped (2023), unwrapped with referrer (2025), renewal with referrer (2025) */
  ethRegistrarControllers: [
    '0x283af0b28c62c092c9727f1ee09c02ca627eb7f5',
    '0x253553366da8546fc250f225fe3d25d0c782303b',
    '0x59e16fccd424cc24e280be16e11bcd56fb0ce547',
    '0xf55575bde5953ee4272d5ce7cdd924c74d8fa81a',
  ],
  chainlinkEthUsd: '0x5f4ec3df9cbd43714fe2740f5e3616155c5b8419',
  /** deployment of the .eth base registrar (2020-01-30) */
  baseRegistrarStartBlock: 9_380_410,
} as const;

/** Our referral code when none is configured: bytes32 of the ASCII "grails". */
export const DEFAULT_REFERRER = `0x${Buffer.from('grails').toString('hex').padEnd(64, '0')}` as const;

/**
 * Each process's pool when DB_POOL_MAX is not set: 20 connections shared among the HTTP workers
 * (at least 5 each), so more workers do not mean more backends competing for the database's
 * cores. Two workers with 10 each against 20 each, the bench's list mixes at a million names,
 * 6 interleaved pairs: 1.06× req/s, p99 41–56 ms against 52–104 in every pair.
 */
const defaultPoolMax = (workers: number) => Math.max(5, Math.ceil(20 / workers));

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    throw new ConfigError('NODE_ENV', 'must be development, production or test');
  }
  const rawDataDir = str(env, 'DATA_DIR') ?? './data';
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(process.cwd(), rawDataDir);

  const referrer = str(env, 'REFERRER_CODE') ?? DEFAULT_REFERRER;
  if (!/^0x[0-9a-fA-F]{64}$/.test(referrer)) throw new ConfigError('REFERRER_CODE', 'must be 0x followed by 64 hex characters (bytes32)');

  // A production service without SMTP would quietly keep every user's mail (and its link) on disk.
  if (nodeEnv === 'production' && str(env, 'SMTP_URL') === undefined && !bool(env, 'ALLOW_FILE_MAIL', false)) {
    throw new ConfigError('SMTP_URL', 'is required in production; set ALLOW_FILE_MAIL=true to write mail to DATA_DIR/mail instead');
  }

  const cors = list(env, 'CORS_ORIGINS');
  const trustProxyRaw = str(env, 'TRUST_PROXY');
  const trustProxy = trustProxyRaw === undefined ? false : /^(true|1)$/i.test(trustProxyRaw) ? true : /^(false|0)$/i.test(trustProxyRaw) ? false : trustProxyRaw;

  const weth = address(env, 'WETH_ADDRESS', MAINNET.weth);
  const currencies = list(env, 'ACCEPTED_CURRENCIES');
  for (const c of currencies) if (!ADDRESS.test(c)) throw new ConfigError('ACCEPTED_CURRENCIES', `has "${c}", not an address`);

  const brokerMinFeeBps = int(env, 'BROKER_MIN_FEE_BPS', 100, 0, 10_000);
  const brokerMaxFeeBps = int(env, 'BROKER_MAX_FEE_BPS', 1000, 0, 10_000);
  if (brokerMaxFeeBps < brokerMinFeeBps) throw new ConfigError('BROKER_MAX_FEE_BPS', `is below BROKER_MIN_FEE_BPS (${brokerMinFeeBps})`);

  const webConcurrency = int(env, 'WEB_CONCURRENCY', 1, 1, 64);
  const config: Config = {
    env: nodeEnv as Config['env'],
    version: API_VERSION,
    host: str(env, 'HOST') ?? '0.0.0.0',
    port: int(env, 'PORT', 3000, 0, 65535),
    webConcurrency,
    logLevel: str(env, 'LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535),
    dbPoolMax: int(env, 'DB_POOL_MAX', defaultPoolMax(webConcurrency), 1, 500),
    statementTimeoutMs: int(env, 'STATEMENT_TIMEOUT_MS', 5000, 100, 600_000),
    dbTimeoutMs: int(env, 'DB_TIMEOUT_MS', 5000, 100, 600_000),
    seedOnEmpty: bool(env, 'SEED_ON_EMPTY', str(env, 'DATABASE_URL') === undefined),
    jwtSecret: jwtSecret(env, dataDir),
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 60, 7 * 86_400),
    refreshTokenTtlSeconds: int(env, 'REFRESH_TOKEN_TTL_SECONDS', 30 * 86_400, 3600, 365 * 86_400),
    nonceTtlSeconds: int(env, 'NONCE_TTL_SECONDS', 600, 300, 600),
    siweDomains: list(env, 'SIWE_DOMAINS'),
    chainId: int(env, 'CHAIN_ID', 1, 1, 2 ** 31),
    ethRpcUrl: url(env, 'ETH_RPC_URL', ['http:', 'https:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'ensm:',
    corsOrigins: cors.length === 0 || cors.includes('*') ? true : cors,
    trustProxy,
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 10 * 1024 * 1024),
    responseCache: bool(env, 'RESPONSE_CACHE', true),
    jobsEnabled: bool(env, 'JOBS_ENABLED', true),
    jobsMaintenanceIntervalSeconds: int(env, 'JOBS_MAINTENANCE_INTERVAL_SECONDS', 120, 1, 3600),
    appUrl: url(env, 'APP_URL', ['http:', 'https:']) ?? 'http://localhost:3001',
    ensMetadataUrl: (url(env, 'ENS_METADATA_URL', ['http:', 'https:']) ?? 'https://metadata.ens.domains/mainnet').replace(/\/+$/, ''),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: str(env, 'MAIL_FROM') ?? 'ENS Market <no-reply@localhost>',
    smtpTimeoutMs: int(env, 'SMTP_TIMEOUT_MS', 20_000, 100, 120_000),
    mailRetryDelaySeconds: int(env, 'MAIL_RETRY_DELAY_SECONDS', 30, 1, 3600),
    llm: {
      baseUrl: url(env, 'LLM_BASE_URL', ['http:', 'https:']),
      apiKey: str(env, 'LLM_API_KEY'),
      model: str(env, 'LLM_MODEL') ?? 'gpt-4o-mini',
      embeddingModel: str(env, 'LLM_EMBEDDING_MODEL') ?? 'text-embedding-3-small',
      timeoutMs: int(env, 'LLM_TIMEOUT_MS', 20_000, 100, 120_000),
    },
    googleAds: {
      baseUrl: url(env, 'GOOGLE_ADS_BASE_URL', ['http:', 'https:']) ?? 'https://googleads.googleapis.com/v21',
      tokenUrl: url(env, 'GOOGLE_OAUTH_TOKEN_URL', ['http:', 'https:']) ?? 'https://oauth2.googleapis.com/token',
      developerToken: str(env, 'GOOGLE_ADS_DEVELOPER_TOKEN'),
      clientId: str(env, 'GOOGLE_ADS_CLIENT_ID'),
      clientSecret: str(env, 'GOOGLE_ADS_CLIENT_SECRET'),
      refreshToken: str(env, 'GOOGLE_ADS_REFRESH_TOKEN'),
      customerId: str(env, 'GOOGLE_ADS_CUSTOMER_ID'),
      loginCustomerId: str(env, 'GOOGLE_ADS_LOGIN_CUSTOMER_ID'),
      timeoutMs: int(env, 'KEYWORD_METRICS_TIMEOUT_MS', 10_000, 100, 120_000),
    },
    providerBreaker: {
      failures: int(env, 'PROVIDER_BREAKER_FAILURES', 5, 1, 1000),
      cooldownMs: int(env, 'PROVIDER_BREAKER_COOLDOWN_MS', 30_000, 100, 3_600_000),
    },
    ensSubgraphUrl: url(env, 'ENS_SUBGRAPH_URL', ['http:', 'https:']),
    subgraphTimeoutMs: int(env, 'SUBGRAPH_TIMEOUT_MS', 10_000, 100, 120_000),
    referrerCode: referrer.toLowerCase() as `0x${string}`,
    seaportAddress: address(env, 'SEAPORT_ADDRESS', MAINNET.seaport),
    baseRegistrarAddress: address(env, 'BASE_REGISTRAR_ADDRESS', MAINNET.baseRegistrar),
    nameWrapperAddress: address(env, 'NAME_WRAPPER_ADDRESS', MAINNET.nameWrapper),
    ensRegistryAddress: address(env, 'ENS_REGISTRY_ADDRESS', MAINNET.ensRegistry),
    premiumStartUsd: int(env, 'PREMIUM_START_USD', 100_000_000, 0, 1_000_000_000_000),
    wethAddress: weth,
    acceptedCurrencies: currencies.length > 0 ? currencies.map((c) => c.toLowerCase() as `0x${string}`) : [weth, MAINNET.usdc],
    broker: { minFeeBps: brokerMinFeeBps, maxFeeBps: brokerMaxFeeBps },
    gracePeriodDays: int(env, 'GRACE_PERIOD_DAYS', 90, 0, 3650),
    premiumPeriodDays: int(env, 'PREMIUM_PERIOD_DAYS', 21, 0, 3650),
    confirmations: int(env, 'CONFIRMATIONS', 12, 0, 1000),
    ethRegistrarControllerAddresses: addressList(env, 'ETH_REGISTRAR_CONTROLLER_ADDRESSES', MAINNET.ethRegistrarControllers),
    chainlinkEthUsdAddress: address(env, 'CHAINLINK_ETH_USD_ADDRESS', MAINNET.chainlinkEthUsd),
    syncStartBlock: int(env, 'SYNC_START_BLOCK', MAINNET.baseRegistrarStartBlock, 0, Number.MAX_SAFE_INTEGER),
    syncBlockRange: int(env, 'SYNC_BLOCK_RANGE', 2000, 1, 100_000),
    comments: { perDay: int(env, 'COMMENTS_PER_DAY', 50, 1, 100_000), perMinute: int(env, 'COMMENTS_PER_MINUTE', 5, 1, 10_000) },
    ...overrides,
  };
  return Object.freeze(config);
}
