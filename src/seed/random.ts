import { createHash } from 'node:crypto';

/**
 * A small seeded PRNG (sfc32, seeded from SHA-256 of a tag) so that the demo data is the same on
 * every run. Each part of the generator takes its own stream (`rng('votes')`), so changing one
 * part does not shift the random choices of the others.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(tag: string) {
    const h = createHash('sha256').update(tag).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One key of `weights`, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let total = 0;
    for (const [, w] of entries) total += w;
    let u = this.next() * total;
    for (const [k, w] of entries) {
      u -= w;
      if (u < 0) return k;
    }
    return entries[entries.length - 1][0];
  }

  /** exp(N(0, sigma)): a multiplicative spread around 1. */
  logNormal(sigma: number): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  }

  /** Fisher-Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** A 256-bit number as a decimal string (order salts). */
  uint256(): string {
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 32n) | BigInt(Math.floor(this.next() * 4294967296));
    return v.toString();
  }
}

/** A deterministic fake 32-byte hash (transaction hashes of seeded events): SHA-256 of a tag. */
export function fakeHash(tag: string): `0x${string}` {
  return `0x${createHash('sha256').update(tag).digest('hex')}`;
}
