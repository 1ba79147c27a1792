import { promptOf, usageOrEstimate } from '../billing/fallback-usage.js';
import { costUnits, groupRatioOf, priceOfModel } from '../billing/pricing.js';
import type { QuotaLedger, Reservation } from '../billing/quota-ledger.js';
import type { GatewayConfig, PriceConfig } from '../config/config-schema.js';
import { Readable, finished } from 'node:stream';
import type { BytesResult, OperationHandler, OperationName, OperationResult, StreamResult } from '../contracts/provider-plugin.js';
import { emptyUsage, type Usage } from '../contracts/usage.js';
import { internalError, shuttingDown } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import { unlimitedAdmission, type RateAdmission } from '../limits/rate-admission.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Channel } from '../routing/channel.js';
import type { ChannelAffinity } from '../routing/channel-affinity.js';
import type { RunObserver } from '../observability/run-observer.js';
import type { CircuitBreaker } from '../routing/circuit-breaker.js';
import type { ModelCatalog } from '../routing/model-catalog.js';
import { planAttempts, type Attempt, type PinnedChannel } from '../routing/plan-attempts.js';
import { SseSplitter } from '../streaming/sse-splitter.js';
import { StreamPump, type StreamOutcome } from '../streaming/stream-pump.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { authorizeModel } from './steps/authorize-model.js';
import type { InvocationOutcome, OperationInvocation } from './operation-invocation.js';
import { PreparedRequests } from './prepared-requests.js';

/** One try, for the request's log line. */
interface AttemptRecord {
  channel: string;
  group: string;
  outcome: 'success' | 'failed' | 'refused' | 'aborted';
  status?: number;
  code?: string;
  milliseconds: number;
}

const clientClosed = () => new GatewayError(499, 'client_closed_request', 'the client closed the request');

/**
 * Runs the pipeline after auth for one model request: model limits, price, rate limits, reserve, then
 * channel attempts in routing order until one answers. Before the first byte reaches the
 * client, a retryable failure (connect error, timeout, 429, 5xx, an error frame before any
 * content) moves on to the next channel; a client error (other 4xx) does not. Settlement
 * happens exactly once: from the upstream's usage, or the whole reservation is refunded when
 * nothing was delivered.
 */
export class OperationRunner {
  constructor(
    private readonly channels: readonly Channel[],
    private readonly breaker: CircuitBreaker,
    private readonly catalog: ModelCatalog,
    private readonly ledger: QuotaLedger,
    private readonly affinity: ChannelAffinity,
    private readonly config: GatewayConfig,
    private readonly limiter?: RateLimiter,
    private readonly observer?: RunObserver,
    private readonly inFlight?: InFlightRequests,
  ) {}

  async run(invocation: OperationInvocation): Promise<InvocationOutcome> {
    const startedAt = Date.now();
    const records: AttemptRecord[] = [];
    const end = this.inFlight?.begin();
    try {
      const outcome = await this.#run(invocation, records);
      this.#observe(invocation, startedAt, records, undefined);
      return outcome;
    } catch (error) {
      const failure = GatewayError.is(error) ? error : new GatewayError(500, 'internal_error', 'the gateway failed');
      this.#observe(invocation, startedAt, records, failure);
      // Refused before any attempt (model, limits, quota): its line is written here.
      if (!invocation.line.written) this.#log(invocation, records, { failure });
      throw error;
    } finally {
      end?.();
    }
  }

