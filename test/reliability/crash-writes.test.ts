import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createSiweMessage } from 'viem/siwe';
import { createDb, createPool, type Db } from '../../src/db/client.js';
import { sha256 } from '../../src/services/tokens.js';
import { createTestDatabase } from '../helpers/app.js';
import { account, addressOf } from '../helpers/accounts.js';
import { freePort, startSmtpServer, verificationLinkIn, waitFor, type TestSmtpServer } from '../helpers/community.js';
import { createName } from '../helpers/factories.js';
import { ONE_ETH, signedListing, signedOffer } from '../helpers/marketplace.js';
import { startServer, waitReady, type ServerProcess } from './helpers/server-process.js';

/**
 * Issue 12, item 6: the real service as a child process on a database of its own, under a bounded
 * write load from WORKERS users at once (offer creations and amount updates on shared names,
 * votes, listings, e-mail changes), SIGKILLed in the middle of it and started again on the same
 * database. Every write it acknowledged (2xx) is there; every name's highest offer is its largest
 * pending offer; every verification mail still worth sending arrives, and none arrives twice but
 * one the kill cut between the mail server's acceptance and its record (at most one per running job).
 */
const WORKERS = 4;
/** Load after every worker has made each kind of write once (a cold first request takes a second here). */
const LOAD_MS = 3000;
const WARM_UP = 8;
const OFFER_NAMES = ['crash-a.eth', 'crash-b.eth', 'crash-c.eth'];
const LISTINGS_PER_WORKER = 40;
const OWNER = 9; // owns the offer names
const JWT_SECRET = 'crash-writes-secret-crash-writes-secret-0123';

interface Outcome {
  /** The last acknowledged value and, when the kill cut a request short, the value it carried. */
  acked: unknown;
  inFlight?: unknown;
}

async function signInHttp(base: string, i: number, ip: string): Promise<string> {
  const acct = account(i);
  const headers = { 'x-forwarded-for': ip, 'content-type': 'application/json' };
  const nonce = ((await (await fetch(`${base}/api/v1/auth/nonce?address=${acct.address}`, { headers })).json()) as { data: { nonce: string } }).data.nonce;
  const message = createSiweMessage({ address: acct.address, chainId: 1, domain: 'localhost', nonce, uri: 'http://localhost/login', version: '1', issuedAt: new Date() });
  const res = await fetch(`${base}/api/v1/auth/verify`, { method: 'POST', headers, body: JSON.stringify({ message, signature: await acct.signMessage({ message }) }) });
  const b = (await res.json()) as { data: { accessToken: string } };
  assert.equal(res.status, 200, JSON.stringify(b));
  return b.data.accessToken;
}

