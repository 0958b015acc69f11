import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, body, show, type TestContext } from '../helpers/app.js';
import { addressOf } from '../helpers/accounts.js';
import { createName } from '../helpers/factories.js';
import { createOwnedName } from '../helpers/standings.js';
import { parseClubList } from '../../src/lib/clubs.js';
import { importClub, recountClubs, syncClubsForNames } from '../../src/services/clubs.service.js';
import { leaderboardRefreshJob } from '../../src/jobs/handlers/leaderboard-refresh.job.js';
import { clubsRefreshJob } from '../../src/jobs/handlers/clubs-refresh.job.js';
import { scriptArgs } from '../helpers/scripts.js';

/** Runs `npm run clubs:import` (the script itself) against this test's database. */
function runImport(databaseUrl: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ensm-clubs-import-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs('src/scripts/clubs-import.ts'), ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

describe('clubs', () => {
  let t: TestContext;
  let dir: string;
  const clubsOfName = async (name: string) =>
    (await t.container.db.selectFrom('ens_names').select('clubs').where('name', '=', name).executeTakeFirstOrThrow()).clubs;
  const listClubs = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/clubs' });
    assert.equal(res.statusCode, 200, show(res));
    return body(res).data.clubs as { name: string; description: string; source: string; member_count: number }[];
  };
  const count = async (club: string) => (await listClubs()).find((c) => c.name === club)?.member_count;

  before(async () => {
    t = await createTestApp();
    dir = mkdtempSync(path.join(tmpdir(), 'ensm-clubs-'));
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the built-in clubs in catalogue order with member counts', async () => {
    const clubs = await listClubs();
    assert.deepEqual(clubs.map((c) => c.name), ['999', '10k', '100k', '3-digit-palindromes', '4-digit-palindromes', '3-letters']);
    assert.ok(clubs.every((c) => c.source === 'rule' && c.member_count === 0 && c.description.length > 0));
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/clubs' });
    assert.equal(res.headers['cache-control'], 'public, max-age=300', 'the original marketplace caches the club list 5 minutes');
  });

  it('computes a written name\'s clubs and the member counts in the writer\'s transaction', async () => {
    const db = t.container.db;
    await db.transaction().execute(async (trx) => {
      const ids = [];
      for (const name of ['101.eth', '0420.eth', '12321.eth', 'zzz.eth', 'plain-name.eth']) ids.push((await createName(trx, name, { clubs: [] })).id);
      assert.equal(await syncClubsForNames(trx, ids), 4);
    });
    assert.deepEqual(await clubsOfName('101.eth'), ['999', '3-digit-palindromes']);
    assert.deepEqual(await clubsOfName('0420.eth'), ['10k']);
    assert.deepEqual(await clubsOfName('12321.eth'), ['100k']);
    assert.deepEqual(await clubsOfName('zzz.eth'), ['3-letters']);
    assert.deepEqual(await clubsOfName('plain-name.eth'), []);
    assert.equal(await count('999'), 1);
    assert.equal(await count('3-digit-palindromes'), 1);
    assert.equal(await count('3-letters'), 1);

    // Syncing again changes nothing and moves no count.
    const five = await createName(db, '555.eth', { clubs: [] });
    assert.equal(await syncClubsForNames(db, [five.id]), 1);
    assert.equal(await syncClubsForNames(db, [five.id]), 0);
    assert.deepEqual(await clubsOfName('555.eth'), ['999', '3-digit-palindromes']);
    assert.equal(await count('999'), 2);
    assert.equal(await count('3-digit-palindromes'), 2);
    assert.equal(await count('3-letters'), 1);
  });

  it('re-checks every count in the scheduled refresh', async () => {
    const db = t.container.db;
    await createName(db, '999.eth', { clubs: ['999', '3-digit-palindromes'] }); // written without a sync
    await clubsRefreshJob.handle({}, t.container);
    assert.equal(await count('999'), 3);
    await db.updateTable('clubs').set({ member_count: 42 }).where('name', '=', '10k').execute();
    await recountClubs(db);
    assert.equal(await count('10k'), 1);
  });

  it('reads club lists as names, labels or the first CSV column', () => {
    assert.deepEqual(parseClubList('name,rank\n"Vitalik.eth",1\nnick.eth , 2\n\n# comment\nbob\r\n'), ['Vitalik.eth', 'nick.eth', 'bob']);
    assert.deepEqual(parseClubList('label\n'), []);
  });

  it('imports a CSV club with npm run clubs:import, and a new file replaces the list', async () => {
    const db = t.container.db;
    const owner = addressOf(1);
    await createOwnedName(db, 'apple.eth', owner);
    await createOwnedName(db, 'banana.eth', owner);
    await createOwnedName(db, 'abc.eth', addressOf(2));
    await createName(db, 'cherry.eth', { owner: addressOf(2), expiryDate: new Date(Date.now() - 200 * 86_400_000) });

    const file = path.join(dir, 'fruits.csv');
    writeFileSync(file, 'name,note\napple.eth,first\nBanana,second\ncherry.eth,expired\nnot a name!,bad\ndurian.eth,not loaded yet\n');
    const first = await runImport(t.databaseUrl, [file, 'fruits', '--description', 'Fruit names']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { club: 'fruits', labels: 4, added: 4, removed: 0, namesUpdated: 3, invalid: 1 });
    assert.match(first.stderr, /skipped "not a name!"/);

    assert.deepEqual(await clubsOfName('apple.eth'), ['fruits']);
    assert.deepEqual(await clubsOfName('banana.eth'), ['fruits']);
    const fruits = (await listClubs()).find((c) => c.name === 'fruits');
    assert.deepEqual(
      fruits && { name: fruits.name, description: fruits.description, source: fruits.source, member_count: fruits.member_count },
      { name: 'fruits', description: 'Fruit names', source: 'csv', member_count: 3 },
    );
    assert.equal((await listClubs()).at(-1)?.name, 'fruits', 'CSV clubs come after the built-in ones');

    // A name loaded later joins the club it is listed in.
    const durian = await createName(db, 'durian.eth', { owner: addressOf(3) });
    await syncClubsForNames(db, [durian.id]);
    assert.deepEqual(await clubsOfName('durian.eth'), ['fruits']);
    assert.equal(await count('fruits'), 4);

    // The leaderboard filter sees CSV clubs of active names only.
    await leaderboardRefreshJob.handle({}, t.container);
    const lb = await t.app.inject({ method: 'GET', url: '/api/v1/leaderboard?clubs[]=fruits' });
    assert.deepEqual(body(lb).data.users.map((u: any) => u.address).sort(), [owner, addressOf(3)].sort(), show(lb));

    // Same file again: nothing changes. A shorter list: apple leaves; abc (also 3-letters) joins.
    const again = await importClub(db, 'fruits', parseClubList(readFileSync(file, 'utf8')));
    assert.deepEqual({ ...again, invalid: again.invalid.length }, { club: 'fruits', labels: 4, added: 0, removed: 0, namesUpdated: 0, invalid: 1 });
    writeFileSync(file, 'banana\ncherry\ndurian\nabc\n');
    const second = await runImport(t.databaseUrl, [file, 'fruits']);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(JSON.parse(second.stdout), { club: 'fruits', labels: 4, added: 1, removed: 1, namesUpdated: 2, invalid: 0 });
    assert.deepEqual(await clubsOfName('apple.eth'), []);
    assert.deepEqual(await clubsOfName('abc.eth'), ['3-letters', 'fruits']);
    assert.equal(await count('fruits'), 4);
    assert.equal((await listClubs()).find((c) => c.name === 'fruits')?.description, 'Fruit names', 'kept when not given');
  });

  it('refuses to import over a built-in club or without arguments', async () => {
    const file = path.join(dir, 'digits.csv');
    writeFileSync(file, '123\n');
    const builtIn = await runImport(t.databaseUrl, [file, '999']);
    assert.equal(builtIn.code, 1);
    assert.match(builtIn.stderr, /CONFLICT/);
    const usage = await runImport(t.databaseUrl, [file]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage/);
    assert.deepEqual(await clubsOfName('101.eth'), ['999', '3-digit-palindromes']);
  });
});
