import { InvalidNameError, parseEthName } from '../../lib/ens.js';

/**
 * Turns raw suggestion strings into normalized .eth labels: `Foo Bar.eth` → `foobar`. Subnames,
 * unnormalizable text and duplicates are dropped, and so is `exclude` (the name asked about).
 */
export function cleanLabels(raw: readonly unknown[], exclude: string, max: number): string[] {
  const out = new Set<string>();
  for (const item of raw) {
    if (out.size >= max) break;
    if (typeof item !== 'string') continue;
    const text = item.trim().replace(/\.eth$/i, '').replace(/[\s_]+/g, '');
    if (text === '' || text.length > 64) continue;
    try {
      const { label } = parseEthName(text);
      if (label !== exclude) out.add(label);
    } catch (e) {
      if (!(e instanceof InvalidNameError)) throw e;
    }
  }
  return [...out];
}
