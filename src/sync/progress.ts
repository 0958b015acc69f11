/**
 * Progress of a sync step, for `npm run sync` (a bar on stderr) and silent in jobs.
 * `fraction` is 0..1; `detail` is a short line of counts.
 */
export interface SyncProgress {
  start(label: string, total: number): void;
  update(fraction: number, detail: string): void;
  done(): void;
}

/**
 * A plain text bar on a stream: redrawn in place on a terminal, otherwise one line per 10% so
 * that logs stay readable.
 */
export class StderrProgress implements SyncProgress {
  private label = '';
  private lastTenth = -1;
  private lastLine = '';

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr, private readonly width = 30) {}

  start(label: string): void {
    this.label = label;
    this.lastTenth = -1;
    this.lastLine = '';
    this.draw(0, 'starting');
  }

  update(fraction: number, detail: string): void {
    this.draw(fraction, detail);
  }

  done(): void {
    if (this.stream.isTTY) this.stream.write('\n');
    else if (this.lastLine) this.stream.write(`${this.lastLine}\n`);
    this.lastTenth = -1;
    this.lastLine = '';
  }

  private draw(fraction: number, detail: string): void {
    const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
    const filled = Math.round(f * this.width);
    const line = `${this.label.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ${(f * 100).toFixed(1).padStart(5)}%  ${detail}`;
    if (this.stream.isTTY) {
      this.stream.write(`\r${line.slice(0, (this.stream.columns ?? 200) - 1)}\u001b[K`);
      return;
    }
    this.lastLine = line;
    const tenth = Math.floor(f * 10);
    if (tenth > this.lastTenth) {
      this.lastTenth = tenth;
      this.stream.write(`${line}\n`);
      this.lastLine = '';
    }
  }
}
