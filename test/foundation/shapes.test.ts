import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createDb, createPool, type Db } from '../../src/db/client.js';
import { checkShapes, runShaped } from '../../src/db/shapes.js';
import { createTestDatabase } from '../helpers/app.js';

describe('statements compiled once per shape', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = createDb(createPool(database.url, { max: 1 }));
  });
  after(async () => {
    checkShapes(true);
    await db.destroy();
    await database.drop();
  });

  /** The numbers 1 to 10 from `min` (to `max` when given). */
  const numbers = (v: { min: number; max?: number }, withMax: boolean) =>
    db.selectFrom(sql<{ s: number }>`generate_series(1, 10)`.as('s')).select(sql<number>`s`.as('n'))
      .where(sql`s`, '>=', v.min)
      .$if(withMax, (qb) => qb.where(sql`s`, '<=', v.max!))
      .orderBy('n');
  const run = async (shape: string, f: { min: number; max?: number }, build = (v: typeof f) => numbers(v, f.max !== undefined)) =>
    (await runShaped(db, shape, { min: f.min, max: f.max }, build)).map((r) => r.n);

  it('each run puts its own values in the statement its shape compiled once', async () => {
    checkShapes(false);
    const shape = (f: { max?: number }) => `test:numbers:${f.max !== undefined}`;
    assert.deepEqual(await run(shape({}), { min: 8 }), [8, 9, 10]);
    assert.deepEqual(await run(shape({}), { min: 3 }), [3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(await run(shape({ max: 4 }), { min: 2, max: 4 }), [2, 3, 4]);
    assert.deepEqual(await run(shape({ max: 5 }), { min: 5, max: 5 }), [5]);
  });

  it('under tests, a shape that misses a choice, or a value used for more than a parameter, fails at once', async () => {
    checkShapes(true);
    // the key leaves out whether there is a maximum: the second run would reuse the first's text
    assert.deepEqual(await run('test:careless', { min: 9 }), [9, 10]);
    await assert.rejects(run('test:careless', { min: 2, max: 3 }), /shape test:careless does not hold/);
    // arithmetic on a value: the slot is not the value
    await assert.rejects(run('test:arithmetic', { min: 2 }, (v) => numbers({ min: v.min + 1 }, false)), /shape test:arithmetic does not hold/);
    // without the check the careless shape answers with the wrong statement: why tests run with it
    checkShapes(false);
    assert.deepEqual(await run('test:careless', { min: 2, max: 3 }), [2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
