import type { OperationResults } from '../contracts/operation-results.js';
import type { JsonResult, StreamResult } from '../contracts/provider/operation-results.js';
import type { Usage } from '../contracts/usage.js';
import { contentFiltered } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { StreamOutcome, StreamPumpParts } from '../streaming/stream-pump.js';
import { ChannelAttempt } from './channel-attempt.js';
import type { InvocationOutcome, OperationInvocation, PipelineOperation } from './operation-invocation.js';
import type { GatewayConfig } from '../config/config-schema.js';
import type { PipelineServices } from './pipeline-services.js';
import { createRequestContext, type RequestContext } from './request-context.js';
import { admitConcurrency } from './steps/admit-concurrency.js';
import { admitRate } from './steps/admit-rate.js';
import { usageOfAnswer, usageOfStream } from './steps/answer-usage.js';
import { authorizeModel } from './steps/authorize-model.js';
import { callChannel } from './steps/call-channel.js';
import { conversationHold, expandConversation, rememberConversation } from './steps/continue-conversation.js';
import { detachHold } from './steps/detach-hold.js';
import { fallBack, planFallbacks } from './steps/fall-back.js';
import { answerKeptRefusal, keepRefusal, refusalFallsBack, refusalServed, releaseKeptRefusal } from './steps/keep-refusal.js';
import { attemptFailed, attemptSucceeded } from './steps/mark-attempt.js';
import { observeRequest } from './steps/observe-request.js';
import { nextAttempt, planRoute } from './steps/plan-route.js';
import { prepareAndEstimate } from './steps/prepare-and-estimate.js';
import { priceRequest } from './steps/price-request.js';
import { recordUsage } from './steps/record-usage.js';
import { primeStream, relayBytes, type PrimedStream } from './steps/relay-answer.js';
import { releaseAdmission } from './steps/release-admission.js';
import { rememberAffinity } from './steps/remember-affinity.js';
import { reserveQuota } from './steps/reserve-quota.js';
import { settle, settleInBackground } from './steps/settle.js';
import { settleFailure } from './steps/settle-failure.js';
import { clientClosed, stopReason } from './steps/stop-reason.js';
import { translatedBody, translatedStream } from './steps/translate-answer.js';
import { translateRequest, type ChannelRequest } from './steps/translate-request.js';
import type { Translator } from '../contracts/translator.js';
import { writeLogLine } from './steps/write-log-line.js';

/** How one try ended: the answer to send, or why the channel did not give one. */
type TryOutcome = { kind: 'answered'; result: InvocationOutcome } | { kind: 'failed'; error: GatewayError };

/**
 * A model request after auth, as the steps in `core/pipeline/steps/` it runs in this order
 * (`#steps` below), each on the request's {@link RequestContext}:
 *
 * 1. authorize the model (the token's model limits; an alias is routed as the model it stands for),
 *    and list its fallbacks (the request's `models`, else the config's `fallbacks`)
 * 2. plan the route (groups, affinity, the channels to try; the first is planned now)
 * 3. price, 4. prepare and estimate (a Responses request for a translated channel is first
 *    expanded with the conversation it continues), 5. rate limits and concurrency limits, 6. reserve quota
 * 7. per channel, in routing order: translate, call, then the answer (a translated Responses
 *    answer's conversation is kept for its follow-ups): a JSON body is settled
 *    at once; bytes and streams are settled once their sending has ended (`#whenSent`); a
 *    task detaches its hold to the task record
 * 8. when no channel of the model answered with a retryable error (or, with `fallbacks_on:
 *    [content_filter]`, it refused: a content-filter stop before any content, kept meanwhile,
 *    `steps/keep-refusal.ts`): the next fallback model, planned and tried as in 7 (translated
 *    afresh for its family), at its own price
 * 9. when no channel answered: the kept refusal, if any, is the answer; else settle the
 *    failure (refund, or a departed client's prompt)
 * 10. the one log line and the usage record (a task's record waits for its settlement), and
 *    the observer (metrics, traces)
 *
 * A retryable failure before the first byte reaches the client (connect error, timeout, 429,
 * 5xx, an error frame before any content) moves on to the next channel; a client error does
 * not. Settlement happens exactly once.
 */
