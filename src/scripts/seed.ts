import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { seedDemoData, seedOptionsFrom } from '../seed/seed.js';

/**
 * `npm run seed -- --names N`: (re)creates the demo data set on the configured database (the
 * embedded one when DATABASE_URL is unset, exactly like the server) and prints a line per table.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
const { values } = parseArgs({ options: { names: { type: 'string', default: '10000' } } });
const names = Number(values.names);
if (!Number.isInteger(names) || names < 100 || names > 5_000_000) {
  console.error('--names must be a whole number from 100 to 5000000');
  process.exit(1);
}
// A big load runs far longer than the API's statement timeout.
const config = loadConfig(process.env, { jobsEnabled: false, statementTimeoutMs: 3_600_000 });
const container = await createContainer(config);
try {
  console.log(`seeding ${names} names…`);
  const counts = await seedDemoData(container.db, {
    ...seedOptionsFrom(config),
    pool: container.pool,
    names,
    onProgress: (table, rows, ms) => console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${table.padEnd(24)} ${rows > 0 ? rows : ''}`),
  });
  console.table(counts);
} finally {
  await container.close();
}
