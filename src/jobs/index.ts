import type { AnyJobDefinition } from './registry.js';
import { purgeExpiredJob } from './handlers/maintenance.js';
import { verifyEmailJob } from './handlers/mail-verify-email.js';

/** Every job of the service, one line each. Start-up creates a queue and a worker per entry. */
export const jobDefinitions: readonly AnyJobDefinition[] = [
  purgeExpiredJob,
  verifyEmailJob,
];
