import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, createPool, migrateToLatest } from '../db/client.js';
import { generateDbTypes } from '../db/codegen.js';
import { startEmbeddedPostgres } from '../db/embedded.js';

/**
 * `npm run db:types`: migrates a throw-away database to the latest migration and regenerates
 * src/db/types.generated.ts from it. With DATABASE_URL, a scratch database on that server
 * (dropped afterwards); without, an embedded PostgreSQL in a temporary directory. `-- --check`
 * only verifies the committed file.
 */
const mode = process.argv.includes('--check') ? 'verify' : 'write';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function migrated(url: string): Promise<void> {
  const db = createDb(createPool(url, { max: 2 }));
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

if (process.env.DATABASE_URL) {
  const server = new URL(process.env.DATABASE_URL);
  const scratch = `ensm_types_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  try {
    server.pathname = `/${scratch}`;
    await migrated(server.toString());
    await generateDbTypes(server.toString(), mode);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'ensm-types-pg-'));
  const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort(), { persistent: false });
  try {
    await migrated(embedded.url);
    await generateDbTypes(embedded.url, mode);
  } finally {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(mode === 'verify' ? 'src/db/types.generated.ts is current' : 'wrote src/db/types.generated.ts');
