import { setTimeout as sleep } from 'node:timers/promises';
import type { ChannelContext, OperationCall, OperationName } from '../../contracts/provider/operation-call.js';
import type { OperationHandler, OperationResult, StreamResult } from '../../contracts/provider/operation-results.js';
import type { Provider } from '../../contracts/provider/provider.js';
import type { ProviderPlugin } from '../../contracts/provider/provider-plugin.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ScriptedBehaviour, ScriptedFake } from '../scripted-behaviour.js';
import { usageProblem } from './check-usage.js';
import { byteLength, releaseResult, resultProblem } from './check-result.js';
import { describeThrown, type CheckList } from './conformance-report.js';
import { clientRequestSchemas, refusalsPassedThrough, resultKinds } from './operation-kinds.js';
import { decodeFrames, firstContentFrame, readFrames, reportsError, streamOrderProblem } from './read-stream-result.js';

/** One request the suite sends through an operation. */
export interface ConformanceCase {
  /** The model the client asks for. */
  model: string;
  /** The model the channel's `model_map` turns it into, which the upstream is asked for; defaults to `model` (a channel that maps none). */
  upstreamModel?: string;
  /**
   * The client's request in the route's standard format; the route's schema (where core has
   * one) validates it first, so defaults apply as they would. Left out for a task query
   * (`video.status`, `video.content`, `video.moderation`), which asks about the task the
   * `video.submit` case started.
   */
  request?: unknown;
  /** Whether the client asked for a stream; defaults to the request's `stream: true`. */
  stream?: boolean;
  /** Tells cases of one operation apart in the report. */
  label?: string;
}

/** What a case runs against. */
export interface CaseSetting {
  checks: CheckList;
  plugin: ProviderPlugin;
  provider: Provider;
  options: unknown;
  channel: ChannelContext;
  upstream: ScriptedFake<ScriptedBehaviour>;
  /** How long a call may take to settle once aborted. */
  abortMilliseconds: number;
}

type Settled = { state: 'resolved'; value: OperationResult } | { state: 'rejected'; error: unknown } | { state: 'pending' };

async function settleWithin(promise: Promise<OperationResult>, milliseconds: number): Promise<Settled> {
  const timer = new AbortController();
  const settled = promise.then(
    (value): Settled => ({ state: 'resolved', value }),
    (error: unknown): Settled => ({ state: 'rejected', error }),
  );
  const outcome = await Promise.race([settled, sleep(milliseconds, { state: 'pending' } as Settled, { signal: timer.signal }).catch(() => ({ state: 'pending' }) as Settled)]);
  timer.abort();
  return outcome;
}

/** Waits until the upstream has received more than `count` requests, or `milliseconds` passed. */
async function upstreamReached(upstream: ScriptedFake<ScriptedBehaviour>, count: number, milliseconds: number): Promise<boolean> {
  for (const until = Date.now() + milliseconds; Date.now() < until; await sleep(5)) if (upstream.requests.length > count) return true;
  return upstream.requests.length > count;
}

/** Whether `error` is what an upstream's refusal (a 400) becomes on `operation`'s route: a 4xx, or the 502 of a route that passes refusals through; never retried. */
function refusalProblem(error: GatewayError, operation: OperationName): string | undefined {
  const clientError = error.statusCode >= 400 && error.statusCode <= 499;
  if (!clientError && !(refusalsPassedThrough.has(operation) && error.statusCode === 502)) return `status ${error.statusCode}`;
  return error.retryable ? 'retryable, but another channel would refuse it too' : undefined;
}

