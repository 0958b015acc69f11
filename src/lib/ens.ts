import { ens_normalize, ens_tokenize } from '@adraffy/ens-normalize';
import { labelhash, namehash } from 'viem';

/** A .eth second-level name in every form the service stores. */
export interface EthName {
  /** normalized full name, e.g. `abc.eth` */
  name: string;
  /** normalized label, e.g. `abc` */
  label: string;
  labelhash: `0x${string}`;
  namehash: `0x${string}`;
  /** ERC-721 token id of the base registrar: uint256(labelhash), decimal */
  tokenId: string;
  /** ERC-1155 token id of the NameWrapper: uint256(namehash), decimal */
  wrappedTokenId: string;
  hasEmoji: boolean;
}

export class InvalidNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidNameError';
  }
}

const PLAIN_NAME = /^[a-z0-9]+(?:\.[a-z0-9]+)*$/;
const PLAIN_LABEL = /^[a-z0-9]+$/;

/**
 * Builds the normalizer's tables, which it otherwise builds on its first use: 0.4-0.8 s of CPU that
 * the first request naming a name after start-up paid (a recommendations page took 0.8 s). A
 * process that serves requests calls this before it listens.
 */
export function warmNormalizer(): void {
  ens_normalize('warm.eth');
  ens_tokenize('warm');
}

/** ENSIP-15 normalization; the normalizer's messages are safe to show to users. */
export function normalizeName(input: string): string {
  // Labels of lower-case ASCII letters and digits are their own normalization (ENSIP-15): no normalizer pass.
  if (PLAIN_NAME.test(input)) return input;
  try {
    return ens_normalize(input);
  } catch (e) {
    throw new InvalidNameError(e instanceof Error ? e.message : 'invalid name');
  }
}

/**
 * The normalized .eth second-level name of `abc`, `abc.eth` or `ABC.eth`, without hashing (for
 * many names at once); throws InvalidNameError as parseEthName does.
 */
export function normalizeEthName(input: string): string {
  const trimmed = input.trim();
  const withTld = /\.eth$/i.test(trimmed) ? trimmed : `${trimmed}.eth`;
  const name = normalizeName(withTld);
  const parts = name.split('.');
  if (parts.length !== 2 || parts[1] !== 'eth' || parts[0] === '') {
    throw new InvalidNameError('only .eth second-level names are supported');
  }
  if (/^\[[0-9a-f]{64}\]$/.test(parts[0])) throw new InvalidNameError('unknown labelhash, not a name');
  return name;
}

/**
 * Accepts `abc`, `abc.eth`, `ABC.eth`; returns the .eth second-level name, or throws
 * InvalidNameError for subnames, empty labels, unknown-labelhash labels and names that do not normalize.
 */
export function parseEthName(input: string): EthName {
  const name = normalizeEthName(input);
  const label = name.slice(0, -'.eth'.length);
  const lh = labelhash(label);
  const nh = namehash(name);
  return {
    name,
    label,
    labelhash: lh,
    namehash: nh,
    tokenId: BigInt(lh).toString(),
    wrappedTokenId: BigInt(nh).toString(),
    hasEmoji: !PLAIN_LABEL.test(label) && ens_tokenize(label).some((t) => t.type === 'emoji'),
  };
}

/** The label of a name given with or without `.eth`, normalized; throws InvalidNameError. */
export function parseLabel(input: string): string {
  return normalizeEthName(input).slice(0, -'.eth'.length);
}

/** Length in user-perceived characters (an emoji with modifiers counts once). */
export function labelLength(label: string): number {
  return [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(label)].length;
}
