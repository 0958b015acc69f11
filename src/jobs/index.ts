import type { AnyJobDefinition } from './registry.js';
import { purgeExpiredJob } from './handlers/maintenance.js';

/** Every job of the service, one line each. Start-up creates a queue and a worker per entry. */
export const jobDefinitions: readonly AnyJobDefinition[] = [
  purgeExpiredJob,
];
