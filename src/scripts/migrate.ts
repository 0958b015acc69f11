import { existsSync } from 'node:fs';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';

/** `npm run migrate`: applies pending migrations (the container does it on start) and exits. */
if (existsSync('.env')) process.loadEnvFile('.env');
const container = await createContainer(loadConfig(process.env, { jobsEnabled: false }));
console.log('migrations are up to date');
await container.close();
