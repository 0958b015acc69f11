import { createHash } from 'node:crypto';
import { pgSocket } from './pg-socket.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Kysely, Migrator, PostgresDialect, sql, type PostgresCursor, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { parseTimestamptz, TIMESTAMPTZ_OID } from './timestamps.js';

export type Db = Kysely<Database>;
/** Anything that runs queries: the database or a transaction of it. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** `trx` as the transaction it must be (writers that take transaction-scoped locks); throws otherwise. */
export function transactionOf(trx: Executor): Transaction<Database> {
  if (!trx.isTransaction) throw new Error('expected to run inside a transaction');
  return trx as Transaction<Database>;
}

const INT8_OID = 20;

/**
 * int8 ids and counts as numbers (they stay far below 2^53); numeric (wei) stays a string;
 * timestamptz by position (timestamps.ts), the same Dates as pg's parser.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    if (oid === TIMESTAMPTZ_OID && format !== 'binary') return parseTimestamptz;
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PoolOptions {
  max?: number;
  statementTimeoutMs?: number;
  applicationName?: string;
  /**
   * Client-side limit on getting a connection and on each query through Kysely (0: none): a
   * frozen or unreachable server fails a request after this long instead of holding it.
   */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;

export function createPool(connectionString: string, options: PoolOptions = {}): pg.Pool {
  // Prepared statements (see `prepared`) are planned per execution with their actual values, and
  // never JIT-compiled: compiling costs 10–100 ms, more than any of our statements runs, and a
  // pessimistic estimate (a subquery per row of a range the planner thinks large) would pay it.
  // Nor do they start parallel workers: starting two cost 40 ms (a club's all-time sales, 4 ms of
  // work, took 50 ms on every request) while the other requests' backends want those cores anyway.
  // Ours go first and any start-up options the URL gives after them, so an operator's own win
  // (pg would let the URL's replace ours).
  const url = new URL(connectionString);
  const startup = ['-c plan_cache_mode=force_custom_plan -c jit=off -c max_parallel_workers_per_gather=0', url.searchParams.get('options')].filter(Boolean).join(' ');
  url.searchParams.delete('options');
  const pool = new pg.Pool({
    connectionString: url.toString(),
    options: startup,
    max: options.max ?? 20,
    types,
    statement_timeout: options.statementTimeoutMs,
    application_name: options.applicationName ?? 'ens-market',
    connectionTimeoutMillis: options.timeoutMs || DEFAULT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    stream: pgSocket,
  });
  // Queries are bounded by the client only where the server bounds them too; a pool for long
  // statements (the seed's) gets its statement timeout plus the client's margin.
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const statementMs = options.statementTimeoutMs ?? 0;
  timeouts.set(pool, statementMs <= 0 || timeoutMs <= 0 ? 0 : statementMs <= timeoutMs ? timeoutMs : statementMs + timeoutMs);
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

const timeouts = new WeakMap<pg.Pool, number>();

/** A query abandoned by the client-side timeout; the database counts as unavailable. */
export class DatabaseTimeoutError extends Error {
  override name = 'DatabaseTimeoutError';
  readonly code = 'ENSM_DB_TIMEOUT';
}

/** The settings a pool was made with (pg keeps them, typed only on its own side), start-up `options` included. */
const optionsOf = (pool: pg.Pool) => (pool as unknown as { options: pg.PoolConfig & { options?: string } }).options;

/**
 * The pool for statements marked GENERIC_PLAN, made from `pool` at its first use: the same
 * connection settings, started in `force_generic_plan` (after the URL's options: a marked
 * statement asks for a generic plan whatever the operator's default), half as many connections.
 */
function genericSibling(pool: pg.Pool): pg.Pool {
  const options = optionsOf(pool);
  const startup = [options.options, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' ');
  const sibling = new pg.Pool({ ...options, options: startup, max: Math.ceil((options.max ?? 10) / 2) });
  sibling.on('error', () => {});
  timeouts.set(sibling, timeouts.get(pool) ?? 0);
  return sibling;
}

/**
 * Kysely's view of the pool, with the client-side query timeout. A checkout takes its connection
 * at its first statement, from the pool of that statement's plan mode (see GENERIC_PLAN): most
 * requests then run in their connection's own mode, with no SET. A connection whose query timed
 * out is broken (its answer may still come): later queries on it fail at once and it is destroyed
 * on release. A checkout that raises its own statement_timeout (jobs, migrations, the seed) is
 * trusted to need longer and runs without the client-side timeout.
 */
function timedPool(pool: pg.Pool): PostgresPool {
  const timeoutMs = timeouts.get(pool) ?? 0;
  let generic: pg.Pool | undefined;
  const toSession = `SET plan_cache_mode = ${sessionModeOf(optionsOf(pool).options)}`;
  return {
    end: async () => {
      await Promise.all([pool.end(), generic?.end()]);
    },
    async connect(): Promise<PostgresPoolClient> {
      let checkout: Promise<pg.PoolClient> | undefined;
      let client: pg.PoolClient | undefined;
      let broken = false;
      let limit = timeoutMs;
      const clientFor = (text: string) => checkout ??= (() => {
        const marked = MARKED_GENERIC.test(text);
        const from = marked ? (generic ??= genericSibling(pool)) : pool;
        return from.connect().then((c) => {
          if (marked) genericHomes.set(c, toSession);
          return (client = c);
        });
      })();
      function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
      function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
      function query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
        // (createDb gives Kysely no cursor class, so it never streams)
        if (typeof sqlOrCursor !== 'string') throw new Error('streaming queries are not configured');
        return clientFor(sqlOrCursor).then((c) => run<R>(c, sqlOrCursor, parameters as unknown[]));
      }
      function run<R>(c: pg.PoolClient, text: string, parameters: unknown[]): Promise<PostgresQueryResult<R>> {
        if (broken) return Promise.reject(new DatabaseTimeoutError('the database did not answer an earlier query on this connection'));
        if (/^\s*set\s+(local\s+)?statement_timeout/i.test(text)) limit = 0;
        const statement = prepared(c, text, parameters);
        const switching = planModeSwitch(c, text);
        const running = ((switching ? switching.then(() => c.query(statement)) : c.query(statement)) as unknown as Promise<PostgresQueryResult<R>>)
          .catch((err: unknown) => {
            // A table changed under a statement this connection prepared (a migration by another
            // process): the connection is dropped on release, its successor prepares afresh.
            if ((err as { code?: unknown }).code === '0A000') broken = true;
            throw err;
          });
        if (limit <= 0) return running;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => {
            broken = true;
            running.catch(() => {}); // its late answer or error goes nowhere
            reject(new DatabaseTimeoutError(`the database did not answer within ${limit} ms`));
          }, limit);
        });
        return Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
      }
      return {
        query,
        release: () => {
          if (client) client.release(broken);
          else checkout?.then((c) => c.release(broken), () => {});
        },
      };
    },
  };
}

