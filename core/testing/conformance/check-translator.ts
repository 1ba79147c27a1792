import { isDeepStrictEqual } from 'node:util';
import type { OperationName } from '../../contracts/provider/operation-call.js';
import type { StreamOutput } from '../../contracts/stream-decoder.js';
import type { TranslationContext, Translator } from '../../contracts/translator.js';
import type { Usage } from '../../contracts/usage.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { clientUsageReaders, servedToolCallIds, type UsageReader } from './client-usage-readers.js';
import { describeThrown, type CheckList } from './conformance-report.js';
import { clientRequestSchemas } from './operation-kinds.js';

/** One client request the translator suite sends through a translator, with the served answers it translates back. */
export interface TranslatorCase {
  /** Tells cases apart in the report. */
  label?: string;
  /** The client's request in its route's format; the route's schema (where core has one) validates it first, defaults and all. */
  request: unknown;
  /** Whether the client asked for a stream; defaults to the request's `stream: true`. */
  stream?: boolean;
  /** A recorded JSON answer of the served operation, and the usage the gateway bills for it. */
  answer?: { body: unknown; usage: Usage };
  /** A recorded stream of the served operation as its provider's decoder outputs it (`decodeRecordedStream`). */
  streamed?: { outputs: StreamOutput[] };
}

/** The context every case is translated in: fixed, so ids derived from it are the same on every run. */
export const conformanceContext = (model: string, stream: boolean): TranslationContext => ({ model, requestId: 'conformance-request', createdSeconds: 1_700_000_000, stream });

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
const sum = (outputs: readonly StreamOutput[]): number =>
  outputs.reduce((total, output) => total + (output.type === 'event' ? (output.outputCharacters ?? (output.content ? output.data.length : 0)) : 0), 0);
const events = (outputs: readonly StreamOutput[]) => outputs.filter((output): output is Extract<StreamOutput, { type: 'event' }> => output.type === 'event');

/** An event as an upstream's text passed on: without the object the gateway built it from. */
const textOnly = (output: Extract<StreamOutput, { type: 'event' }>): StreamOutput => {
  const { value: _value, ...rest } = output;
  return { ...rest, data: output.data };
};

/** What is wrong with a translation's outputs as the pump would read them, or undefined. */
function outputsProblem(outputs: unknown): string | undefined {
  if (!Array.isArray(outputs)) return `answered ${typeof outputs}, not an array of outputs (a translation is synchronous)`;
  for (const output of outputs as StreamOutput[]) {
    if (!['event', 'usage', 'affinity', 'error'].includes((output as { type?: unknown })?.type as string)) return `an output of unknown type: ${JSON.stringify(output)}`;
    if (output.type !== 'event') continue;
    if (typeof output.data !== 'string' || typeof output.content !== 'boolean') return `an event needs data as text and content as a boolean: ${JSON.stringify(output)}`;
    if (output.data !== '[DONE]') {
      let json: unknown;
      try {
        json = JSON.parse(output.data);
      } catch {
        return `an event's data is not JSON text: ${output.data.slice(0, 120)}`;
      }
      if (output.value !== undefined && !isDeepStrictEqual(plain(output.value), json)) return `an event's value is not the object its data is the JSON of: ${output.data.slice(0, 120)}`;
    }
    if ((output.outputCharacters ?? 0) > 0 && !output.content) return `an event carries ${output.outputCharacters} characters of model output but content: false, so the gateway could fail over after sending it: ${output.data.slice(0, 120)}`;
  }
  return undefined;
}

/** The checks of one case; `readUsage` reads the client format's usage when core knows no reader for it. */
export function checkTranslatorCase(checks: CheckList, translator: Translator, testCase: TranslatorCase, readUsage: UsageReader | undefined): void {
  let request = testCase.request;
  const stream = testCase.stream ?? (request as { stream?: unknown } | undefined)?.stream === true;
  const title = `${translator.client}${testCase.label !== undefined ? ` (${testCase.label})` : stream ? ' (stream)' : ''}`;
  const clientSchema = clientRequestSchemas[translator.client];
  const parsedClient = clientSchema?.safeParse(request);
  if (parsedClient !== undefined && !checks.expect(`${title}: the case's request is one the client's route accepts`, parsedClient.success ? undefined : parsedClient.error.message)) return;
  if (parsedClient?.success === true) request = parsedClient.data;
  const model = String((request as { model?: unknown } | undefined)?.model ?? 'conformance-model');
  const context = conformanceContext(model, stream);

  // The request: one of the served operations, in a form the served route accepts, pure.
  const before = plain(request);
  let translated: ReturnType<Translator['request']>;
  try {
    translated = translator.request(request as never, context);
  } catch (error) {
    const refusal = GatewayError.is(error) && error.statusCode === 400 ? ` (a refusal: put a request it can say in the case, and test refusals on their own)` : '';
    checks.fail(`${title}: request() maps the request`, `it threw ${describeThrown(error)}${refusal}`);
    return;
  }
  const operation = translated?.operation;
  if (!checks.expect(`${title}: request() maps it to one of the operations it serves`, translator.served.includes(operation as never) ? undefined : `it answered ${JSON.stringify(operation)}; served is ${translator.served.join(', ')}`, operation)) return;
  const servedSchema = clientRequestSchemas[operation as OperationName];
  const parsedServed = servedSchema?.safeParse(translated.request);
  checks.expect(`${title}: the served request is one the ${operation} route accepts`, parsedServed === undefined || parsedServed.success ? undefined : parsedServed.error.message);
  checks.expect(`${title}: the served request asks for a stream exactly when the client did`, streamProblem(operation as OperationName, translated.request, stream));
  let again: unknown;
  try {
    again = translator.request(request as never, context);
  } catch (error) {
    again = describeThrown(error);
  }
  checks.expect(
    `${title}: request() is pure: the same request maps the same way, and the client's request is left as it was`,
    !isDeepStrictEqual(plain(again), plain(translated)) ? 'a second call mapped it differently' : !isDeepStrictEqual(plain(request), before) ? 'the client\'s request was changed' : undefined,
  );

  if (testCase.answer !== undefined) checkAnswer(checks, title, translator, operation as OperationName, context, request, testCase.answer, readUsage ?? clientUsageReaders[translator.client]);
  if (testCase.streamed !== undefined) checkStream(checks, title, translator, operation as OperationName, context, request, testCase.streamed.outputs);
}

