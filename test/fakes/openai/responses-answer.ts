import type { OpenAiBehaviour, ResponsesUsage } from './openai-behaviour.js';
import { invalidTypeBody, missingParameterBody, openAiErrorBody } from './openai-error-body.js';
import { countWords, isObject, jsonAnswer, rawPieces, streamAnswer, type OpenAiRoute } from './openai-wire.js';
import { functionToolNames, isReasoning, lastUserText, requestedCall, trailingFunctionOutput, type ResponsesRequest } from './responses-input.js';
import { openAiCallId, openAiObjectId, outputItems, responseObject, type ResponsesAnswerPlan } from './responses-object.js';
import { firstHalfOfDeltas, frameResponseEvent, itemEvents, numberEvents, streamError, type ResponseEvent } from './responses-stream.js';

type JsonObject = Record<string, unknown>;

/**
 * `POST /v1/responses` as upstreams.md §2.2–2.3 describe it. The default answer is
 * `echo: <last user text>`; after a `function_call_output` item, `<name> returned <output>`.
 * With `reasoning` (effort not `none`) a reasoning item comes first, with a summary when one is
 * asked for and `encrypted_content` when `include` asks for it. `call <name> {json}` in the
 * user's text, or a `functionCall` behaviour, naming a declared function tool, answers with a
 * function call instead of text. Every Response the fake produces is kept in `store`, so a
 * `previous_response_id` it did not produce is refused as OpenAI refuses it.
 */
export function responsesRoute(store: Map<string, JsonObject>): OpenAiRoute {
  return ({ request, behaviour, started }) => {
    const body = request.json;
    if (!isObject(body)) return jsonAnswer(400, openAiErrorBody(400, 'We could not parse the JSON body of your request.'), started);
    const refusal = invalidRequest(body, store);
    if (refusal !== undefined) return jsonAnswer(400, refusal, started);
    const responsesRequest = body as unknown as ResponsesRequest;
    const stream = body.stream === true;

    if (!stream && behaviour.json !== undefined) {
      if (isObject(behaviour.json) && typeof behaviour.json.id === 'string') store.set(behaviour.json.id, behaviour.json);
      return jsonAnswer(200, behaviour.json, started);
    }
    if (stream && behaviour.rawSse !== undefined) return streamAnswer(rawPieces(behaviour.rawSse), started);
    if (stream && behaviour.events !== undefined) return streamAnswer(withDoneMarker(behaviour, behaviour.events.map(frameResponseEvent)), started);

    const previous = typeof body.previous_response_id === 'string' ? store.get(body.previous_response_id) : undefined;
    const plan = planAnswer(responsesRequest, behaviour, Array.isArray(previous?.output) ? previous.output : []);
    const id = openAiObjectId('resp_');
    const createdAt = Math.floor(Date.now() / 1000);
    const askedTier = typeof body.service_tier === 'string' ? body.service_tier : 'auto';
    const usage = behaviour.usage ?? countUsage(responsesRequest, plan);
    const snapshot = (status: 'in_progress' | 'completed' | 'failed', extra: { billing?: boolean; error?: { code: string; message: string } } = {}) =>
      responseObject(responsesRequest, {
        id,
        createdAt,
        status,
        output: status === 'completed' ? outputItems(plan) : [],
        usage: status === 'completed' ? usage : null,
        error: extra.error ?? null,
        serviceTier: status === 'completed' && askedTier === 'auto' ? 'default' : askedTier,
        billing: extra.billing ?? false,
      });

    if (!stream) {
      const completed = snapshot('completed', { billing: true });
      store.set(id, completed);
      return jsonAnswer(200, completed, started);
    }

    const running = snapshot('in_progress');
    const head: ResponseEvent[] = [
      { type: 'response.created', response: running },
      { type: 'response.in_progress', response: running },
    ];
    const items = itemEvents(plan, responsesRequest.stream_options?.include_obfuscation !== false);
    const failure = behaviour.streamErrorBeforeContent ?? behaviour.streamErrorAfterContent;
    let events: ResponseEvent[];
    if (failure === undefined) {
      const completed = snapshot('completed');
      store.set(id, completed);
      events = [...head, ...items, { type: 'response.completed', response: completed }];
    } else {
      const error = streamError(failure, behaviour.message);
      const failed = snapshot('failed', { error: { code: error.code ?? error.type, message: error.message } });
      store.set(id, failed);
      const partial = behaviour.streamErrorBeforeContent === undefined ? firstHalfOfDeltas(items) : [];
      events = [...head, ...partial, { type: 'error', error }, { type: 'response.failed', response: failed }];
    }
    return streamAnswer(withDoneMarker(behaviour, numberEvents(events).map(frameResponseEvent)), started);
  };
}