describe('crash under writes', { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ensm-crash-'));
  let database: { url: string; drop(): Promise<void> };
  let db: Db;
  let smtp: TestSmtpServer;
  const started: ServerProcess[] = [];

  const start = async () => {
    const server = startServer(await freePort(), {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      JWT_SECRET,
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      JOBS_ENABLED: 'true',
      SMTP_URL: smtp.url,
      SMTP_TIMEOUT_MS: '1000',
      MAIL_RETRY_DELAY_SECONDS: '1',
      JOBS_MAINTENANCE_INTERVAL_SECONDS: '1',
    });
    started.push(server);
    await waitReady(server, 60_000);
    return server;
  };

  before(async () => {
    smtp = await startSmtpServer();
    database = await createTestDatabase();
    db = createDb(createPool(database.url, { max: 4, statementTimeoutMs: 10_000, timeoutMs: 10_000 }));
    for (const name of OFFER_NAMES) await createName(db, name, { owner: addressOf(OWNER) });
    for (let w = 1; w <= WORKERS; w++) {
      for (let k = 0; k < LISTINGS_PER_WORKER; k++) await createName(db, `crash-w${w}-l${k}.eth`, { owner: addressOf(w) });
    }
  });
  after(async () => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(started.map((s) => s.exited));
    await db?.destroy();
    await database?.drop();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write, the highest-offer summaries and each mail once across a SIGKILL', async () => {
    const t0 = performance.now();
    const phases: Record<string, number> = {};
    const lap = (name: string) => { phases[name] = Math.round(performance.now() - t0); };
    const first = await start();
    lap('started');
    const base = `http://127.0.0.1:${first.port}`;
    const tokens = await Promise.all(Array.from({ length: WORKERS }, (_, i) => signInHttp(base, i + 1, `10.99.${i}.1`)));

    const offers = new Map<number, Outcome>(); // offer id → amount
    const votes = new Map<string, Outcome>(); // "user:name" → vote
    const listings: Array<{ id: number; price: string }> = [];
    const emails = new Map<number, Outcome>(); // worker → e-mail address
    const counts = { offers: 0, offerUpdates: 0, votes: 0, listings: 0, emails: 0, refused: 0, cut: 0 };
    let killed = false;
    let inFlight = 0;
    let warm = 0;
    let allWarm: () => void = () => {};
    const warmedUp = new Promise<void>((resolve) => { allWarm = resolve; });

    const worker = async (w: number) => {
      const auth = { authorization: `Bearer ${tokens[w - 1]}`, 'content-type': 'application/json' };
      const mine: number[] = [];
      let n = 0;
      let listed = 0;
      while (!killed) {
        n += 1;
        const headers = { ...auth, 'x-forwarded-for': `10.${w}.${(n >> 8) & 255}.${n & 255}` };
        const kind = n % 4;
        let request: { method: string; url: string; body: unknown };
        let record: (data: { id?: number }) => void;
        let pending: () => void = () => {};
        if (kind === 0 && mine.length < 2) {
          const amount = BigInt(w * 1000 + n) * (ONE_ETH / 1000n);
          const signed = await signedOffer(w, OFFER_NAMES[(w + n) % OFFER_NAMES.length]!, amount);
          request = { method: 'POST', url: '/api/v1/offers', body: { orderData: signed.orderData } };
          record = (data) => { mine.push(data.id!); offers.set(data.id!, { acked: amount.toString() }); counts.offers += 1; };
        } else if (kind === 0) {
          const id = mine[n % mine.length]!;
          const amount = (BigInt(w * 1000 + n) * (ONE_ETH / 1000n)).toString();
          request = { method: 'PUT', url: `/api/v1/offers/${id}`, body: { offerAmountWei: amount } };
          pending = () => { offers.get(id)!.inFlight = amount; };
          record = () => { offers.set(id, { acked: amount }); counts.offerUpdates += 1; };
        } else if (kind === 1) {
          const name = OFFER_NAMES[n % OFFER_NAMES.length]!;
          const vote = n % 3 === 0 ? -1 : 1;
          const key = `${w}:${name}`;
          request = { method: 'POST', url: '/api/v1/votes', body: { ensName: name, vote } };
          pending = () => { votes.set(key, { acked: votes.get(key)?.acked ?? null, inFlight: vote }); };
          record = () => { votes.set(key, { acked: vote }); counts.votes += 1; };
        } else if (kind === 2 && listed < LISTINGS_PER_WORKER) {
          const price = (BigInt(w) * ONE_ETH + BigInt(n)).toString();
          const signed = await signedListing(w, `crash-w${w}-l${listed++}.eth`, BigInt(price));
          request = { method: 'POST', url: '/api/v1/listings', body: { orderData: signed.orderData } };
          record = (data) => { listings.push({ id: data.id!, price }); counts.listings += 1; };
        } else {
          const email = `user${w}-${n}@example.test`;
          request = { method: 'PUT', url: '/api/v1/users/me/email', body: { email } };
          pending = () => { emails.set(w, { acked: emails.get(w)?.acked ?? null, inFlight: email }); };
          record = () => { emails.set(w, { acked: email }); counts.emails += 1; };
        }
        if (killed) break;
        pending();
        let res: Response;
        inFlight += 1;
        try {
          res = await fetch(`${base}${request.url}`, { method: request.method, headers, body: JSON.stringify(request.body) });
        } catch {
          counts.cut += 1; // the kill cut it short: not acknowledged, may or may not have committed
          break;
        } finally {
          inFlight -= 1;
        }
        const b = (await res.json().catch(() => ({}))) as { data?: { id?: number } };
        if (res.status >= 200 && res.status < 300) {
          record(b.data ?? {});
        } else {
          counts.refused += 1;
          assert.ok(res.status < 500, `${request.method} ${request.url}: ${res.status} ${JSON.stringify(b)}`);
        }
        if (n === WARM_UP && ++warm === WORKERS) allWarm();
      }
    };

    const load = Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i + 1)));
    await Promise.race([warmedUp, load]);
    await new Promise((r) => setTimeout(r, LOAD_MS));
    // the kill lands while requests are under way (between two requests of every worker it would cut none)
    while (inFlight === 0) await new Promise((r) => setImmediate(r));
    killed = true;
    first.child.kill('SIGKILL');
    await first.exited;
    await load;
    for (const [what, count] of Object.entries(counts)) if (what !== 'refused') assert.ok(count > 0, `some ${what} were acknowledged, some cut short: ${JSON.stringify(counts)}`);

    lap('killed');
    // Mails the mail server had accepted, and mail jobs under way, when the process died: only such a
    // job can send its mail again (accepted, killed before the token recorded it; see the handler).
    const acceptedAtKill = smtp.received.length;
    const runningAtKill = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail.verify-email' AND state = 'active'`.execute(db)).rows[0]!.n;
    await start();
    lap('restarted');

    // Every acknowledged write is there (or the one after it that the kill cut short).
    const offerRows = await db.selectFrom('offers').select(['id', 'offer_amount_wei', 'status']).where('id', 'in', [...offers.keys()]).execute();
    assert.equal(offerRows.length, offers.size, 'every acknowledged offer exists');
    for (const row of offerRows) {
      const o = offers.get(row.id)!;
      assert.equal(row.status, 'pending');
      assert.ok([o.acked, o.inFlight].includes(row.offer_amount_wei), `offer ${row.id}: ${row.offer_amount_wei}, acknowledged ${String(o.acked)}`);
    }
    const listingRows = await db.selectFrom('listings').select(['id', 'price_wei', 'status']).where('id', 'in', listings.map((l) => l.id)).execute();
    assert.equal(listingRows.length, listings.length, 'every acknowledged listing exists');
    for (const l of listings) {
      const row = listingRows.find((r) => r.id === l.id)!;
      assert.deepEqual([row.status, row.price_wei], ['active', l.price]);
    }
    const voteRows = await db.selectFrom('votes').innerJoin('ens_names', 'ens_names.id', 'votes.ens_name_id').innerJoin('users', 'users.id', 'votes.user_id')
      .select(['users.address', 'ens_names.name', 'votes.vote']).execute();
    for (const [key, v] of votes) {
      const [w, name] = key.split(':') as [string, string];
      const row = voteRows.find((r) => r.address === addressOf(Number(w)) && r.name === name);
      assert.ok([v.acked, v.inFlight].includes(row?.vote ?? null), `vote ${key}: ${String(row?.vote)}, acknowledged ${String(v.acked)}`);
    }
    for (const [w, e] of emails) {
      const user = await db.selectFrom('users').select('email').where('address', '=', addressOf(w)).executeTakeFirstOrThrow();
      assert.ok([e.acked, e.inFlight].includes(user.email), `user ${w}: ${String(user.email)}, acknowledged ${String(e.acked)}`);
    }

    // Every name's highest offer summary is its largest pending offer.
    const mismatched = await sql<{ name: string; summary: string | null; largest: string | null }>`
      SELECT n.name, n.highest_offer_wei::text AS summary, max(o.offer_amount_wei)::text AS largest
      FROM ens_names n LEFT JOIN offers o ON o.ens_name_id = n.id AND o.status = 'pending'
      WHERE n.name = ANY(${OFFER_NAMES})
      GROUP BY n.id HAVING n.highest_offer_wei IS DISTINCT FROM max(o.offer_amount_wei)`.execute(db);
    assert.deepEqual(mismatched.rows, [], 'highest offer summaries');

    // Every mail still worth sending arrives once, those cut short by the kill included; none twice.
    const live = await db.selectFrom('email_verification_tokens').select(['token_hash', 'email']).where('used_at', 'is', null).execute();
    assert.equal(live.length, emails.size, 'one live token per user who changed an e-mail');
    const hex = (hash: Uint8Array) => Buffer.from(hash).toString('hex');
    const delivered = () => smtp.received.map((m) => hex(sha256(verificationLinkIn(m.raw).token)));
    await waitFor('every live token mailed', () => live.every((t) => delivered().includes(hex(t.token_hash))), 20_000);
    await waitFor('no mail job left to run', async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail.verify-email' AND state NOT IN ('completed', 'failed', 'cancelled')`.execute(db);
      return rows[0]!.n === 0;
    }, 20_000);
    lap('mails drained');
    const hashes = delivered();
    const times = new Map<string, number>();
    for (const h of hashes) times.set(h, (times.get(h) ?? 0) + 1);
    const twice = [...times].filter(([, n]) => n > 1).map(([h, n]) => ({ h, n, beforeKill: hashes.slice(0, acceptedAtKill).includes(h) }));
    // none twice, except at most once per job the kill cut between the mail server's acceptance and its record
    assert.ok(twice.every((d) => d.n === 2 && d.beforeKill) && twice.length <= runningAtKill,
      `no mail sent twice (${hashes.length} delivered, ${runningAtKill} mail jobs running at the kill): ${JSON.stringify(twice)}`);
    console.log(`crash-writes: ${JSON.stringify(counts)}, ${hashes.length} mails; ms since start: ${JSON.stringify(phases)}`);
  });
});
