import { CompiledQuery } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Executor } from '../db/client.js';
import type { JobPayloads } from './payloads.js';

export type { JobPayloads };
export type JobName = keyof JobPayloads & string;

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  trx?: Executor;
  startAfter?: Date | number;
  singletonKey?: string;
  /** Per-job overrides of the queue's retry policy. */
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  /** How long a started job may run before pg-boss takes it for lost and retries it (default 15 minutes). */
  expireInSeconds?: number;
}

/** Thin, typed face of pg-boss for the rest of the code. */
export class JobQueue {
  constructor(readonly boss: PgBoss) {}

  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}): Promise<string | null> {
    const { trx, ...rest } = options;
    return this.boss.send(name, payload as object, { ...rest, ...(trx ? { db: executorAsBossDb(trx) } : {}) });
  }
}

/** Lets pg-boss run its INSERT on our Kysely transaction. */
function executorAsBossDb(executor: Executor): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows as unknown[] };
    },
  };
}
