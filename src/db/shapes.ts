import { isDeepStrictEqual } from 'node:util';
import type { CompiledQuery, Compilable } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Executor } from './client.js';

/**
 * Statements compiled once per shape. A page of listings built and compiled by the query builder
 * on every request cost a tenth of the request's time in the service (and the garbage of its
 * tree); its text depends only on a few choices (status, sort, order, page size, which filters),
 * its values fill the parameters. `runShaped` builds a shape's statement once, with a slot in
 * place of each value, and on each run puts the values in the slots' places.
 *
 * The rule for `build`: everything that changes the text is in the shape's key, and the values
 * are only passed to the builder as they are (no arithmetic, no branching on them: a slot is an
 * object, not the value). Under tests (`checkShapes`) every run also builds the statement from
 * the values themselves and fails when its text or parameters differ, so a shape that misses a
 * choice, or a value used for more than a parameter, fails the first test that reaches it.
 */

/** Where a value goes in a shape's statement. */
class Slot {
  constructor(readonly name: string) {}
}

/** Compiled statements kept: the shapes in use (a page size per request could otherwise make thousands). */
const compiled = new LRUCache<string, CompiledQuery<unknown>>({ max: 1_000 });
let checking = false;

/** Turns the check of every run against a fresh build on (tests) or off. */
export function checkShapes(on: boolean): void {
  checking = on;
}

/**
 * Runs the statement `build` writes for `values`, compiled once per `shape` (a key naming every
 * choice that changes its text; the caller's own namespace first, e.g. `listings:page:…`).
 */
export async function runShaped<R, V extends Record<string, unknown>>(db: Executor, shape: string, values: V, build: (values: V) => Compilable<R>): Promise<R[]> {
  let query = compiled.get(shape) as CompiledQuery<R> | undefined;
  if (query === undefined) {
    const slots = Object.fromEntries(Object.keys(values).map((name) => [name, new Slot(name)])) as unknown as V;
    query = build(slots).compile();
    compiled.set(shape, query);
  }
  const parameters = query.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
  if (checking) {
    const fresh = build(values).compile();
    if (fresh.sql !== query.sql || !isDeepStrictEqual(fresh.parameters, parameters)) {
      throw new Error(`shape ${shape} does not hold: its statement differs from the one built from the values`);
    }
  }
  return (await db.executeQuery<R>({ ...query, parameters })).rows;
}
