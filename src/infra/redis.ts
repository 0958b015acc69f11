import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Whether Redis answers, for the cache and the rate limits that fall back to this process while
 * it does not. One warning when it goes away, one line when it is back; ioredis reconnects on
 * its own (with back-off) and commands fail at once meanwhile (no offline queue).
 */
export class RedisLink {
  private down = false;
  private closing = false;
  private readonly onDown: (() => void)[] = [];
  private readonly onBack: (() => Promise<void>)[] = [];

  constructor(readonly redis: Redis, private readonly logger: Logger) {
    redis.on('error', (err: Error) => this.lost(err));
    redis.on('close', () => this.lost());
    redis.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      logger.info('Redis is back: shared cache and rate limits again');
      for (const back of this.onBack) back().catch((err: unknown) => logger.warn({ err }, 'after Redis came back'));
    });
  }

  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  /** Called when Redis goes away (`down`) and when it is back (`back`, e.g. to drop stale entries). */
  watch(down: () => void, back: () => Promise<void>): void {
    this.onDown.push(down);
    this.onBack.push(back);
  }

  /** Connects, or warns and goes on in-process: a start does not depend on Redis. */
  async connect(): Promise<void> {
    await this.redis.connect().catch((err: Error) => this.lost(err));
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.ready) await this.redis.quit();
    else this.redis.disconnect();
  }

  lost(err?: Error): void {
    if (this.down || this.closing || this.redis.status === 'ready') return;
    this.down = true;
    this.logger.warn({ reason: err?.message ?? 'connection closed' }, 'Redis unreachable: in-process cache and rate limits until it returns');
    for (const down of this.onDown) down();
  }
}
