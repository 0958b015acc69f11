import { blockAt, PERMANENT_REGISTRAR, registrationCostGwei } from './chain.js';
import type { ActivityLog } from './activity.js';
import { copyLine, type CopyWriter } from './copy.js';
import { PROGRAM_START, type DemoName } from './model.js';
import type { NameClubs } from './names.js';
import type { Rng } from './random.js';
import { iso } from './iso.js';

/** bytes32 of another front end's referral code, so that ours is not the only one. */
const OTHER_REFERRER = `0x${Buffer.from('ens.vision').toString('hex').padEnd(64, '0')}`;
const ETH = '0x0000000000000000000000000000000000000000';
const REF_KINDS = { none: 0, ours: 1, other: 2 } as const;

/**
 * The registrations and renewals of each name (several million at a million names), and their
 * activity events (platform ens, paid in ETH, as the chain sync logs them). Ids follow the names'
 * order. What an event's activity row needs is kept by id (what is drawn at random: transaction
 * hash, log index, referrer, cost in gwei; and the event's name, kind, times and actor), so the log
 * holds each event as its id alone and renders it again when its turn comes, in time order, without
 * reaching into names and events scattered over a heap of gigabytes (a cache miss or several per
 * row). Rows are rendered directly: none of their values needs COPY escaping (but the labels of the
 * registrations feed, which go through copyLine).
 */
export class RegistrationWriter {
  private count = 0;
  private nameId = new Uint32Array(1 << 16);
  private renewal = new Uint8Array(1 << 16);
  private at = new Float64Array(1 << 16);
  private expiry = new Float64Array(1 << 16);
  private readonly actors: string[] = [];
  private logIndex = new Uint16Array(1 << 16);
  private refKind = new Uint8Array(1 << 16);
  private costGwei = new Float64Array(1 << 16);
  private txHashes = Buffer.alloc(32 << 16);
  private readonly referrers: readonly (string | null)[];

  constructor(
    private readonly rng: Rng,
    /** transaction hashes: 32 random bytes each, from a stream of their own */
    private readonly txRng: Rng,
    private readonly w: CopyWriter,
    /** registration_feed (0049): each registration's row, with its name's label and clubs */
    private readonly feed: CopyWriter,
    private readonly log: ActivityLog,
    private readonly names: readonly DemoName[],
    private readonly clubs: NameClubs,
    referrer: string,
  ) {
    this.referrers = [null, referrer, OTHER_REFERRER];
  }

  private grow(): void {
    if (this.count < this.nameId.length) return;
    const size = this.nameId.length * 2;
    const copy = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(a: T, b: T): T => (b.set(a), b);
    this.nameId = copy(this.nameId, new Uint32Array(size));
    this.renewal = copy(this.renewal, new Uint8Array(size));
    this.at = copy(this.at, new Float64Array(size));
    this.expiry = copy(this.expiry, new Float64Array(size));
    this.logIndex = copy(this.logIndex, new Uint16Array(size));
    this.refKind = copy(this.refKind, new Uint8Array(size));
    this.costGwei = copy(this.costGwei, new Float64Array(size));
    const tx = Buffer.alloc(32 * size);
    this.txHashes.copy(tx);
    this.txHashes = tx;
  }

  private costOf(n: DemoName, k: number): number {
    const e = n.events[k];
    if (e.bidEth !== undefined) return Math.round(e.bidEth * 1e6) * 1000;
    return e.at < PERMANENT_REGISTRAR ? 0 : registrationCostGwei(n.label, e.durationSeconds, e.at);
  }

  private txOf(i: number): string {
    return `0x${this.txHashes.toString('hex', 32 * i, 32 * i + 32)}`;
  }

  /** Writes the registration events of the name with index `index` in the population. */
  async name(index: number): Promise<void> {
    const n = this.names[index];
    let feedTail: string | undefined;
    for (let k = 0; k < n.events.length; k++) {
      const e = n.events[k];
      const ref = REF_KINDS[e.at >= PROGRAM_START ? this.rng.weighted({ ours: 45, other: 15, none: 40 }) : this.rng.weighted({ other: 5, none: 95 })];
      const logIndex = this.rng.int(0, 400);
      this.grow();
      const i = this.count++;
      this.nameId[i] = n.id;
      this.renewal[i] = e.kind === 'renewal' ? 1 : 0;
      this.at[i] = e.at;
      this.expiry[i] = e.expiry;
      this.actors.push(e.actor);
      this.logIndex[i] = logIndex;
      this.refKind[i] = ref;
      const cost = (this.costGwei[i] = this.costOf(n, k));
      for (let b = 0; b < 32; b += 4) this.txHashes.writeUInt32LE(Math.floor(this.txRng.next() * 4294967296), 32 * i + b);
      await this.w.addLine(`${i + 1}\t${n.id}\t${e.kind}\t${e.actor}\t${this.txOf(i)}\t${logIndex}\t${blockAt(e.at)}\t${iso(e.at)}\t${e.durationSeconds}\t${
        cost === 0 ? '0' : `${cost}000000000`}\t${this.referrers[ref] ?? '\\N'}\t${iso(e.expiry)}`);
      this.log.addRegistration(e.at, i, n.id, e.kind);
      if (e.kind === 'registration') {
        feedTail ??= `${copyLine([n.label])}\t${this.clubs.text(n.id)}`;
        await this.feed.addLine(`${i + 1}\t${iso(e.at)}\t${cost === 0 ? '0' : `${cost}000000000`}\t${feedTail}`);
      }
    }
  }

  /** The activity row of registration number `i` (its id - 1), in COPY text format without the event id. */
  readonly activityLine = (i: number): string => {
    const cost = this.costGwei[i];
    const referrer = this.referrers[this.refKind[i]];
    const at = this.at[i];
    return `${this.renewal[i] === 1 ? 'renewal' : 'registration'}\t${this.nameId[i]}\t${this.actors[i]}\t\\N\t${cost === 0 ? '0' : `${cost}000000000`}\t${ETH}\tens\t${
      this.txOf(i)}\t${blockAt(at)}\t${this.logIndex[i]}\t${`{"expiry_date":"${iso(this.expiry[i])}","referrer":${referrer === null ? 'null' : `"${referrer}"`}}`}\t${iso(at)}`;
  };
}