/**
 * The mark of a statement whose best plan does not depend on its values (lookups by primary or
 * unique key, or by a list of them): this comment right after SELECT, in raw SQL, or a Kysely
 * select's `.modifyFront(GENERIC_PLAN)`. Such a statement runs with `plan_cache_mode =
 * force_generic_plan`, so each connection plans it once instead of on every execution (see
 * `prepared`): planning was 90 % of a name page's database time at a million names (0.2–0.6 ms per
 * statement, on tables with many indexes, against 0.02–0.05 ms of execution). A statement whose
 * plan depends on its values (a range, a skewed status, a search) must not carry the mark.
 */
export const GENERIC_PLAN = sql.raw('/* generic plan */');
/** The mark at the head of the statement (Kysely puts a select's front modifiers after DISTINCT ON). */
const MARKED_GENERIC = /^\s*select\s+(distinct\s+on\s*\([^)]*\)\s*)?\/\* generic plan \*\//i;

/**
 * Each connection's plan mode as last set: `generic` after a marked statement, `session` (the
 * mode of the main pool's connections: force_custom_plan unless the URL's options say otherwise)
 * after an unmarked one; none for a new connection (in its pool's mode); `unknown` while a SET runs
 * or after one failed. BEGIN and SAVEPOINT are unmarked, so they run in the session mode, and a
 * rollback, which undoes every SET made since them, leaves the connection in it.
 */
