export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failures: number;
  /** How long an open circuit skips the provider before one trial call is let through. */
  cooldownMs: number;
  /** Told of every change of state (for one log line per change, not one per request). */
  onChange?: (state: CircuitState, lastError: unknown) => void;
}

/** Thrown instead of calling the provider while the circuit is open. */
export class CircuitOpenError extends Error {
  constructor(readonly circuit: string, readonly retryInMs: number) {
    super(`${circuit} is skipped for ${Math.ceil(retryInMs / 1000)} s after repeated failures`);
    this.name = 'CircuitOpenError';
  }
}

/**
 * A circuit breaker for one outside provider. Closed: calls go through; `failures` consecutive
 * failures open it. Open: calls fail at once with CircuitOpenError for `cooldownMs`. Then one trial
 * call goes through (others still fail at once): success closes the circuit, failure opens it for
 * another cool-down. Errors for which `isFailure` is false (the caller's own mistake) count as
 * answers: the provider is up.
 */
export class CircuitBreaker {
  private consecutive = 0;
  private openedAt: number | undefined;
  private trialRunning = false;

  constructor(readonly name: string, private readonly options: CircuitBreakerOptions) {}

  get state(): CircuitState {
    if (this.openedAt === undefined) return 'closed';
    return this.trialRunning || Date.now() - this.openedAt < this.options.cooldownMs ? 'open' : 'half-open';
  }

  async run<T>(call: () => Promise<T>, isFailure: (error: unknown) => boolean = () => true): Promise<T> {
    const trial = this.openedAt !== undefined;
    if (trial) {
      const waited = Date.now() - this.openedAt!;
      if (this.trialRunning || waited < this.options.cooldownMs) {
        throw new CircuitOpenError(this.name, Math.max(0, this.options.cooldownMs - waited));
      }
      this.trialRunning = true;
    }
    try {
      const result = await call();
      this.succeeded();
      return result;
    } catch (error) {
      if (!isFailure(error)) this.succeeded();
      else this.failed(trial, error);
      throw error;
    } finally {
      if (trial) this.trialRunning = false;
    }
  }

  private succeeded(): void {
    this.consecutive = 0;
    if (this.openedAt === undefined) return;
    this.openedAt = undefined;
    this.options.onChange?.('closed', undefined);
  }

  private failed(trial: boolean, error: unknown): void {
    this.consecutive += 1;
    if (!trial && (this.openedAt !== undefined || this.consecutive < this.options.failures)) return;
    this.openedAt = Date.now();
    this.options.onChange?.('open', error);
  }
}
