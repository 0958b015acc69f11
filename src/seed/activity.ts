import { copyLine, type CopyValue, type CopyWriter } from './copy.js';
import { iso } from './iso.js';

/** The columns of an activity row after its id, in the order the log's writer copies them. */
export const ACTIVITY_COLUMNS = ['id', 'event_type', 'ens_name_id', 'actor_address', 'counterparty_address', 'price_wei', 'currency_address', 'platform',
  'transaction_hash', 'block_number', 'log_index', 'metadata', 'created_at'] as const;

/** One event: the columns of ACTIVITY_COLUMNS after the id (created_at as epoch milliseconds). */
export interface ActivityRow {
  type: string;
  nameId: number;
  actor: string | null;
  counterparty?: string | null;
  price?: string | null;
  currency?: string | null;
  platform: string;
  tx?: string | null;
  block?: number | null;
  logIndex?: number | null;
  metadata: Record<string, unknown>;
  at: number;
}

/** A registration or renewal kept as a number: its row in COPY text format, without the event id. */
export type RenderRegistration = (ref: number) => string;

function growF64(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

function growU32(a: Uint32Array<ArrayBuffer>, n: number): Uint32Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}

function growU8(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Uint8Array(a.length * 2);
  b.set(a);
  return b;
}

/** The columns of a club_activity row (migration 0047), in the order the log's writer copies them. */
export const CLUB_ACTIVITY_COLUMNS = ['club', 'event_id', 'event_type', 'platform'] as const;

/** Where the log's events go for their names' clubs: the copy of club_activity, and each name's keys there (its clubs and `*`, or none). */
export interface ClubActivityCopy {
  writer: CopyWriter;
  keysOf(nameId: number): readonly string[];
}

const lineOf = (e: ActivityRow): string => copyLine([e.type, e.nameId, e.actor, e.counterparty ?? null, e.price ?? null, e.currency ?? null, e.platform,
  e.tx ?? null, e.block ?? null, e.logIndex ?? null, JSON.stringify(e.metadata), iso(e.at)] satisfies CopyValue[]);

/**
 * The activity log of the seeded rows, collected while they are generated (name by name, so not
 * in time order) and written at the end oldest first, so that sequence ids follow time as they do
 * when events are appended live. Rather than PostgreSQL sorting millions of wide rows, the log
 * sorts one 64-bit key per event (its time, then the order it was seen) and renders each row as it
 * writes it. The few hundred thousand market and vote events are kept rendered, as UTF-8 bytes
 * outside the JavaScript heap (as strings they were a quarter of a gigabyte at a million names that
 * every full garbage collection went over, and were encoded again when written); the millions of
 * registrations only as a number their writer renders them from again.
 */
export class ActivityLog {
  private times = new Float64Array(1 << 16);
  /** per event: a registration's number, or the index of a rendered line (with the top bit set) */
  private refs = new Uint32Array(1 << 16);
  private count = 0;
  /** the rendered lines' bytes, one after the other; line k is bytes starts[k] to starts[k + 1] */
  private bytes = Buffer.allocUnsafe(1 << 20);
  private starts = new Float64Array(1 << 16);
  private lines = 0;
  /** per event: its name's id, and its type and platform as an index into `kinds` ("type\tplatform") */
  private nameIds = new Uint32Array(1 << 16);
  private kindOf = new Uint8Array(1 << 16);
  private kinds: string[] = [];
  private kindIndex = new Map<string, number>();

  get size(): number {
    return this.count;
  }

  private push(at: number, ref: number, nameId: number, type: string, platform: string): void {
    this.times = growF64(this.times, this.count);
    this.refs = growU32(this.refs, this.count);
    this.nameIds = growU32(this.nameIds, this.count);
    this.kindOf = growU8(this.kindOf, this.count);
    const kind = `${type}\t${platform}`;
    let k = this.kindIndex.get(kind);
    if (k === undefined) {
      k = this.kinds.push(kind) - 1;
      if (k > 255) throw new Error('too many event types and platforms');
      this.kindIndex.set(kind, k);
    }
    this.times[this.count] = Math.floor(at);
    this.nameIds[this.count] = nameId;
    this.kindOf[this.count] = k;
    this.refs[this.count++] = ref;
  }

  add(e: ActivityRow): void {
    if (this.lines >= 0x80000000) throw new Error('activity log too large');
    this.push(e.at, (0x80000000 | this.lines) >>> 0, e.nameId, e.type, e.platform);
    const line = lineOf(e);
    const end = this.starts[this.lines];
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (end + 3 * line.length > this.bytes.length) {
      const bytes = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, end + 3 * line.length));
      this.bytes.copy(bytes, 0, 0, end);
      this.bytes = bytes;
    }
    this.starts = growF64(this.starts, this.lines + 1);
    this.starts[++this.lines] = end + this.bytes.write(line, end, 'utf8');
  }

  addRegistration(at: number, ref: number, nameId: number, type: 'registration' | 'renewal'): void {
    this.push(at, ref, nameId, type, 'ens');
  }

  /**
   * The events in time order (ties in the order they were added), ids from 1; and each event of a
   * name in clubs under each of its keys in `clubs` (what the log's insert trigger would write).
   */
  async write(w: CopyWriter, registration: RenderRegistration, clubs: ClubActivityCopy): Promise<number> {
    const order = this.sorted();
    for (let i = 0; i < order.length; i++) {
      const e = order[i];
      const ref = this.refs[e];
      if (ref >= 0x80000000) {
        const k = ref & 0x7fffffff;
        await w.addBytes(`${i + 1}\t`, this.bytes.subarray(this.starts[k], this.starts[k + 1]));
      } else {
        await w.addLine(`${i + 1}\t${registration(ref)}`);
      }
      for (const key of clubs.keysOf(this.nameIds[e])) await clubs.writer.addLine(`${key}\t${i + 1}\t${this.kinds[this.kindOf[e]]}`);
    }
    return order.length;
  }

  /** Event indexes by (time, index): one native sort of keys `time - first << bits | index`. */
  private sorted(): Uint32Array {
    const n = this.count;
    const out = new Uint32Array(n);
    if (n === 0) return out;
    let first = Infinity;
    let last = -Infinity;
    for (let i = 0; i < n; i++) {
      first = Math.min(first, this.times[i]);
      last = Math.max(last, this.times[i]);
    }
    const bits = Math.max(1, Math.ceil(Math.log2(n + 1)));
    if (Math.ceil(Math.log2(last - first + 2)) + bits > 64) throw new Error('activity log spans too long a time to sort');
    const shift = BigInt(bits);
    const keys = new BigUint64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (BigInt(this.times[i] - first) << shift) | BigInt(i);
    keys.sort();
    const mask = (1n << shift) - 1n;
    for (let i = 0; i < n; i++) out[i] = Number(keys[i] & mask);
    return out;
  }
}
