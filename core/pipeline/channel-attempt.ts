import type { AbortWatch } from '../http/abort-flag.js';
import type { Channel } from '../routing/channel.js';
import type { Attempt } from '../routing/plan-attempts.js';
import type { InterruptibleStream } from '../streaming/stream-pump.js';
import type { InFlightRequests } from './in-flight-requests.js';

/**
 * One try of one channel: its upstream call is aborted when the client leaves or the shutdown
 * deadline passes, until {@link detach} (the try failed, or its answer has been delivered).
 */
export class ChannelAttempt implements Attempt {
  readonly channel: Channel;
  readonly group: string;
  readonly startedAt = Date.now();
  /** Aborts the upstream call: the client left, the deadline passed, or a primed stream is abandoned. */
  readonly upstreamAbort = new AbortController();
  /** The translator serving the client's operation on this channel, once the request was translated for it; undefined on the fast path. */
  translator: string | undefined;
  readonly #clientSignal: AbortWatch;
  readonly #abortUpstream = (): void => this.upstreamAbort.abort();
  readonly #forgetDeadline: (() => void) | undefined;
  readonly #inFlight: InFlightRequests | undefined;
  #untrack: (() => void) | undefined;
  #detached = false;

  constructor(planned: Attempt, clientSignal: AbortWatch, inFlight: InFlightRequests | undefined) {
    this.channel = planned.channel;
    this.group = planned.group;
    this.#clientSignal = clientSignal;
    this.#inFlight = inFlight;
    clientSignal.addEventListener('abort', this.#abortUpstream, { once: true });
    this.#forgetDeadline = inFlight?.onDeadline(this.#abortUpstream);
    // A reload that drops the channel closes its provider once this try is over.
    this.channel.beginTry();
  }

  /** Counts the answer's stream as being sent, for the shutdown deadline, until {@link detach}. */
  track(stream: InterruptibleStream): void {
    this.#untrack = this.#inFlight?.track(stream);
  }

  /** Stops listening for the client and the deadline, and stops tracking the stream: the try is over. */
  detach(): void {
    if (!this.#detached) {
      this.#detached = true;
      this.channel.endTry();
    }
    this.#untrack?.();
    this.#clientSignal.removeEventListener('abort', this.#abortUpstream);
    this.#forgetDeadline?.();
  }
}