/** The error checks: an upstream answer, and the gateway error it must become. */
const statusMappings: Array<{ behaviour: ScriptedBehaviour; name: (operation: OperationName) => string; problem: (error: GatewayError, operation: OperationName) => string | undefined }> = [
  { behaviour: { error: 429 }, name: () => 'maps an upstream 429 to a retryable 429', problem: (error) => (error.statusCode !== 429 ? `status ${error.statusCode}` : !error.retryable ? 'not retryable' : undefined) },
  { behaviour: { error: 503 }, name: () => 'maps an upstream 503 to a retryable 5xx', problem: (error) => (error.statusCode < 500 ? `status ${error.statusCode}` : !error.retryable ? 'not retryable' : undefined) },
  {
    // On a channel serving a pattern a client names any model, and the upstream answers 404:
    // counted against the channel, made-up names would open its circuit for everyone.
    behaviour: { error: 404 },
    name: () => 'maps an upstream 404 to an error that is not the channel\'s fault (a model, task or file the client named)',
    problem: (error) => ((error.fault ?? (error.retryable ? 'channel' : 'request')) === 'channel' ? `fault "channel" (${error.code}): it would count toward the circuit; use upstreamModelUnknown or errorForUpstreamStatus` : undefined),
  },
  {
    behaviour: { error: 400 },
    name: (operation) => `maps an upstream 400 to ${refusalsPassedThrough.has(operation) ? 'a 4xx or the route\'s 502 pass-through' : 'a 4xx'} that is not retried`,
    problem: refusalProblem,
  },
];

/** The checks of one case; resolves with the task handle a `video.submit` case started. */
export async function checkCase(setting: CaseSetting, operation: OperationName, testCase: ConformanceCase, taskHandle: string | undefined): Promise<string | undefined> {
  const { checks, upstream } = setting;
  const stream = testCase.stream ?? (testCase.request as { stream?: unknown } | undefined)?.stream === true;
  const title = `${operation}${testCase.label !== undefined ? ` (${testCase.label})` : stream ? ' (stream)' : ''}`;
  const kinds = stream ? resultKinds[operation].streamed : resultKinds[operation].plain;
  if (kinds === undefined) {
    checks.fail(`${title}: the operation can answer this way`, `${operation} has no streamed form; drop stream from the case`);
    return undefined;
  }

  let request = testCase.request;
  if (request === undefined) {
    if (!checks.expect(`${title}: there is a task to ask about`, taskHandle === undefined ? 'the video.submit case did not answer a task' : undefined)) return undefined;
    request = { handle: taskHandle, model: testCase.model };
  } else {
    const schema = clientRequestSchemas[operation];
    const parsed = schema?.safeParse(request);
    if (parsed !== undefined && !checks.expect(`${title}: the case's request is one the route accepts`, parsed.success ? undefined : parsed.error.message)) return undefined;
    if (parsed?.success === true) request = parsed.data;
  }
  const prepare = setting.plugin.apiVersion === 2 ? (setting.plugin.prepare as Record<string, ((value: unknown) => unknown) | undefined> | undefined)?.[operation] : undefined;
  if (prepare !== undefined) {
    try {
      request = prepare(request);
    } catch (error) {
      checks.fail(`${title}: prepare() accepts the case's request`, `it threw ${describeThrown(error)}`);
      return undefined;
    }
  }
  const estimate = (setting.provider.estimate as Record<string, ((value: unknown) => unknown) | undefined> | undefined)?.[operation];
  if (estimate !== undefined) {
    try {
      checks.expect(`${title}: estimate() answers a usage to reserve`, usageProblem(estimate(request)));
    } catch (error) {
      checks.fail(`${title}: estimate() answers a usage to reserve`, `it threw ${describeThrown(error)}`);
    }
  }
  const handler = setting.provider.operations[operation] as OperationHandler<unknown>;
  const invoke = (signal: AbortSignal): Promise<OperationResult> => {
    const call: OperationCall<unknown> = { request, model: testCase.model, upstreamModel: testCase.upstreamModel ?? testCase.model, stream, channel: setting.channel, options: setting.options, signal, requestId: 'conformance-request' };
    return Promise.resolve().then(() => handler(call));
  };
  const neverAborted = new AbortController().signal;

  // The recorded answer: the result's kind and fields, its usage, a stream's order.
  let handle: string | undefined;
  let result: OperationResult | undefined;
  try {
    result = await invoke(neverAborted);
    if (operation === 'video.status') result = await pollUntilDone(result, invoke, neverAborted);
  } catch (error) {
    checks.fail(`${title}: answers the recorded upstream answer`, `it threw ${describeThrown(error)}`);
  }
  if (result !== undefined) {
    const kindOk = checks.expect(`${title}: answers a result of kind ${kinds.join(' or ')}`, kinds.includes(result.kind) ? resultProblem(result) : `answered kind ${JSON.stringify(result.kind)}`, result.kind);
    if (kindOk && result.kind === 'task') handle = result.handle;
    if (kindOk && result.kind === 'task-progress') checks.expect(`${title}: the recorded task ends succeeded`, result.status === 'succeeded' ? undefined : `last status ${result.status}${result.error === undefined ? '' : ` (${result.error.message})`}`);
    if (kindOk && result.kind === 'bytes') {
      const length = await byteLength(result).catch((error: unknown) => describeThrown(error));
      checks.expect(`${title}: the bytes can be read to their end`, typeof length === 'string' ? length : length === 0 ? 'the body is empty' : undefined, `${length} bytes`);
    } else if (kindOk && result.kind === 'stream') await checkStream(setting, title, result, invoke);
    else await releaseResult(result);
  }

  // Upstream failures: a gateway error of the right status and retryability, never a crash.
  for (const mapping of statusMappings) {
    const outcome = await failedCall(setting, invoke, mapping.behaviour);
    checks.expect(`${title}: ${mapping.name(operation)}`, GatewayError.is(outcome) ? mapping.problem(outcome, operation) : outcome);
  }
  if (!kinds.includes('bytes')) {
    const outcome = await failedCall(setting, invoke, { status: 200, body: '<html>not what the upstream speaks</html>', headers: { 'content-type': 'text/html' } });
    checks.expect(`${title}: reports a malformed upstream answer as a 5xx gateway error`, GatewayError.is(outcome) ? (outcome.statusCode < 500 ? `status ${outcome.statusCode}: the client's request was fine, the channel failed` : undefined) : outcome);
  }

  // Abort: the call stops as soon as its signal aborts, whatever the upstream does.
  checks.expect(`${title}: stops with a gateway error when aborted while the upstream is silent`, await abortedCall(setting, invoke));
  return handle;
}

