import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

/**
 * `npm run seed -- --names N`: (re)creates the demo data set on the configured database (the
 * embedded one when DATABASE_URL is unset, exactly like the server) and prints a line per table.
 */

/**
 * A big seed makes gigabytes of short-lived rows; with a larger young generation V8 spends less
 * CPU collecting them (a million names, semi-spaces of 16 MB by default, then 32, then 128: 90 s of
 * generating became 64 s, then 56 s; the whole seed 4 min 23 s with 32, 4 min 5 s with 64, 3 min
 * 59 s with 128, on a machine whose two cores are busy throughout). V8 takes the size at start-up
 * only, so the script starts itself again with it (and only the second process loads the service's
 * modules: through tsx, 2.5 s).
 */
const YOUNG_GENERATION = '--max-semi-space-size=128';

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const { values } = parseArgs({ options: { names: { type: 'string', default: '10000' } } });
  const names = Number(values.names);
  if (!Number.isInteger(names) || names < 100 || names > 5_000_000) {
    console.error('--names must be a whole number from 100 to 5000000');
    process.exit(1);
  }
  const [{ loadConfig }, { createContainer }, { seedDemoData, seedOptionsFrom }] = await Promise.all([
    import('../config.js'), import('../container.js'), import('../seed/seed.js')]);
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
