import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { CircuitBreaker } from '../lib/circuit-breaker.js';

/** The circuit breaker of one outside provider, configured by PROVIDER_BREAKER_*; logs each change once. */
export function providerBreaker(name: string, config: Pick<Config, 'providerBreaker'>, logger?: Logger): CircuitBreaker {
  return new CircuitBreaker(name, {
    ...config.providerBreaker,
    onChange: (state, err) => {
      if (state === 'open') logger?.warn({ err, cooldownMs: config.providerBreaker.cooldownMs }, `${name} failed ${config.providerBreaker.failures} times in a row: skipped for a cool-down`);
      else logger?.info(`${name} answers again`);
    },
  });
}