function invalidRequest(body: JsonObject, store: Map<string, JsonObject>): unknown {
  if (body.model === undefined) return missingParameterBody('model');
  if (typeof body.model !== 'string') return invalidTypeBody('model', 'a string', body.model);
  if (body.input === undefined) return missingParameterBody('input');
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) return invalidTypeBody('input', 'one of a string or array of input items', body.input);
  const previous = body.previous_response_id;
  if (previous === undefined || previous === null) return undefined;
  if (typeof previous !== 'string') return invalidTypeBody('previous_response_id', 'a string', previous);
  if (!store.has(previous)) {
    return openAiErrorBody(400, `Previous response with id '${previous}' not found.`, 'previous_response_id', 'previous_response_not_found');
  }
  return undefined;
}

const withDoneMarker = (behaviour: OpenAiBehaviour, pieces: string[]): string[] => (behaviour.doneMarker === true ? [...pieces, 'data: [DONE]\n\n'] : pieces);

function planAnswer(request: ResponsesRequest, behaviour: OpenAiBehaviour, earlierOutput: unknown[]): ResponsesAnswerPlan {
  const declared = functionToolNames(request);
  const userText = lastUserText(request.input);
  const scripted = behaviour.functionCall === undefined ? [] : [behaviour.functionCall].flat();
  const calls = scripted
    .filter((call) => declared.has(call.name))
    .map((call) => ({
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
      callId: call.callId ?? openAiCallId(),
    }));
  if (calls.length === 0 && behaviour.functionCall === undefined && behaviour.text === undefined) {
    const asked = requestedCall(userText, declared);
    if (asked !== undefined) calls.push({ ...asked, callId: openAiCallId() });
  }
  const toolResult = trailingFunctionOutput(request.input, earlierOutput);
  const text = behaviour.text ?? (toolResult === undefined ? `echo: ${userText}` : `${toolResult.name} returned ${toolResult.output}`);

  const plan: ResponsesAnswerPlan = { functionCalls: calls.map((call) => ({ id: openAiObjectId('fc_'), ...call })) };
  if (isReasoning(request)) {
    const reasoningId = openAiObjectId('rs_');
    const wantsSummary = typeof request.reasoning?.summary === 'string';
    const wantsEncrypted = Array.isArray(request.include) && request.include.includes('reasoning.encrypted_content');
    plan.reasoning = {
      id: reasoningId,
      ...(wantsSummary ? { summary: `**Reading the request**\n\nThe user wrote "${userText}". An echo answers it.` } : {}),
      // Real encrypted content is a Fernet token, which always starts "gAAAAAB" (fixture).
      ...(wantsEncrypted ? { encryptedContent: `gAAAAAB${Buffer.from(`fake-reasoning:${reasoningId}`).toString('base64url')}` } : {}),
    };
  }
  if (calls.length === 0) plan.message = { id: openAiObjectId('msg_'), text };
  return plan;
}

/** Hidden reasoning tokens by effort; the fake only needs them to be positive and ordered. */
const reasoningTokensByEffort: Record<string, number> = { minimal: 8, low: 16, medium: 64, high: 128, xhigh: 256 };

/** A deterministic stand-in for a tokenizer: one token per word, plus three per input item. */
function countUsage(request: ResponsesRequest, plan: ResponsesAnswerPlan): ResponsesUsage {
  const items = typeof request.input === 'string' ? [request.input] : request.input;
  const instructions = typeof request.instructions === 'string' ? countWords(request.instructions) : 0;
  const inputTokens = items.reduce<number>((total, item) => total + 3 + countWords(stringLeaves(item).join(' ')), instructions);
  const reasoningTokens = plan.reasoning === undefined ? 0 : (reasoningTokensByEffort[String(request.reasoning?.effort)] ?? 64);
  const answerTokens = plan.message !== undefined ? countWords(plan.message.text) : plan.functionCalls.reduce((total, call) => total + Math.ceil(call.arguments.length / 4), 0);
  const outputTokens = reasoningTokens + Math.max(1, answerTokens);
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

const structuralKeys = new Set(['type', 'role', 'id', 'call_id', 'status', 'detail']);

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, member]) => (structuralKeys.has(key) ? [] : stringLeaves(member)));
}
