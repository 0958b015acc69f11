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

  /** One key of `weights`, with probability proportional to its weight (keys in property order). */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    // for...in, not Object.entries: this runs millions of times and should not allocate
    let total = 0;
    for (const k in weights) total += weights[k];
    let u = this.next() * total;
    let last: K | undefined;
    for (const k in weights) {
      u -= weights[k];
      if (u < 0) return k;
      last = k;
    }
    return last as K;
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

  /** `bytes` random bytes as lower-case hex (bytes a multiple of 4). */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) out += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
    return out;
  }

  /** A 256-bit number as a decimal string (order salts). */
  uint256(): string {
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 32n) | BigInt(Math.floor(this.next() * 4294967296));
    return v.toString();
  }
}
