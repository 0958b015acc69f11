import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { seedDemoData, seedOptionsFrom } from '../seed/seed.js';

/**
 * `npm run seed -- --names N`: (re)creates the demo data set on the configured database (the
 * embedded one when DATABASE_URL is unset, exactly like the server) and prints a line per table.
 */

/**
 * A big seed makes gigabytes of short-lived rows; with a larger young generation V8 spends about
 * a fifth less CPU collecting them (a million names: 90 s of generating become 64 s). V8 takes
 * the size at start-up only, so the script starts itself again with it.
 */
const YOUNG_GENERATION = '--max-semi-space-size=32';

async function main(): Promise<void> {
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
}

if (process.execArgv.includes(YOUNG_GENERATION)) {
  await main();
} else {
  const child = spawn(process.execPath, [YOUNG_GENERATION, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
}
