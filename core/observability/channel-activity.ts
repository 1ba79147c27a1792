import { observedCode, type ObservedRequest, type RunObserver } from './run-observer.js';

/** How a channel has done lately, in this process. */
export interface ChannelActivitySummary {
  /** Attempts on the channel in the window, whatever their outcome. */
  requests: number;
  /** Attempts that failed by the channel's own fault (5xx, timeouts, refused credentials, unreachable): what counts toward its circuit. */
  errors: number;
  /** Attempts the channel answered by refusing the request itself (a 4xx for what the client asked). */
  refused: number;
  /** The median time of the successful attempts to their answer (a stream's first content), in milliseconds; null without any. */
  p50_latency_ms: number | null;
  /** The latest of the `errors`: its code and when (Unix seconds). */
  last_error: { code: string; at: number } | null;
}

/** The bounds of {@link ChannelActivity}. */
export interface ChannelActivitySettings {
  /** Attempts kept per channel, the oldest dropped first. */
  capacity: number;
  /** How far back a summary looks. */
  windowMilliseconds: number;
}

export const defaultChannelActivitySettings: ChannelActivitySettings = { capacity: 1000, windowMilliseconds: 15 * 60_000 };

const outcomes = { success: 0, failed: 1, refused: 2, aborted: 3 } as const;

/** One channel's latest attempts, in fixed arrays used as a ring, so memory does not grow with traffic. */
class AttemptRing {
  readonly times: Float64Array;
  readonly milliseconds: Float64Array;
  readonly outcomes: Uint8Array;
  readonly codes: Array<string | undefined>;
  next = 0;
  size = 0;

  constructor(capacity: number) {
    this.times = new Float64Array(capacity);
    this.milliseconds = new Float64Array(capacity);
    this.outcomes = new Uint8Array(capacity);
    this.codes = new Array<string | undefined>(capacity);
  }

  push(at: number, milliseconds: number, outcome: number, code: string | undefined): void {
    this.times[this.next] = at;
    this.milliseconds[this.next] = milliseconds;
    this.outcomes[this.next] = outcome;
    this.codes[this.next] = code;
    this.next = (this.next + 1) % this.times.length;
    this.size = Math.min(this.size + 1, this.times.length);
  }
}

/**
 * Each channel's recent attempts (requests, errors, median latency), for the channel admin
 * API. It hears every model request when it ends, as metrics do, and keeps at most
 * `capacity` attempts per configured channel, so its memory is bounded by the config. Each
 * process keeps its own: with several workers or instances, a summary is the answering
 * process's share.
 */
export class ChannelActivity implements RunObserver {
  readonly #rings = new Map<string, AttemptRing>();
  readonly #settings: ChannelActivitySettings;
  readonly #now: () => number;

  /** `channels`: the configured channel names; attempts on any other name are not kept. */
  constructor(channels: Iterable<string>, settings: ChannelActivitySettings = defaultChannelActivitySettings, now: () => number = Date.now) {
    this.#settings = settings;
    this.#now = now;
    for (const channel of channels) this.#rings.set(channel, new AttemptRing(settings.capacity));
  }

  /** The configured channels after a reload: new ones start empty, removed ones are dropped, the others keep their attempts. */
  setChannels(channels: Iterable<string>): void {
    const names = new Set(channels);
    for (const name of this.#rings.keys()) if (!names.has(name)) this.#rings.delete(name);
    for (const name of names) if (!this.#rings.has(name)) this.#rings.set(name, new AttemptRing(this.#settings.capacity));
  }

  /** How far back a summary looks, in seconds. */
  get windowSeconds(): number {
    return Math.round(this.#settings.windowMilliseconds / 1000);
  }

  requestFinished(request: ObservedRequest): void {
    const at = this.#now();
    for (const attempt of request.attempts) {
      const outcome = outcomes[(attempt.outcome ?? 'success') as keyof typeof outcomes] ?? outcomes.failed;
      this.#rings.get(attempt.channel)?.push(at, attempt.milliseconds, outcome, attempt.code === undefined ? undefined : observedCode(attempt.code));
    }
  }

  settled(): void {}

  /** The channel's attempts within the window. */
  summaryOf(channel: string): ChannelActivitySummary {
    const summary: ChannelActivitySummary = { requests: 0, errors: 0, refused: 0, p50_latency_ms: null, last_error: null };
    const ring = this.#rings.get(channel);
    if (ring === undefined) return summary;
    const since = this.#now() - this.#settings.windowMilliseconds;
    const latencies: number[] = [];
    let lastErrorAt = -Infinity;
    for (let index = 0; index < ring.size; index += 1) {
      const at = ring.times[index]!;
      if (at < since) continue;
      summary.requests += 1;
      const outcome = ring.outcomes[index];
      if (outcome === outcomes.success) latencies.push(ring.milliseconds[index]!);
      else if (outcome === outcomes.refused) summary.refused += 1;
      else if (outcome === outcomes.failed) {
        summary.errors += 1;
        if (at >= lastErrorAt) {
          lastErrorAt = at;
          summary.last_error = { code: ring.codes[index] ?? 'unknown', at: Math.floor(at / 1000) };
        }
      }
    }
    summary.p50_latency_ms = median(latencies);
    return summary;
  }
}

/** The median, the mean of the middle two for an even count, rounded to the millisecond. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const middle = values.length >> 1;
  const value = values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
  return Math.round(value);
}
