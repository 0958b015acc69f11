/**
 * `npm run bench`: serves the app on a real port over the configured database and measures the
 * hot endpoints with autocannon, each as a ratio of the /health baseline measured in the same run
 * (the machine is shared and noisy: compare ratios, not absolute numbers). Also reports memory.
 *
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=16 DATABASE_URL=postgres://…/ensm_big npm run bench
 *
 * With no DATABASE_URL it uses the embedded PostgreSQL (seeding demo data if empty).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { seedIfEmpty } from '../src/seed/seed-if-empty.js';

interface Case {
  name: string;
  path: string;
  /** The smallest acceptable throughput, as a share of the /health baseline. */
  target: number;
}

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

const config = loadConfig(process.env, { logLevel: 'warn', jobsEnabled: false, port: 0 });
const container = await createContainer(config);
await seedIfEmpty(container);
const app = await buildApp(container);
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const { db } = container;
const owner = await db.selectFrom('ens_names').select('owner_address').where('owner_address', 'is not', null).orderBy('id').limit(1).executeTakeFirst();
const someName = await db.selectFrom('ens_names').select('name').orderBy('id', 'desc').limit(1).executeTakeFirst();
const address = owner?.owner_address ?? '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const name = someName?.name ?? 'apple.eth';

const cases: Case[] = [
  { name: 'health (baseline)', path: '/health', target: 1 },
  { name: 'readiness', path: '/health/ready', target: 0.1 },
  { name: 'listings, newest', path: '/api/v1/listings', target: 0.05 },
  { name: 'listings, by price with range', path: '/api/v1/listings?sort=price&order=asc&minPrice=1000000000000000&maxPrice=100000000000000000000', target: 0.05 },
  { name: 'listings of a seller', path: `/api/v1/listings?seller=${address}&status=active`, target: 0.05 },
  { name: 'offers of a buyer', path: `/api/v1/offers?buyer=${address}`, target: 0.05 },
  { name: 'holder leaderboard (cached 12 h)', path: '/api/v1/leaderboard?sortBy=names_owned', target: 0.3 },
  { name: 'holder leaderboard, clubs filter', path: '/api/v1/leaderboard?clubs[]=999&sortBy=sales_volume', target: 0.3 },
  { name: 'awards leaderboard (cached 5 min)', path: '/api/v1/awards-leaderboard', target: 0.3 },
  { name: 'vote leaderboard', path: '/api/v1/votes/leaderboard', target: 0.05 },
  { name: 'trending votes 7d', path: '/api/v1/trending/votes?period=7d', target: 0.03 },
  { name: 'legends (cached 15 s)', path: `/api/v1/legends/${address}`, target: 0.3 },
  { name: 'search, prefix', path: '/api/v1/search?q=app', target: 0.03 },
  { name: 'search, filters', path: '/api/v1/search?filters[clubs][]=10k&filters[listed]=true&sortBy=price&sortOrder=asc', target: 0.03 },
  { name: 'name page', path: `/api/v1/names/${encodeURIComponent(name)}`, target: 0.05 },
  { name: 'votes of a name', path: `/api/v1/votes/${encodeURIComponent(name)}`, target: 0.05 },
];

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** Load comes from a separate process, so the generator does not steal the server's CPU time. */
async function measure(path: string) {
  const { stdout } = await promisify(execFile)(process.execPath, [AUTOCANNON, '--json', '-c', String(connections), '-d', String(seconds), base + path], { maxBuffer: 16 * 2 ** 20 });
  const result = JSON.parse(stdout) as autocannon.Result;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

const rows: string[] = [];
let baseline = 0;
let failed = 0;
const rssBefore = process.memoryUsage().rss;
for (const c of cases) {
  const probe = await fetch(base + c.path);
  const probeBody = await probe.text();
  if (probe.status === 404 && probeBody.includes('"message":"Route ')) {
    rows.push(`| ${c.name} | route not served | | | | |`);
    continue;
  }
  const m = await measure(c.path);
  if (c.target === 1) baseline = m.rps;
  const ratio = baseline > 0 ? m.rps / baseline : 0;
  const ok = ratio >= c.target && m.non2xx === 0 && m.errors === 0;
  if (!ok) failed += 1;
  rows.push(`| ${c.name} | ${Math.round(m.rps)} | ${ratio.toFixed(3)} | ≥ ${c.target} | ${m.p50} / ${m.p99} | ${ok ? 'ok' : `MISSED${m.non2xx ? ` (${m.non2xx} non-2xx)` : ''}`} |`);
}
const rssAfter = process.memoryUsage().rss;

const names = await db.selectFrom('ens_names').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
console.log(`\n${names?.n ?? 0} names, ${connections} connections, ${seconds} s per case\n`);
console.log('| case | req/s | ratio to /health | target | p50 / p99 ms | result |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\nmemory: RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${(rssAfter / 2 ** 20).toFixed(0)} MiB after the run; heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);

await app.close();
await container.close();
process.exit(failed > 0 ? 1 : 0);