export class ModelRequestPipeline {
  /** `state.current`: the services in force (see `GatewayState`), read once when a request starts. */
  constructor(private readonly state: { readonly current: PipelineServices }) {}

  /** The config in force now; routes read it for what they do before the pipeline runs (estimates). */
  get config(): GatewayConfig {
    return this.state.current.config;
  }

  async run(invocation: OperationInvocation): Promise<InvocationOutcome> {
    // The one read of the state: the request finishes on these services whatever a reload swaps in.
    const services = this.state.current;
    const context = createRequestContext(invocation, services, services.catalog.resolve(invocation.model));
    const end = services.inFlight?.begin();
    try {
      const result = await this.#steps(context);
      observeRequest(context, services, undefined);
      return result;
    } catch (error) {
      const failure = GatewayError.is(error) ? error : new GatewayError(500, 'internal_error', 'the gateway failed');
      observeRequest(context, services, failure);
      // However it failed, its concurrency slot is free (a no-op when a step freed it already).
      void context.slot.release();
      // Refused before any attempt (model, limits, quota): its line and record are written here.
      if (!context.invocation.line.written) {
        context.failure ??= failure;
        this.#over(context);
      }
      throw error;
    } finally {
      end?.();
    }
  }

  /** The steps of a model request, in order. */
  async #steps(context: RequestContext): Promise<InvocationOutcome> {
    const { services } = context;
    authorizeModel(context.token, context.requestedModel, context.model);
    planFallbacks(context, services);
    await planRoute(context, services);
    try {
      priceRequest(context, services.config);
      if (context.firstAttempt !== undefined) await expandConversation(context, services, context.firstAttempt.channel);
      prepareAndEstimate(context);
      await admitRate(context, services);
      await admitConcurrency(context, services);
      await reserveQuota(context, services);
    } catch (error) {
      await releaseAdmission(context, services);
      throw error;
    }
    context.result = await this.#tryChannels(context);
    while (context.result === undefined && context.failure !== undefined && (await this.#fallBack(context))) context.result = await this.#tryChannels(context);
    // Nearly every request has no kept refusal: one field read.
    if (context.refusal !== undefined) {
      if (context.result === undefined) context.result = await answerKeptRefusal(context);
      else releaseKeptRefusal(context);
    }
    if (context.result !== undefined) return context.result;
    await settleFailure(context, services);
    this.#over(context);
    throw context.failure;
  }

  /** Moves on to the next fallback model after a retryable failure; false when none is left (or planning it failed, which becomes the failure). */
  async #fallBack(context: RequestContext): Promise<boolean> {
    const failure = context.failure as GatewayError;
    // A blocked prompt is kept as the answer, should no fallback do better.
    if (failure.code === 'prompt_blocked' && refusalFallsBack(context, context.services)) keepRefusal(context, { error: failure });
    try {
      return await fallBack(context, context.services, failure);
    } catch (error) {
      context.failure = GatewayError.is(error) ? error : new GatewayError(500, 'internal_error', 'the gateway failed to route the request', { cause: error });
      return false;
    }
  }

