import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type pg from 'pg';
import { createPool } from '../../src/db/client.js';
import { parseTimestamptz } from '../../src/db/timestamps.js';
import { iso } from '../../src/lib/time.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `us` (microseconds since 1970) as PostgreSQL prints a timestamptz in a zone `offset` minutes east of UTC. */
function asPostgres(us: bigint, offset: number): string {
  const local = us + BigInt(offset) * 60_000_000n;
  const seconds = local / 1_000_000n - (local % 1_000_000n < 0n ? 1n : 0n);
  const micros = Number(local - seconds * 1_000_000n);
  const d = new Date(Number(seconds) * 1000);
  const fraction = micros === 0 ? '' : `.${pad(micros, 6).replace(/0+$/, '')}`;
  const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}${Math.abs(offset) % 60 === 0 ? '' : `:${pad(Math.abs(offset) % 60)}`}`;
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction}${zone}`;
}

describe('timestamptz decoding', () => {
  it('gives the instant to the millisecond (truncated) for any year 1–9999, fraction and zone', () => {
    const from = BigInt(Date.parse('0001-01-02T00:00:00Z')) * 1000n;
    const to = BigInt(Date.UTC(9999, 11, 30)) * 1000n;
    fc.assert(fc.property(
      fc.bigInt(from, to), fc.constantFrom(0, 60, -300, 330, -210, 345, 840, -720), fc.nat(6),
      (raw, offset, keep) => {
        // fewer fraction digits too: whole seconds, milliseconds, …
        const unit = 10n ** BigInt(6 - keep);
        const us = raw - (((raw % unit) + unit) % unit);
        const text = asPostgres(us, offset);
        const parsed = parseTimestamptz(text);
        assert.ok(parsed instanceof Date, text);
        assert.equal(parsed.getTime(), Number(us / 1000n - (us % 1000n < 0n ? 1n : 0n)), text);
      },
    ), { numRuns: 5000 });
  });

  describe('from PostgreSQL', () => {
    let pool: pg.Pool;
    before(() => { pool = createPool(process.env.TEST_ADMIN_URL!, { max: 1 }); });
    after(async () => { await pool.end(); });

    for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Asia/Kathmandu']) {
      it(`reads what the server sends in ${zone}, the unusual values included`, async () => {
        const client = await pool.connect();
        try {
          await client.query(`SET TimeZone = '${zone}'`);
          const { rows } = await client.query<{ ts: Date | number; ms: string | null; label: string }>(`
            SELECT v.ts, floor(extract(epoch FROM v.ts) * 1000)::text AS ms, v.label FROM (VALUES
              (now(), 'now'), ('2026-11-23 12:50:33.008123+00'::timestamptz, 'microseconds'), ('2026-11-23 12:50:33+00'::timestamptz, 'whole second'),
              ('1969-12-31 23:59:59.9995+00'::timestamptz, 'before 1970'), ('0099-03-01 10:00:00+00'::timestamptz, 'year 99'),
              ('0044-03-15 12:00:00+00 BC'::timestamptz, 'BC'), ('10000-01-01 00:00:00+00'::timestamptz, 'year 10000'),
              ('infinity'::timestamptz, 'infinity'), ('-infinity'::timestamptz, '-infinity')) v(ts, label)`);
          for (const r of rows) {
            if (r.label.endsWith('infinity')) {
              assert.equal(r.ts, r.label === 'infinity' ? Infinity : -Infinity, r.label);
              continue;
            }
            assert.ok(r.ts instanceof Date, r.label);
            assert.equal(r.ts.getTime(), Number(r.ms), `${r.label} in ${zone}`);
          }
        } finally {
          await client.query('RESET TimeZone');
          client.release();
        }
      });
    }
  });
});

describe('timestamps as ISO 8601', () => {
  it('formats every instant of years 0–9999 as toISOString does, and defers to it outside', () => {
    const from = Date.parse('0000-01-01T00:00:00Z');
    const to = Date.parse('9999-12-31T23:59:59.999Z');
    fc.assert(fc.property(fc.integer({ min: from, max: to }), (t) => {
      const d = new Date(t);
      assert.equal(iso(d), d.toISOString());
      assert.equal(iso(t), d.toISOString());
    }), { numRuns: 20_000 });
    for (const t of [from, to, 0, -1, 951_782_400_000 /* 2000-02-29 */, 4_107_456_000_000 /* 2100-02-28 */, from - 1, to + 1, 8.64e15, -8.64e15]) {
      assert.equal(iso(t), new Date(t).toISOString(), String(t));
    }
    assert.equal(iso(null), null);
    assert.equal(iso('2026-11-23T12:50:33.008Z'), '2026-11-23T12:50:33.008Z');
    assert.throws(() => iso(new Date(Number.NaN)), RangeError);
  });
});
