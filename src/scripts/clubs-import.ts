import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { isAppError } from '../errors.js';
import { parseClubList } from '../lib/clubs.js';
import { importClub } from '../services/clubs.service.js';

/**
 * `npm run clubs:import -- file.csv club-name [--description "..."]`: makes the club's members
 * exactly the names of the file (one per line, or the first CSV column; `.eth` optional) and
 * updates the names concerned and the club's member count. Running it again with the same file
 * changes nothing.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
const { positionals, values } = parseArgs({ allowPositionals: true, options: { description: { type: 'string' } } });
const [file, club] = positionals;
if (!file || !club || positionals.length !== 2) {
  console.error('usage: npm run clubs:import -- <file.csv> <club-name> [--description "text"]');
  process.exit(2);
}
if (!existsSync(file)) {
  console.error(`no such file: ${file}`);
  process.exit(2);
}

const container = await createContainer(loadConfig(process.env, { jobsEnabled: false }));
let code = 0;
try {
  const result = await importClub(container.db, club, parseClubList(readFileSync(file, 'utf8')), values.description);
  const { invalid, ...counts } = result;
  console.log(JSON.stringify({ ...counts, invalid: invalid.length }));
  for (const bad of invalid.slice(0, 20)) console.error(`skipped "${bad.value}": ${bad.reason}`);
  if (invalid.length > 20) console.error(`… and ${invalid.length - 20} more invalid names`);
} catch (e) {
  console.error(isAppError(e) ? `${e.code}: ${e.message}` : e);
  code = 1;
} finally {
  await container.close();
}
process.exit(code);