  /** Why no (further) attempt may start: the client left, or the shutdown deadline passed. */
  #stopped(invocation: OperationInvocation): GatewayError | undefined {
    if (invocation.clientSignal.aborted) return clientClosed();
    return this.inFlight?.deadlinePassed === true ? shuttingDown() : undefined;
  }

  async #run(invocation: OperationInvocation, records: AttemptRecord[]): Promise<InvocationOutcome> {
    const { token, model, operation } = invocation;
    authorizeModel(token, model);
    const groups = this.catalog.groupsOf(token.group);
    const attempts = planAttempts(
      this.channels,
      {
        model,
        operation,
        groups,
        crossGroupRetry: token.group === 'auto' && token.cross_group_retry,
        maxAttempts: this.config.routing.max_attempts,
        // Only a continuation waits on the store; every other request plans at once.
        pinned:
          invocation.pinTo !== undefined
            ? { name: invocation.pinTo, exclusive: true }
            : invocation.affinityKey === undefined
              ? undefined
              : await this.#pinnedChannel(invocation.affinityKey),
      },
      this.breaker,
    );
    // Planning first: a model no channel serves is refused (404) before its price is looked
    // up or any quota is touched.
    const first = attempts.next();
    const prepared = new PreparedRequests(operation, invocation.request);
    let price: PriceConfig | undefined;
    let admission: RateAdmission = unlimitedAdmission;
    let reservation: Reservation;
    try {
      price = priceOfModel(this.config, model);
      const estimate = first.done === true ? invocation.estimate : this.#estimate(first.value.channel, invocation, prepared);
      // Rate limits before quota: a request over its limit touches no quota. They apply in the group it is routed in.
      const group = first.done === true ? (groups[0] ?? 'default') : first.value.group;
      if (this.limiter !== undefined) admission = await this.limiter.admit({ tokenId: token.id, group, operation, estimate, logger: invocation.logger });
      reservation = await this.ledger.reserve(token, this.#cost(price, estimate, groups[0] ?? 'default'));
    } catch (error) {
      // The planned channel is never called, so a half-open circuit gets its probe back.
      if (first.done !== true) this.breaker.release(first.value.channel.name);
      await admission.release();
      throw error;
    }
    let lastError: GatewayError | undefined;
    try {
      for (let step = first; step.done !== true; step = attempts.next()) {
        const stopped = this.#stopped(invocation);
        if (stopped !== undefined) {
          this.breaker.release(step.value.channel.name);
          lastError = stopped;
          break;
        }
        const outcome = await this.#attempt(step.value, invocation, prepared, price, reservation, admission, records);
        if (outcome.kind === 'answered') return outcome.result;
        lastError = outcome.error;
        if (!outcome.error.retryable || this.#stopped(invocation) !== undefined) break;
      }
    } catch (error) {
      lastError = GatewayError.is(error) ? error : new GatewayError(500, 'internal_error', 'the gateway failed to route the request', { cause: error });
    }
    const failure = invocation.clientSignal.aborted ? clientClosed() : (lastError ?? new GatewayError(502, 'upstream_error', 'no channel answered'));
    // A client that left while an upstream was working on its request pays for the prompt
    // (the upstream bills what it read); otherwise nothing was delivered and nothing counts.
    const abandoned = invocation.clientSignal.aborted ? records.find((record) => record.outcome === 'aborted') : undefined;
    const usage = abandoned === undefined ? undefined : promptOf(invocation.estimate);
    if (usage === undefined) await Promise.all([reservation.refund(), admission.settle(emptyUsage('estimated'))]);
    else {
      const units = this.#cost(price, usage, abandoned?.group ?? 'default');
      await Promise.all([reservation.settle(units), admission.settle(usage)]);
      this.observer?.settled({ model: invocation.model, inputTokens: usage.inputTokens, outputTokens: 0, units });
    }
    this.#log(invocation, records, { failure, usage });
    throw failure;
  }

  async #attempt(
    attempt: Attempt,
    invocation: OperationInvocation,
    prepared: PreparedRequests,
    price: PriceConfig | undefined,
    reservation: Reservation,
    admission: RateAdmission,
    records: AttemptRecord[],
  ): Promise<{ kind: 'answered'; result: InvocationOutcome } | { kind: 'failed'; error: GatewayError }> {
    const { channel, group } = attempt;
    const started = Date.now();
    const upstreamAbort = new AbortController();
    const abortUpstream = () => upstreamAbort.abort();
    invocation.clientSignal.addEventListener('abort', abortUpstream, { once: true });
    const forgetDeadline = this.inFlight?.onDeadline(abortUpstream);
    /** Stops listening for the client and the deadline: the attempt is over, or its answer is on its way. */
    const detach = () => {
      invocation.clientSignal.removeEventListener('abort', abortUpstream);
      forgetDeadline?.();
    };
    const record = (outcome: AttemptRecord['outcome'], error?: GatewayError) =>
      records.push({ channel: channel.name, group, outcome, status: error?.statusCode, code: error?.code, milliseconds: Date.now() - started });
    const fail = (error: unknown) => {
      detach();
      const stopped = this.#stopped(invocation);
      if (!GatewayError.is(error)) {
        // Provider code reports every upstream fault as a GatewayError; anything else it
        // throws is the gateway's own bug, which another channel would hit as well. It is no
        // mark against this channel: a client able to trigger it must not open the circuit.
        this.breaker.release(channel.name);
        const bug = internalError(error);
        record(stopped === undefined ? 'failed' : 'aborted', bug);
        return { kind: 'failed' as const, error: stopped ?? bug };
      }
      const gatewayError = error;
      if (stopped !== undefined) {
        this.breaker.release(channel.name);
        record('aborted', gatewayError);
        return { kind: 'failed' as const, error: stopped };
      }
      if (gatewayError.retryable) {
        this.breaker.recordFailure(channel.name);
        record('failed', gatewayError);
      } else {
        // The channel answered; the request itself was refused. That is no mark against the channel.
        this.breaker.recordSuccess(channel.name);
        record('refused', gatewayError);
      }
      return { kind: 'failed' as const, error: gatewayError };
    };

    let result: OperationResult;
    try {
      const handler = channel.provider.operations[invocation.operation] as OperationHandler<unknown>;
      result = await handler({
        request: prepared.of(channel),
        model: invocation.model,
        upstreamModel: channel.upstreamModel(invocation.model),
        stream: invocation.stream,
        channel: channel.context(),
        options: channel.options,
        signal: upstreamAbort.signal,
        requestId: invocation.requestId,
      });
    } catch (error) {
      return fail(error);
    }

    const settleFrom = async (usage: Usage) => {
      const units = this.#cost(price, usage, group);
      await Promise.all([reservation.settle(units), admission.settle(usage)]);
      this.observer?.settled({ model: invocation.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, units });
    };
    const succeed = () => {
      this.breaker.recordSuccess(channel.name);
      record('success');
    };
    if (result.kind === 'json') {
      detach();
      succeed();
      const body = result.body;
      const usage = usageOrEstimate(result.usage, invocation.estimate, invocation.request, () => (typeof body === 'string' ? body : JSON.stringify(body)).length);
      await settleFrom(usage);
      await this.#remember(result.affinityKey, channel, invocation);
      this.#log(invocation, records, { usage, status: result.status });
      return { kind: 'answered', result: { kind: 'json', status: result.status ?? 200, body: result.body, contentType: result.contentType } };
    }
    if (result.kind === 'bytes') {
      succeed();
      return { kind: 'answered', result: this.#relayBytes(result, invocation, records, detach, settleFrom) };
    }
    if (result.kind === 'task') {
      detach();
      succeed();
      this.#log(invocation, records, { end: 'accepted' });
      // The task settles when it finishes, maybe in another process: the hold goes with its record.
      return { kind: 'answered', result: { kind: 'task', accepted: result, channel: channel.name, group, hold: reservation.detach(), unitsIfSucceeded: this.#cost(price, result.usage, group) } };
    }
    if (result.kind === 'task-progress') return fail(new Error(`the provider answered ${invocation.operation} with a task's progress`));
    return this.#startStream(result, invocation, records, upstreamAbort, detach, settleFrom, fail, async (affinityKey) => {
      succeed();
      await this.#remember(affinityKey, channel, invocation);
    });
  }

  /**
   * The usage to reserve for: the family's own estimate of its prepared request when its
   * provider has one, else the route's. Preparing comes first, so the family refuses a
   * request it cannot take (in `prepare`, or a version 1 plugin's estimate) before any quota is touched.
   */
  #estimate(channel: Channel, invocation: OperationInvocation, prepared: PreparedRequests): Usage {
    const request = prepared.of(channel);
    const estimate = channel.provider.estimate?.[invocation.operation] as ((request: unknown) => Usage) | undefined;
    return estimate === undefined ? invocation.estimate : estimate(request);
  }

  /** The quota units `usage` costs for `model` in `group`; for tasks settled after their request ended. */
  costOf(model: string, usage: Usage, group: string): number {
    return this.#cost(priceOfModel(this.config, model), usage, group);
  }

  /**
   * Calls an operation on one named channel, without routing, quota or failover: how a task
   * is asked about on the channel that accepted it. Undefined when that channel is no longer
   * configured.
   */
  async callChannel(channelName: string, operation: OperationName, request: unknown, model: string, signal: AbortSignal, requestId: string): Promise<OperationResult | undefined> {
    const channel = this.channels.find((candidate) => candidate.name === channelName);
    const handler = channel?.provider.operations[operation] as OperationHandler<unknown> | undefined;
    if (channel === undefined || handler === undefined) return undefined;
    return handler({ request: new PreparedRequests(operation, request).of(channel), model, upstreamModel: channel.upstreamModel(model), stream: false, channel: channel.context(), options: channel.options, signal, requestId });
  }

  /** The channel an affinity key pins the request to, when the key is known. */
  async #pinnedChannel(affinityKey: string): Promise<PinnedChannel | undefined> {
    const name = await this.affinity.channelOf(affinityKey);
    return name === undefined ? undefined : { name, exclusive: this.config.routing.affinity.on_channel_down === 'fail' };
  }

  /**
   * Records which channel produced an answer's affinity key before the client can name it.
   * A failed write costs only the affinity of a later follow-up, so it is logged, not thrown.
   */
  async #remember(key: string | undefined, channel: Channel, invocation: OperationInvocation): Promise<void> {
    if (key === undefined) return;
    await this.affinity.remember(key, channel.name).catch((error: unknown) => invocation.logger.warn({ err: error, channel: channel.name }, 'could not record the channel of an answer'));
  }

  /**
   * Passes raw bytes through as they arrive. Their usage is known up front (speech bills the
   * input's characters), and is settled once the body is over, however it ends: the upstream
   * has done the work even when the client leaves early.
   */
  #relayBytes(
    result: BytesResult,
    invocation: OperationInvocation,
    records: AttemptRecord[],
    detach: () => void,
    settleFrom: (usage: Usage) => Promise<void>,
  ): InvocationOutcome {
    const readable = Readable.from(result.body, { objectMode: false });
    // Its usage is known up front, so its line is written now.
    this.#log(invocation, records, { usage: result.usage });
    finished(readable, () => {
      detach();
      void settleFrom(result.usage).catch((error: unknown) => invocation.logger.error({ err: error }, 'could not settle a streamed request'));
    });
    return { kind: 'bytes', contentType: result.contentType, readable };
  }

  async #startStream(
    result: StreamResult,
    invocation: OperationInvocation,
    records: AttemptRecord[],
    upstreamAbort: AbortController,
    detach: () => void,
    settleFrom: (usage: Usage) => Promise<void>,
    fail: (error: unknown) => { kind: 'failed'; error: GatewayError },
    succeed: (affinityKey: string | undefined) => Promise<void>,
  ): Promise<{ kind: 'answered'; result: InvocationOutcome } | { kind: 'failed'; error: GatewayError }> {
    const encoder = invocation.encoder;
    if (encoder === undefined) throw new Error('a streamed operation needs an encoder');
    let untrack: (() => void) | undefined;
    const pump = new StreamPump({
      body: result.body,
      splitter: new SseSplitter({ maxEventBytes: this.config.streaming.max_event_bytes }),
      decoder: result.decoder,
      encoder,
      keepaliveMilliseconds: this.config.streaming.keepalive_ms,
      abortUpstream: () => upstreamAbort.abort(),
      clientGone: () => invocation.clientSignal.aborted,
      onFinish: (outcome) => {
        untrack?.();
        detach();
        // A bug in the provider's decoder after the stream started: the client got a generic
        // error event, the log gets the stack.
        if (outcome.error?.code === 'internal_error') invocation.logger.error({ err: outcome.error.cause ?? outcome.error }, 'the gateway failed while relaying a stream');
        const usage = this.#streamUsage(outcome, invocation);
        this.#log(invocation, records, { usage, end: outcome.aborted ? 'client_gone' : (outcome.error?.code ?? 'completed') });
        void settleFrom(usage).catch((error: unknown) => invocation.logger.error({ err: error }, 'could not settle a streamed request'));
      },
    });
    let primed;
    try {
      primed = await pump.prime();
    } catch (error) {
      pump.abandon();
      return fail(error);
    }
    if (primed.kind === 'error') {
      pump.abandon();
      return fail(primed.error);
    }
    await succeed(pump.affinityKey);
    const readable = pump.readable();
    untrack = this.inFlight?.track(pump);
    return { kind: 'answered', result: { kind: 'stream', contentType: encoder.contentType, readable } };
  }

  #cost(price: PriceConfig | undefined, usage: Usage, group: string): number {
    return costUnits(price, usage, groupRatioOf(this.config, group));
  }

  /**
   * The usage to bill a stream by: the upstream's last report (gx reports cumulative usage on
   * every chunk, so an aborted stream still has its usage so far), else an estimate of the
   * prompt plus the model output that was sent, flagged as estimated.
   */
  #streamUsage(outcome: StreamOutcome, invocation: OperationInvocation): Usage {
    return usageOrEstimate(outcome.usage, invocation.estimate, invocation.request, () => outcome.outputCharacters);
  }

  /** Tells the observer how the request ended: answered (the headers of a stream), or its error. */
  #observe(invocation: OperationInvocation, startedAt: number, attempts: AttemptRecord[], failure: GatewayError | undefined): void {
    if (this.observer === undefined) return;
    // A model no channel serves is counted as `unknown`: made-up names must not each add a series.
    const served = attempts.length > 0 || this.channels.some((channel) => channel.serves(invocation.model, invocation.operation));
    this.observer.requestFinished({
      operation: invocation.operation,
      model: served ? invocation.model : 'unknown',
      channel: attempts.at(-1)?.channel ?? 'none',
      outcome: failure === undefined ? 'success' : failure.code,
      status: failure === undefined ? 200 : failure.statusCode,
      attempts,
      milliseconds: Date.now() - startedAt,
      streamed: invocation.stream,
      startedAt,
      requestId: invocation.requestId,
    });
  }

  /**
   * The request's one log line ({@link OperationInvocation.line}), written when it is over: a
   * stream's when it ends, with how it ended (`completed`, `client_gone`, or the error's code).
   * Its usage: the tokens billed, and whether they came from the upstream or the gateway's
   * estimate. A stream's status is the 200 its headers went out with.
   */
  #log(invocation: OperationInvocation, attempts: AttemptRecord[], ending: { failure?: GatewayError; usage?: Usage; end?: string; status?: number }): void {
    const { failure, usage } = ending;
    const fields = {
      model: invocation.model,
      operation: invocation.operation,
      stream: invocation.stream,
      token: invocation.token.id,
      attempts,
      ...(ending.end === undefined ? {} : { end: ending.end }),
      ...(usage === undefined ? {} : { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, usage_source: usage.source }),
    };
    if (failure === undefined) invocation.line.write('info', ending.status ?? 200, fields, 'model request answered');
    else invocation.line.write('warn', failure.statusCode, { ...fields, code: failure.code }, 'model request failed');
  }

}