const planModes = new WeakMap<pg.PoolClient, 'generic' | 'session' | 'unknown'>();
/** A connection of the generic pool, and the SET that puts it in the session mode. */
const genericHomes = new WeakMap<pg.PoolClient, string>();

/** The session mode the main pool's start-up options give (the last setting of it wins). */
function sessionModeOf(startup: string | undefined): string {
  const settings = [...(startup ?? '').matchAll(/plan_cache_mode\s*=\s*(\w+)/g)];
  return settings.at(-1)?.[1] ?? 'force_custom_plan';
}

/** The SET that puts `client` in the plan mode `text` needs when it is not in it; else undefined. */
function planModeSwitch(client: pg.PoolClient, text: string): Promise<unknown> | undefined {
  const toSession = genericHomes.get(client);
  const home = toSession === undefined ? 'session' : 'generic';
  const current = planModes.get(client) ?? home;
  if (/^\s*rollback\b/i.test(text)) {
    if (current !== 'unknown') planModes.set(client, 'session');
    return undefined;
  }
  const wanted = MARKED_GENERIC.test(text) ? 'generic' : 'session';
  if (current === wanted) return undefined;
  planModes.set(client, 'unknown');
  const set = wanted === home ? 'RESET plan_cache_mode' : wanted === 'generic' ? 'SET plan_cache_mode = force_generic_plan' : toSession!;
  return client.query(set).then(() => planModes.set(client, wanted));
}

/** Distinct statements one connection prepares at most; later new ones run unnamed. */
const PREPARED_PER_CONNECTION = 500;
const preparedBy = new WeakMap<pg.PoolClient, Set<string>>();
const names = new Map<string, string>();

/**
 * The query as a named (prepared) statement: PostgreSQL parses and analyses each distinct
 * parameterized text once per connection instead of on every request, which costs more than
 * running most of our indexed queries. Plans are still made per execution with the actual values
 * (`plan_cache_mode = force_custom_plan`, set on every connection by createPool), so a skewed
 * value never gets a generic plan; a statement marked GENERIC_PLAN is planned once instead. Texts
 * without parameters (multi-statement scripts, SET, BEGIN) stay unnamed.
 */
function prepared(client: pg.PoolClient, text: string, values: unknown[]): pg.QueryConfig {
  if (values.length === 0) return { text, values };
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= 10_000) names.clear();
    name = `k${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  let mine = preparedBy.get(client);
  if (!mine) preparedBy.set(client, (mine = new Set()));
  if (!mine.has(name)) {
    if (mine.size >= PREPARED_PER_CONNECTION) return { text, values };
    mine.add(name);
  }
  return { name, text, values };
}

export function createDb(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: timedPool(pool) }) });
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENSM_DB_TIMEOUT']);
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

/**
 * True when an error says the database cannot be reached or is going away, rather than that a
 * query was wrong: connection errors, client-side timeouts, PostgreSQL's connection exceptions
 * (08…), shutdown and recovery (57P01–57P03) and too many connections (53300).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08|^57P0[123]$|^53300$/.test(code))) return true;
  return UNAVAILABLE_MESSAGES.test(err.message);
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies every pending migration (each in its own transaction, serialised by Kysely's lock).
 * A migration that rewrites a table names it in `vacuumAfter`: a rewritten table has no
 * visibility map, so its index-only scans read the heap until it is vacuumed (a listings page
 * went from 0.5 to 8 ms of database time), and VACUUM cannot run inside the migration's
 * transaction: it runs here, once the migrations that asked for it are committed.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const provider = new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR });
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${reason}`);
  }
  const applied = (results ?? []).map((r) => r.migrationName);
  const modules = await provider.getMigrations();
  const tables = new Set(applied.flatMap((name) => (modules[name] as { vacuumAfter?: string[] } | undefined)?.vacuumAfter ?? []));
  if (tables.size > 0) {
    await db.connection().execute(async (c) => {
      await sql`SET statement_timeout = 0`.execute(c);
      await sql`VACUUM (ANALYZE) ${sql.join([...tables].map((t) => sql.table(t)))}`.execute(c);
      await sql`RESET statement_timeout`.execute(c);
    });
  }
  return applied;
}
