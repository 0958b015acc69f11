/**
 * Compiles `src/` to JavaScript for `npm start` (esbuild, file by file, no bundling, linked source
 * maps) into `dist/<hash of the sources>/` and prints the server entry's path. The same sources
 * reuse their folder, so a rebuild never rewrites files a running service may still import; the
 * two newest folders are kept. Type checking is `npm run typecheck`, not this.
 *
 * Running compiled code instead of through tsx's loader saves its transpiler's memory and start-up
 * time: about 70 MB of peak RSS at a million names (see the README's performance section).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

function sources(dir) {
  return readdirSync(dir).sort().flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sources(full);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

export async function buildServer() {
  const files = sources(path.join(root, 'src'));
  const hash = createHash('sha256').update(`esbuild ${version}\n`);
  for (const f of files) hash.update(`${path.relative(root, f)}\n`).update(readFileSync(f)).update('\n');
  const id = hash.digest('hex').slice(0, 16);
  const out = path.join(dist, id);
  const entry = path.join(out, 'src', 'server.js');
  if (!existsSync(entry)) {
    // built aside and renamed into place, so a concurrent start never sees half a folder
    const tmp = `${out}.tmp-${process.pid}`;
    await build({ entryPoints: files, outdir: tmp, outbase: root, format: 'esm', platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning' });
    try {
      renameSync(tmp, out);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(entry)) throw err;
    }
  }
  // keep this build and the newest other one (a service started from it may still be running)
  const others = readdirSync(dist).filter((d) => d !== id && /^[0-9a-f]{16}$/.test(d))
    .map((d) => ({ d, at: statSync(path.join(dist, d)).mtimeMs })).sort((a, b) => b.at - a.at);
  for (const { d } of others.slice(1)) rmSync(path.join(dist, d), { recursive: true, force: true });
  return entry;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${path.relative(process.cwd(), await buildServer())}\n`);
}
