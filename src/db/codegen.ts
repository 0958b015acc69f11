import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The database types of record: kysely-codegen reads a migrated database and writes
 * src/db/types.generated.ts. Everything the catalogue cannot say is given here, once: int8 ids
 * as numbers (the pool parses them so, see client.ts), numeric as wei strings, JSON written as
 * text, and the closed value sets of status-like text columns (column-types.ts).
 */
export const GENERATED_TYPES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'types.generated.ts');

const OBJECT = 'JsonText<Record<string, unknown>>';
const COLUMN_TYPES = './column-types.js';

const OPTIONS = [
  '--dialect', 'postgres',
  '--default-schema', 'public',
  // ours only: not the migrator's bookkeeping, not the job queue's schema (pgboss)
  '--include-pattern', 'public.*',
  '--exclude-pattern', 'public.kysely_migration*',
  '--type-mapping', JSON.stringify({ int8: 'number', numeric: 'Wei', jsonb: 'JsonText', json: 'JsonText' }),
  '--custom-imports', JSON.stringify(Object.fromEntries(['Wei', 'JsonText', 'ListingStatus', 'OfferStatus', 'CharClass', 'Repeating', 'ClubSource'].map((t) => [t, COLUMN_TYPES]))),
  '--overrides', JSON.stringify({
    columns: {
      'listings.status': 'Generated<ListingStatus>',
      'offers.status': 'Generated<OfferStatus>',
      'listings.order_data': OBJECT,
      'offers.order_data': OBJECT,
      // the order's text, generated from order_data (never null, as order_data)
      'listings.order_json': `Generated<${OBJECT}>`,
      'offers.order_json': `Generated<${OBJECT}>`,
      'notifications.metadata': OBJECT,
      'activity_events.metadata': `Generated<${OBJECT}>`,
      'keyword_metrics.metrics': `${OBJECT} | null`,
      'ens_names.char_class': 'Generated<CharClass>',
      'ens_names.repeating': 'Generated<Repeating>',
      // generated columns over NOT NULL inputs: never null, though the catalogue cannot say so
      'ens_names.net_score': 'Generated<number>',
      'ens_names.searchable': 'Generated<boolean>',
      'ens_names.label_length': 'Generated<number>',
      'ens_names.has_numbers': 'Generated<boolean>',
      'ens_names.has_letters': 'Generated<boolean>',
      'clubs.source': 'Generated<ClubSource>',
    },
  }),
  '--log-level', 'error',
];

/**
 * Writes the generated file from the database at `url` (`write`), or exits non-zero when the
 * committed file differs from what the database gives (`verify`).
 */
export async function generateDbTypes(url: string, mode: 'write' | 'verify'): Promise<void> {
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('kysely-codegen/package.json')), 'dist/cli/bin.js');
  const args = [bin, '--url', url, '--out-file', GENERATED_TYPES_FILE, ...OPTIONS, ...(mode === 'verify' ? ['--verify'] : [])];
  const output: string[] = [];
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', reject);
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) {
    const hint = mode === 'verify' ? 'src/db/types.generated.ts is stale: run `npm run db:types` and commit it.\n' : '';
    throw new Error(`${hint}kysely-codegen exited with ${code}:\n${output.join('')}`);
  }
}
