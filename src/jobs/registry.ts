import type PgBoss from 'pg-boss';
import type { Deps } from '../container.js';
import type { JobName, JobPayloads } from './queue.js';

export interface JobDefinition<N extends JobName = JobName> {
  name: N;
  /** Must be idempotent: pg-boss delivers at least once. */
  handle(payload: JobPayloads[N], deps: Deps): Promise<void>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** Cron expression (UTC) when the job also runs on a schedule. */
  schedule?: string;
}

/** Helps TypeScript tie a definition's handler to its payload type. */
export function defineJob<N extends JobName>(definition: JobDefinition<N>): JobDefinition<N> {
  return definition;
}

/** Creates every queue (so jobs can be sent from any instance). */
export async function createQueues(boss: PgBoss, definitions: readonly JobDefinition<any>[]): Promise<void> {
  for (const def of definitions) {
    await boss.createQueue(def.name, {
      name: def.name,
      retryLimit: def.retryLimit ?? 5,
      retryDelay: def.retryDelaySeconds ?? 10,
      retryBackoff: def.retryBackoff ?? true,
    });
  }
}

/** Starts a worker (and its schedule) for every definition; jobs are fetched one at a time. */
export async function startWorkers(boss: PgBoss, deps: Deps, definitions: readonly JobDefinition<any>[]): Promise<void> {
  for (const def of definitions) {
    await boss.work(def.name, { batchSize: 1, pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await def.handle(job.data, deps);
    });
    if (def.schedule) await boss.schedule(def.name, def.schedule, {}, { tz: 'UTC' });
  }
}