/** Whether the served request's own stream fields agree with the client's ask; a served chat stream must also ask for usage, which billing needs. */
function streamProblem(operation: OperationName, served: unknown, stream: boolean): string | undefined {
  const fields = (typeof served === 'object' && served !== null ? served : {}) as { stream?: unknown; stream_options?: { include_usage?: unknown } | null };
  if (!stream) return fields.stream === true ? 'the client asked for a whole answer, the served request for a stream' : undefined;
  if (operation === 'chat' || operation === 'responses') {
    if (fields.stream !== true) return 'the client asked for a stream; set stream: true on the served request';
    if (operation === 'chat' && fields.stream_options?.include_usage !== true) return 'a served chat stream reports usage only with stream_options.include_usage: true';
  }
  return undefined;
}

function checkAnswer(checks: CheckList, title: string, translator: Translator, operation: OperationName, context: TranslationContext, request: unknown, answer: NonNullable<TranslatorCase['answer']>, readUsage: UsageReader | undefined): void {
  const translate = () => translator.answer(structuredClone(answer.body), { ...answer.usage }, operation as never, context, request as never);
  let body: unknown;
  try {
    body = translate();
    JSON.stringify(body);
  } catch (error) {
    checks.fail(`${title}: answer() gives a JSON body in the client's format`, `it threw ${describeThrown(error)}`);
    return;
  }
  checks.expect(`${title}: answer() gives a JSON body in the client's format`, typeof body === 'object' && body !== null ? undefined : `it answered ${JSON.stringify(body)}`);
  const answeredModel = (body as { model?: unknown }).model;
  checks.expect(`${title}: the answer names the client's model`, answeredModel === undefined || answeredModel === context.model ? undefined : `model ${JSON.stringify(answeredModel)}, not ${JSON.stringify(context.model)}`);
  if (readUsage === undefined) checks.fail(`${title}: the answer's usage is the billed usage, exactly`, `the suite reads no usage of ${translator.client} answers; pass readUsage`);
  else {
    const stated = readUsage(body);
    const billed = { inputTokens: answer.usage.inputTokens, cachedInputTokens: answer.usage.cachedInputTokens, outputTokens: answer.usage.outputTokens, reasoningTokens: answer.usage.reasoningTokens };
    checks.expect(`${title}: the answer's usage is the billed usage, exactly`, isDeepStrictEqual(stated, billed) ? undefined : `it states ${JSON.stringify(stated)}, the gateway bills ${JSON.stringify(billed)}`);
  }
  const ids = servedToolCallIds[operation]?.(answer.body) ?? [];
  const text = JSON.stringify(body);
  const lost = ids.filter((id) => !text.includes(JSON.stringify(id)));
  checks.expect(`${title}: the answer keeps the served tool call ids`, lost.length === 0 ? undefined : `lost ${lost.join(', ')}: the client could not send those calls' results back`, ids.length === 0 ? 'the recording calls no tool' : ids.join(', '));
  let second: unknown;
  try {
    second = translate();
  } catch (error) {
    second = describeThrown(error);
  }
  checks.expect(`${title}: answer() is pure: the same answer translates the same way`, isDeepStrictEqual(plain(second), plain(body)) ? undefined : 'a second call answered differently (ids must derive from the context, not from a clock or a random source)');
}

/** Runs a fresh translation over `outputs`, as the gateway does: each push's outputs, then end()'s unless the stream failed, or what it threw. */
function runTranslation(translator: Translator, operation: OperationName, context: TranslationContext, request: unknown, outputs: readonly StreamOutput[], ended = true): { batches: StreamOutput[][]; thrown?: string } {
  const batches: StreamOutput[][] = [];
  try {
    if (translator.stream === undefined) return { batches, thrown: 'the translator has no stream()' };
    const translation = translator.stream(operation as never, context, request as never);
    for (const output of outputs) batches.push(translation.push(output));
    if (ended) batches.push(translation.end());
    return { batches };
  } catch (error) {
    return { batches, thrown: `${batches.length < outputs.length ? `push() of output ${batches.length}` : 'end()'} threw ${describeThrown(error)}` };
  }
}