/** Asks again (a fresh handle answer each time) until the task ends or 40 questions were asked. */
async function pollUntilDone(first: OperationResult, invoke: (signal: AbortSignal) => Promise<OperationResult>, signal: AbortSignal): Promise<OperationResult> {
  let result = first;
  for (let polls = 1; polls < 40 && result.kind === 'task-progress' && (result.status === 'queued' || result.status === 'in_progress'); polls += 1) {
    await sleep(25);
    result = await invoke(signal);
  }
  return result;
}

/** Calls with `behaviour` scripted for the upstream: resolves with the gateway error the call failed with, or a sentence saying what happened instead. */
async function failedCall(setting: CaseSetting, invoke: (signal: AbortSignal) => Promise<OperationResult>, behaviour: ScriptedBehaviour): Promise<GatewayError | string> {
  setting.upstream.next(behaviour);
  let result: OperationResult;
  try {
    result = await invoke(new AbortController().signal);
  } catch (error) {
    return GatewayError.is(error) ? error : `threw ${describeThrown(error)} instead of a GatewayError (the gateway would answer 500)`;
  }
  if (result.kind === 'stream') {
    // A stream that started may report the failure in-band instead; its error output is the gateway error.
    const decoded = decodeFrames(result, await readFrames(result).catch(() => []));
    const failure = decoded.outputs.flat().find((output) => output.type === 'error');
    if (failure?.type === 'error') return failure.error;
    return decoded.thrown !== undefined ? `the decoder ${decoded.thrown}` : 'answered a stream that decodes without an error';
  }
  await releaseResult(result);
  return `answered a ${result.kind} result as if the upstream had succeeded`;
}

