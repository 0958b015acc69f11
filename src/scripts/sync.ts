import { existsSync } from 'node:fs';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { StderrProgress } from '../sync/progress.js';
import { isSkipped, runEventSync, runNameSync, runPriceSync } from '../sync/sync.service.js';

/**
 * `npm run sync [-- names events prices]`: one pass of the chain sync by hand, with a progress
 * bar on stderr and one summary line per step on stdout. Names come from ENS_SUBGRAPH_URL,
 * events and today's price from ETH_RPC_URL; a step whose URL is not set is skipped. Each step
 * runs to the end (a full name pass, events up to head − CONFIRMATIONS) and resumes from its
 * saved cursor if interrupted.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
const STEPS = ['names', 'events', 'prices'] as const;
type Step = (typeof STEPS)[number];
const asked = process.argv.slice(2);
const unknown = asked.filter((s) => !(STEPS as readonly string[]).includes(s));
if (unknown.length > 0) {
  console.error(`usage: npm run sync [-- ${STEPS.join(' ')}]   (unknown: ${unknown.join(' ')})`);
  process.exit(2);
}
const steps: readonly Step[] = asked.length > 0 ? (asked as Step[]) : STEPS;

const container = await createContainer(loadConfig(process.env, { jobsEnabled: false }));
const progress = new StderrProgress();
const why = { unconfigured: 'not configured', busy: 'another sync of this kind is running' } as const;
let code = 0;
try {
  for (const step of steps) {
    const started = Date.now();
    const result = step === 'names'
      ? await runNameSync(container, { progress })
      : step === 'events'
        ? await runEventSync(container, { progress })
        : await runPriceSync(container);
    if (isSkipped(result)) {
      const need = step === 'names' ? 'ENS_SUBGRAPH_URL' : 'ETH_RPC_URL';
      console.log(`${step}: skipped (${why[result.skipped]}${result.skipped === 'unconfigured' ? `: set ${need}` : ''})`);
      continue;
    }
    console.log(`${step}: ${JSON.stringify(result)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
} catch (e) {
  progress.done();
  console.error(e);
  code = 1;
} finally {
  await container.close();
}
process.exit(code);
