/** The breaker's settings, from `routing.circuit_breaker`. */
export interface CircuitBreakerSettings {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses before letting one probe through. */
  cooldownMilliseconds: number;
}

type State = { kind: 'closed'; failures: number } | { kind: 'open'; until: number } | { kind: 'half-open'; probing: boolean };

/**
 * One breaker per channel. Closed: calls pass, consecutive failures are counted. Open: calls
 * are refused until the cool-down ends. Half-open: one probe passes; its success closes the
 * circuit, its failure opens it again for another cool-down.
 */
export class CircuitBreaker {
  #settings: CircuitBreakerSettings;
  readonly #now: () => number;
  readonly #states = new Map<string, State>();

  constructor(settings: CircuitBreakerSettings, now: () => number = Date.now) {
    this.#settings = settings;
    this.#now = now;
  }

  /** New settings from a reload; circuits keep their state, and a later failure or cool-down follows the new ones. */
  configure(settings: CircuitBreakerSettings): void {
    this.#settings = settings;
  }

  /** Drops a channel's state: a reload removed the channel or gave it another upstream. */
  forget(channel: string): void {
    this.#states.delete(channel);
  }

  /** Each channel the breaker has seen, with its state now (an open circuit whose cool-down ended reads half-open). */
  *states(): Generator<[channel: string, state: State['kind']]> {
    for (const [channel, state] of this.#states) {
      yield [channel, state.kind === 'open' && this.#now() >= state.until ? 'half-open' : state.kind];
    }
  }

  /** Whether a call to the channel may go ahead now; a half-open channel admits one probe at a time. */
  tryAcquire(channel: string): boolean {
    const state = this.#states.get(channel) ?? { kind: 'closed', failures: 0 };
    if (state.kind === 'closed') return true;
    if (state.kind === 'open') {
      if (this.#now() < state.until) return false;
      this.#states.set(channel, { kind: 'half-open', probing: true });
      return true;
    }
    if (state.probing) return false;
    state.probing = true;
    return true;
  }

  /** Milliseconds until the channel may be tried again (0 when it may be tried now). */
  retryInMilliseconds(channel: string): number {
    const state = this.#states.get(channel);
    return state?.kind === 'open' ? Math.max(0, state.until - this.#now()) : 0;
  }

  /** Ends a call that neither succeeded nor failed (the client went away), freeing a half-open probe. */
  release(channel: string): void {
    const state = this.#states.get(channel);
    if (state?.kind === 'half-open') state.probing = false;
  }

  recordSuccess(channel: string): void {
    this.#states.set(channel, { kind: 'closed', failures: 0 });
  }

  recordFailure(channel: string): void {
    const state = this.#states.get(channel) ?? { kind: 'closed', failures: 0 };
    if (state.kind === 'closed' && state.failures + 1 < this.#settings.failureThreshold) {
      this.#states.set(channel, { kind: 'closed', failures: state.failures + 1 });
      return;
    }
    this.#states.set(channel, { kind: 'open', until: this.#now() + this.#settings.cooldownMilliseconds });
  }

  /** `closed`, `open` or `half-open`, for logs and metrics. */
  stateOf(channel: string): State['kind'] {
    const state = this.#states.get(channel);
    if (state?.kind === 'open' && this.#now() >= state.until) return 'half-open';
    return state?.kind ?? 'closed';
  }
}
