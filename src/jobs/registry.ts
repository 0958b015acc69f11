import type PgBoss from 'pg-boss';
import type { Deps } from '../deps.js';
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
  /**
   * Jobs fetched per poll (default 1). A worker polls once a second, so a queue that can build a
   * backlog (mail) takes several at a time; each still succeeds or fails on its own.
   */
  batchSize?: number;
}

/** Any one job definition (the list of all jobs holds different payload types). */
export type AnyJobDefinition = { [N in JobName]: JobDefinition<N> }[JobName];

/** Helps TypeScript tie a definition's handler to its payload type. */
export function defineJob<N extends JobName>(definition: JobDefinition<N>): JobDefinition<N> {
  return definition;
}

/** Creates every queue (so jobs can be sent from any instance). */
export async function createQueues(boss: PgBoss, definitions: readonly AnyJobDefinition[]): Promise<void> {
  for (const def of definitions) {
    await boss.createQueue(def.name, {
      name: def.name,
      retryLimit: def.retryLimit ?? 5,
      retryDelay: def.retryDelaySeconds ?? 10,
      retryBackoff: def.retryBackoff ?? true,
    });
  }
}

/**
 * Starts a worker (and its schedule) for every definition; jobs of a batch run one after another.
 * A job that throws is failed alone (pg-boss retries it by its policy); pg-boss completes the rest
 * of the batch, which it would otherwise fail and run again with the one.
 */
export async function startWorkers(boss: PgBoss, deps: Deps, definitions: readonly AnyJobDefinition[]): Promise<void> {
  for (const def of definitions) {
    await boss.work(def.name, { batchSize: def.batchSize ?? 1, pollingIntervalSeconds: 1 }, async (jobs) => {
      // pg-boss hands back what `send` stored for this queue, so the payload has this job's type.
      const handle = def.handle as (payload: unknown, deps: Deps) => Promise<void>;
      for (const job of jobs) {
        try {
          await handle(job.data, deps);
        } catch (err) {
          await boss.fail(def.name, job.id, { message: err instanceof Error ? err.message : String(err) });
        }
      }
    });
    if (def.schedule) await boss.schedule(def.name, def.schedule, {}, { tz: 'UTC' });
  }
}
