import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder: npm test runs there (the test files themselves run compiled, elsewhere). */
export const ROOT = process.cwd();

/** The root of the tree these files run from: test/run.ts's compiled copy of src, test and bench, or the project itself under tsx. */
const RUNNING_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Node's arguments to run one of the project's scripts (`src/server.ts`, `bench/run.ts`…) in a
 * child process: its compiled copy beside these tests when there is one, else through tsx. Loading
 * the service through tsx's loader costs about 4 s more CPU per process than its compiled files,
 * and the suite starts dozens of such processes.
 */
export function scriptArgs(script: string): string[] {
  const compiled = path.join(RUNNING_ROOT, script.replace(/\.ts$/, '.js'));
  return path.resolve(RUNNING_ROOT) !== path.resolve(ROOT) && existsSync(compiled) ? ['--enable-source-maps', compiled] : ['--import', 'tsx', script];
}
