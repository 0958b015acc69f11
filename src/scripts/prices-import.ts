import { existsSync, readFileSync } from 'node:fs';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { parsePricesCsv, upsertPrices } from '../sync/prices.js';

/**
 * `npm run prices:import -- file.csv`: loads daily ETH/USD prices (`day,price_usd`, header
 * optional, days as YYYY-MM-DD in UTC) into the price table, replacing days already present.
 * A file with any bad line imports nothing and lists the bad lines.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
const file = process.argv[2];
if (!file || process.argv.length !== 3) {
  console.error('usage: npm run prices:import -- <file.csv>   (columns: day,price_usd)');
  process.exit(2);
}
if (!existsSync(file)) {
  console.error(`no such file: ${file}`);
  process.exit(2);
}
const { rows, problems } = parsePricesCsv(readFileSync(file, 'utf8'));
if (problems.length > 0) {
  for (const p of problems.slice(0, 20)) console.error(`line ${p.line}: ${p.problem}`);
  if (problems.length > 20) console.error(`… and ${problems.length - 20} more bad lines`);
  console.error('nothing imported');
  process.exit(1);
}

const container = await createContainer(loadConfig(process.env, { jobsEnabled: false }));
let code = 0;
try {
  const written = await upsertPrices(container.db, rows);
  console.log(JSON.stringify({ days: written, first: rows[0]?.day ?? null, last: rows.at(-1)?.day ?? null }));
} catch (e) {
  console.error(e);
  code = 1;
} finally {
  await container.close();
}
process.exit(code);