function checkStream(checks: CheckList, title: string, translator: Translator, operation: OperationName, context: TranslationContext, request: unknown, served: readonly StreamOutput[]): void {
  const run = runTranslation(translator, operation, context, request, served);
  const shapeProblem = run.thrown ?? run.batches.map(outputsProblem).find((problem) => problem !== undefined);
  if (!checks.expect(`${title}: the stream translates into client events, each with JSON data and a content flag`, shapeProblem)) return;
  const all = run.batches.flat();

  // Content: nothing before the served stream's first model output (the gateway may still fail over until then), and some after it.
  const firstServedContent = served.findIndex((output) => output.type === 'event' && output.content);
  const early = firstServedContent === -1 ? [] : run.batches.slice(0, firstServedContent).flat().filter((output) => output.type === 'event' && output.content);
  checks.expect(
    `${title}: client events carry content exactly from the served stream's first model output on`,
    firstServedContent === -1 ? 'the recorded stream carries no model output (content: true); record one that does' : early.length > 0 ? `an event before it is marked content: ${early[0]?.type === 'event' ? early[0].data.slice(0, 120) : ''}` : !events(all).some((output) => output.content) ? 'no client event carries content, so the gateway could never commit the stream' : undefined,
  );
  const declared = events(served).filter((output) => output.content).every((output) => output.outputCharacters !== undefined);
  if (declared) {
    checks.expect(`${title}: the client events count the model output's characters the served events counted`, sum(all) === sum(served) ? undefined : `${sum(all)} characters out for ${sum(served)} in: an estimate of output when no usage came would drift`);
  }

  // Usage, affinity and errors: passed on unchanged.
  const usageIn = served.filter((output) => output.type === 'usage');
  const usageOut = all.filter((output) => output.type === 'usage');
  checks.expect(`${title}: usage outputs pass through unchanged, in order`, isDeepStrictEqual(usageOut, usageIn) ? undefined : `${JSON.stringify(usageIn)} went in, ${JSON.stringify(usageOut)} came out`);
  const affinity: StreamOutput = { type: 'affinity', key: 'conformance-affinity-key' };
  const withAffinity = [...served.slice(0, Math.max(1, firstServedContent)), affinity, ...served.slice(Math.max(1, firstServedContent))];
  const affinityRun = runTranslation(translator, operation, context, request, withAffinity);
  const affinityOut = affinityRun.batches.flat().filter((output) => output.type === 'affinity');
  checks.expect(`${title}: an affinity output passes through unchanged`, affinityRun.thrown ?? (isDeepStrictEqual(affinityOut, [affinity]) ? undefined : `${JSON.stringify(affinityOut)} came out`));
  // A content-filter stop is the core's to judge (fallbacks_on): it must reach the pump.
  const filtered: StreamOutput = { type: 'content_filter' };
  const filteredRun = runTranslation(translator, operation, context, request, [...served.slice(0, 1), filtered, ...served.slice(1)]);
  const filteredOut = filteredRun.batches.flat().filter((output) => output.type === 'content_filter');
  checks.expect(`${title}: a content_filter output passes through unchanged`, filteredRun.thrown ?? (isDeepStrictEqual(filteredOut, [filtered]) ? undefined : `${JSON.stringify(filteredOut)} came out`));
  const error: StreamOutput = { type: 'error', error: new GatewayError(502, 'upstream_error', 'the conformance suite broke the stream off', { retryable: true }) };
  const cut = [...served.slice(0, firstServedContent + 1), error];
  // After an error the gateway ends the client's stream itself: end() is not called.
  const errorRun = runTranslation(translator, operation, context, request, cut, false);
  const errorBatch = errorRun.batches[cut.length - 1] ?? [];
  checks.expect(`${title}: an error output passes through unchanged`, errorRun.thrown ?? (errorBatch.includes(error) ? undefined : `pushing it answered ${JSON.stringify(errorBatch)}`));

  // A chunk object (`value`) reads as its text: the same stream from an upstream that passes
  // its text on, with no object beside it, translates the same way.
  if (events(served).some((output) => output.value !== undefined)) {
    const asText = served.map((output): StreamOutput => (output.type === 'event' ? textOnly(output) : output));
    const textRun = runTranslation(translator, operation, context, request, asText);
    checks.expect(`${title}: a served event's value translates as its data does`, textRun.thrown ?? (isDeepStrictEqual(plain(textRun.batches), plain(run.batches)) ? undefined : 'the stream without values answered differently'));
  }

  const second = runTranslation(translator, operation, context, request, served);
  checks.expect(`${title}: the stream translation is pure: the same stream translates the same way`, isDeepStrictEqual(plain(second.batches), plain(run.batches)) ? undefined : 'a second run answered differently');
}
