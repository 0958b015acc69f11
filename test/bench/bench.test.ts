// test: self-contained (what it checks, the bench script's report, is the same whichever PostgreSQL the run uses)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../helpers/app.js';
import { scriptArgs } from '../helpers/scripts.js';

/**
 * `npm run bench` at a small size, as a check that it runs and reports every endpoint with no
 * failed request; no speed is asserted here (the machine is shared: speed is read in the bench).
 */
describe('npm run bench (--names 5000 --duration 2)', { timeout: 280_000 }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'ensm-bench-')), 'results.md');
  let code: number | null;
  let output = '';
  before(async () => {
    database = await createTestDatabase();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|TEST_|NODE_TEST|NODE_ENV)/.test(k)));
    const child = spawn(process.execPath, [...scriptArgs('bench/run.ts'), '--names', '5000', '--duration', '2', '--warmup', '0', '--workers', '1', '--connections', '8', '--out', out], {
      env: { ...clean, DATABASE_URL: database.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    code = await new Promise((resolve) => child.on('exit', resolve));
  });
  after(async () => { await database?.drop(); });

  it('exits 0 and writes one row per endpoint with its figures, the /health beside it, targets and no failed request', () => {
    assert.equal(code, 0, output.slice(-3000));
    const results = readFileSync(out, 'utf8');
    const rows = results.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| endpoint'));
    const measured = rows.filter((r) => !r.startsWith('| bare'));
    assert.ok(measured.length >= 20, results);
    for (const row of measured) {
      const [, name, mix, rps, beside, ratio, target, , p99, errors, result] = row.split('|').map((c) => c.trim());
      // Every path was asked once before the timed run (so `errors` covers it); a busy machine may
      // still leave a 2-second run without a finished request, which the row reports as MISSED.
      assert.ok(name && Number(mix) >= 1 && Number(rps) >= 0 && Number.isFinite(Number(ratio)) && (name === 'GET /health' ? beside === '' : Number(beside) > 0) && target?.startsWith('≥') && Number(p99) >= 0, row);
      assert.equal(errors, '0', row);
      assert.match(result!, /^(ok|MISSED \(.+\))$/, row);
    }
    for (const endpoint of ['GET /health', 'listings mix', 'search, 2-letter q', 'trending by votes', 'name page', 'sales mix', 'activity mix', 'analytics and charts',
      'signed in: trending and search', 'signed in: notifications', 'a name\'s offers, listings, sales and history']) {
      assert.ok(measured.some((r) => r.startsWith(`| ${endpoint}`)), `${endpoint} measured:\n${results}`);
    }
    assert.ok(measured.some((r) => Number(r.split('|')[3]) > 0), 'some requests were measured');
    assert.match(results, /Peak RSS of the service: \d+ MB/);
    assert.match(results, /; 0 failed requests\.$/m);
  });
});
