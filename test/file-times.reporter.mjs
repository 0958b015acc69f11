/**
 * A node:test reporter that writes one line per test file: the summed time of its top-level
 * tests in milliseconds, a tab, then the file. test/run.ts prints the slowest, to keep CI short.
 * Plain JavaScript: node loads reporters before tsx is registered.
 */
export default async function* fileTimes(source) {
  const totals = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file) continue;
    totals.set(event.data.file, (totals.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  for (const [file, ms] of totals) yield `${Math.round(ms)}\t${file}\n`;
}