async function abortedCall(setting: CaseSetting, invoke: (signal: AbortSignal) => Promise<OperationResult>): Promise<string | undefined> {
  const before = setting.upstream.requests.length;
  // Silent past the wait for the abort, then it answers, so a call that ignores its signal still ends.
  setting.upstream.next({ stallBeforeHeadersMs: setting.abortMilliseconds + 500 });
  const controller = new AbortController();
  const call = invoke(controller.signal);
  if (!(await upstreamReached(setting.upstream, before, 5_000))) {
    setting.upstream.reset();
    const early = await settleWithin(call, 1);
    if (early.state === 'resolved') await releaseResult(early.value);
    return `the call never reached the upstream (${early.state === 'rejected' ? describeThrown(early.error) : early.state})`;
  }
  controller.abort();
  const settled = await settleWithin(call, setting.abortMilliseconds);
  if (settled.state === 'pending') return `still running ${setting.abortMilliseconds} ms after its signal aborted; pass call.signal to every upstream request`;
  if (settled.state === 'resolved') {
    await releaseResult(settled.value);
    return `answered a ${settled.value.kind} result though its signal aborted`;
  }
  return GatewayError.is(settled.error) ? undefined : `threw ${describeThrown(settled.error)} instead of a GatewayError`;
}

/** A stream's checks: its recorded frames decode in order, a cut stream is an error, and an abort mid-stream ends the body. */
async function checkStream(setting: CaseSetting, title: string, result: StreamResult, invoke: (signal: AbortSignal) => Promise<OperationResult>): Promise<void> {
  const { checks } = setting;
  let decoded;
  try {
    decoded = decodeFrames(result, await readFrames(result));
  } catch (error) {
    checks.fail(`${title}: the stream's body can be read to its end`, describeThrown(error));
    return;
  }
  if (!checks.expect(`${title}: decodes the recorded stream in order: model output, no error, nothing after the end`, streamOrderProblem(decoded), `${decoded.frames.length} frames`)) return;
  const usages = decoded.outputs.flat().filter((output) => output.type === 'usage');
  const usageFailure = usages.map((output) => (output.type === 'usage' ? usageProblem(output.usage) : undefined)).find((problem) => problem !== undefined);
  checks.expect(`${title}: every usage the stream reports is valid`, usageFailure, `${usages.length} usage outputs`);

  // A stream cut right after its first model output must not pass for a whole answer.
  const first = firstContentFrame(decoded);
  const cut = await invoke(new AbortController().signal).catch((error: unknown) => describeThrown(error));
  if (typeof cut === 'string' || cut.kind !== 'stream') {
    checks.fail(`${title}: a stream cut after its first model output ends in an error`, typeof cut === 'string' ? `the second call threw ${cut}` : `the second call answered ${cut.kind}`);
  } else {
    const frames = await readFrames(cut);
    const problem = first >= frames.length - 1 ? 'the recorded stream carries model output only in its last frame; record one with output in two frames or more' : reportsError(decodeFrames(cut, frames, first + 1).outputs) ? undefined : 'the decoder ended it as a complete answer; report upstreamStreamTruncated() (or your own error) from end() when the end marker never came';
    checks.expect(`${title}: a stream cut after its first model output ends in an error`, problem);
  }

  // An abort in the middle of the stream ends the body being read.
  const before = setting.upstream.requests.length;
  setting.upstream.next({ stallAfterChunks: 1, stallMs: setting.abortMilliseconds + 500 });
  const controller = new AbortController();
  const started = await invoke(controller.signal).catch((error: unknown) => describeThrown(error));
  if (typeof started === 'string' || started.kind !== 'stream') {
    if (setting.upstream.requests.length === before) setting.upstream.reset();
    checks.fail(`${title}: stops reading when aborted in the middle of the stream`, typeof started === 'string' ? `the call threw ${started}` : `the call answered ${started.kind}`);
    return;
  }
  const reader = started.body[Symbol.asyncIterator]();
  await reader.next().catch(() => undefined);
  controller.abort();
  const rest = (async () => {
    try {
      while ((await reader.next()).done !== true);
      return undefined;
    } catch {
      return undefined;
    }
  })();
  const ended = await Promise.race([rest.then(() => true), sleep(setting.abortMilliseconds, false)]);
  checks.expect(`${title}: stops reading when aborted in the middle of the stream`, ended ? undefined : `the body was still open ${setting.abortMilliseconds} ms after the signal aborted; give the upstream request call.signal`);
}