  /** Tries the planned channels in order until one answers; undefined, with `context.failure` set, when none did. */
  async #tryChannels(context: RequestContext): Promise<InvocationOutcome | undefined> {
    let lastError: GatewayError | undefined;
    try {
      for (let planned = context.firstAttempt; planned !== undefined; planned = nextAttempt(context)) {
        const stopped = stopReason(context, context.services);
        if (stopped !== undefined) {
          context.services.breaker.release(planned.channel.name);
          lastError = stopped;
          break;
        }
        const outcome = await this.#try(context, new ChannelAttempt(planned, context.invocation.clientSignal, context.services.inFlight));
        if (outcome.kind === 'answered') return outcome.result;
        lastError = outcome.error;
        if (!outcome.error.retryable || stopReason(context, context.services) !== undefined) break;
      }
    } catch (error) {
      lastError = GatewayError.is(error) ? error : new GatewayError(500, 'internal_error', 'the gateway failed to route the request', { cause: error });
    }
    context.failure = context.invocation.clientSignal.aborted ? clientClosed() : (lastError ?? new GatewayError(502, 'upstream_error', 'no channel answered'));
    return undefined;
  }

  /** One channel: translate, call, and deliver its answer by its kind (translated back to the client's format when a translator served it). */
  async #try(context: RequestContext, attempt: ChannelAttempt): Promise<TryOutcome> {
    const { services } = context;
    let channelRequest: ChannelRequest;
    let result: OperationResults[PipelineOperation];
    try {
      await expandConversation(context, services, attempt.channel);
      channelRequest = translateRequest(context, attempt.channel);
      attempt.translator = channelRequest.translator?.name;
      result = await callChannel(context, attempt, channelRequest);
    } catch (error) {
      return { kind: 'failed', error: attemptFailed(context, services, attempt, error) };
    }
    const { translator } = channelRequest;
    switch (result.kind) {
      case 'json': {
        const usage = usageOfAnswer(context, result.usage, result.body);
        let body = result.body;
        if (translator !== undefined) {
          try {
            body = translatedBody(context, { ...channelRequest, translator }, result, usage);
          } catch (error) {
            return { kind: 'failed', error: attemptFailed(context, services, attempt, error) };
          }
        }
        // A refusal is answered only when no fallback model does better (`keep-refusal.ts`).
        if (result.contentFiltered === true && refusalFallsBack(context, services)) {
          return this.#refused(context, attempt, (served) => this.#answerJson(context, attempt, result, translator, body, usage, served));
        }
        return { kind: 'answered', result: await this.#answerJson(context, attempt, result, translator, body, usage) };
      }
      case 'bytes': {
        attemptSucceeded(context, services, attempt);
        // Its usage is known up front, whatever the client reads of it: its line is written
        // now, as a JSON answer's is; it is settled, and its usage recorded, once the body is over.
        context.usage = result.usage;
        writeLogLine(context);
        const relayed = relayBytes(result, context);
        void this.#whenSent(context, attempt, relayed.ended, 'logged');
        return { kind: 'answered', result: { kind: 'bytes', contentType: result.contentType, readable: relayed.readable } };
      }
      case 'task':
        attempt.detach();
        attemptSucceeded(context, services, attempt);
        // Recorded when the task settles (the task service), not now.
        return { kind: 'answered', result: detachHold(context, services, attempt, result) };
      case 'stream': {
        if (translator === undefined) return this.#stream(context, attempt, result);
        let translated: StreamResult;
        try {
          translated = translatedStream(context, { ...channelRequest, translator }, result);
        } catch (error) {
          void result.body.dump().catch(() => {});
          return { kind: 'failed', error: attemptFailed(context, services, attempt, error) };
        }
        return this.#stream(context, attempt, translated, conversationHold(context, services));
      }
    }
  }

  /**
   * A JSON answer (`body` in the client's format): settled at once, then sent. `served` is
   * the refused attempt's record when a kept refusal is answered after all; else the attempt
   * is recorded as the one that served now.
   */
  async #answerJson(context: RequestContext, attempt: ChannelAttempt, result: JsonResult, translator: Translator | undefined, body: unknown, usage: Usage, served?: number): Promise<InvocationOutcome> {
    const { services } = context;
    // Kept beside the settlement, so the store commits both together; the answer waits for
    // both, so a follow-up naming it finds its conversation.
    const remembered = translator === undefined ? undefined : rememberConversation(context, services, body);
    attempt.detach();
    if (served === undefined) attemptSucceeded(context, services, attempt);
    else refusalServed(context, attempt, served);
    context.usage = usage;
    await settle(context, services, attempt.group);
    await remembered;
    await rememberAffinity(context, services, attempt, result.affinityKey);
    this.#over(context, undefined, result.status);
    return { kind: 'json', status: result.status ?? 200, body, contentType: translator === undefined ? result.contentType : undefined };
  }

  /**
   * The upstream refused (`fallbacks_on: [content_filter]`, a fallback model left): the attempt
   * is recorded as refused (`content_filtered`, the reason the next model is tried), and its
   * answer kept, `deliver` sending it should no fallback answer.
   */
  #refused(context: RequestContext, attempt: ChannelAttempt, deliver: (served: number) => Promise<InvocationOutcome>, release?: () => void): TryOutcome {
    const error = attemptFailed(context, context.services, attempt, contentFiltered());
    // The client left, or the gateway is stopping: that is the failure, and nothing is kept.
    if (error.code !== 'content_filtered') {
      release?.();
      return { kind: 'failed', error };
    }
    const record = context.attempts.length - 1;
    keepRefusal(context, { deliver: () => deliver(record), release });
    return { kind: 'failed', error };
  }

  /**
   * A stream: primed on this channel (or failed over), then sent; settled once it has ended
   * (`#whenSent`). `holdBefore` holds an event back until what it waits for is done (a
   * translated Responses stream's terminal event, until its conversation is stored).
   */
  async #stream(context: RequestContext, attempt: ChannelAttempt, result: StreamResult, holdBefore?: StreamPumpParts['holdBefore']): Promise<TryOutcome> {
    const primed = await primeStream(context, context.services, attempt, result, holdBefore);
    if (primed.kind === 'failed') return { kind: 'failed', error: attemptFailed(context, context.services, attempt, primed.failure) };
    // A refusal read to its end, nothing sent: the next fallback model may answer instead.
    if (primed.refused && refusalFallsBack(context, context.services)) {
      return this.#refused(
        context,
        attempt,
        async (served) => (await this.#send(context, attempt, primed, served)).result,
        () => primed.pump.abandon(),
      );
    }
    return this.#send(context, attempt, primed);
  }

  /** A primed stream sent to the client (`served` as for {@link #answerJson}). */
  async #send(context: RequestContext, attempt: ChannelAttempt, primed: PrimedStream, served?: number): Promise<{ kind: 'answered'; result: InvocationOutcome }> {
    if (served === undefined) attemptSucceeded(context, context.services, attempt);
    else refusalServed(context, attempt, served);
    context.timings.firstByteAt = Date.now();
    await rememberAffinity(context, context.services, attempt, primed.pump.affinityKey);
    const readable = primed.pump.readable();
    attempt.track(primed.pump);
    void this.#whenSent(context, attempt, primed.pump.ended);
    return { kind: 'answered', result: { kind: 'stream', contentType: primed.contentType, readable } };
  }

  /**
   * An answer sent as it arrives (a stream, bytes) is over, however it ended: settle it on
   * what it delivered. A stream's usage is what it reported (or an estimate of what it sent),
   * so its log line and usage record are written here too, with how it ended; bytes had their
   * usage and line when answered (`logged`) and get their record here, once charged. The pump
   * and the byte relay only report how their sending ended.
   */
  async #whenSent(context: RequestContext, attempt: ChannelAttempt, ended: Promise<StreamOutcome>, line: 'to write' | 'logged' = 'to write'): Promise<void> {
    const outcome = await ended;
    attempt.detach();
    // A bug in the provider's decoder after the stream started: the client got a generic
    // error event, the log gets the stack.
    if (outcome.error?.code === 'internal_error') context.invocation.logger.error({ err: outcome.error.cause ?? outcome.error }, 'the gateway failed while relaying a stream');
    const end = outcome.aborted ? 'client_gone' : (outcome.error?.code ?? 'completed');
    if (line === 'to write') context.usage = usageOfStream(context, outcome);
    // Settled first: its charge (computed at once, written in the background) is the record's quota.
    settleInBackground(context, context.services, attempt.group);
    if (line === 'to write') this.#over(context, end);
    else recordUsage(context, context.services, end);
  }

  /** The request is over: its log line, and its record in the usage log. */
  #over(context: RequestContext, end?: string, status?: number): void {
    writeLogLine(context, end, status);
    recordUsage(context, context.services, end, status);
  }
}
