import type { RecordedRequest, ScriptedBehaviour, ScriptedFake } from '../../core/testing/index.js';
import type { GxBehaviour } from '../fakes/gx/gx-behaviour.js';
import { fakeThoughtSignature } from '../fakes/gx/generate-answer.js';
import type { OpenAiBehaviour } from '../fakes/openai/openai-behaviour.js';
import type { ToolCall } from './agent-invocation.js';
import { agentModels, agentPrices, type AgentGateway } from './agent-gateway.js';

/** What the model answers to one upstream request of an agent's turn: text, or a tool call. */
export type ScriptedTurn = ({ text: string } | { call: ToolCall & { id: string } }) & {
  /** The tokens the upstream reports for this answer. */
  usage: { input: number; output: number };
};

/**
 * One upstream an agent reaches through the gateway: a family's fake and the operation the
 * gateway calls there, with how to script an answer in that operation's wire format and how
 * to find a tool's result in the agent's next request.
 */
export interface ScriptedUpstream {
  /** The model the agent asks for. */
  model: string;
  /** A phrase for test names ("a gx model"). */
  label: string;
  fake(gateway: AgentGateway): ScriptedFake<ScriptedBehaviour>;
  /** The fake's behaviour that answers with `turn`, streamed as the operation streams. */
  answer(turn: ScriptedTurn): ScriptedBehaviour;
  /** Whether the fake was asked for a stream. */
  streamed(request: RecordedRequest): boolean;
  /** The result the request hands back for `call`, as text, or undefined when it carries none. */
  toolResult(request: RecordedRequest, call: ToolCall & { id: string }): string | undefined;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** The answer's words, each with the space before it, so a text streams in several events. */
const words = (text: string): string[] => text.match(/\s*\S+/g) ?? [text];

/** Output tokens reported after `index + 1` of `count` events: growing, the last exactly `total`. */
const partial = (total: number, index: number, count: number) => (index === count - 1 ? total : Math.max(1, Math.floor((total * (index + 1)) / count)));

/** gx `streamGenerateContent` events: cumulative usage on every event, `finishReason` on the last (fixture gemini-stream-multi-chunk.sse). */
function gxEvents(turn: ScriptedTurn, model: string): GxBehaviour {
  const partsPerEvent: JsonObject[][] =
    'text' in turn ? words(turn.text).map((word) => [{ text: word }]) : [[{ functionCall: { name: turn.call.name, args: turn.call.arguments }, thoughtSignature: fakeThoughtSignature(turn.call.name) }]];
  const chunks = partsPerEvent.map((parts, index) => {
    const output = partial(turn.usage.output, index, partsPerEvent.length);
    const last = index === partsPerEvent.length - 1;
    return {
      candidates: [{ content: { parts, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
      usageMetadata: { promptTokenCount: turn.usage.input, candidatesTokenCount: output, totalTokenCount: turn.usage.input + output },
      modelVersion: model,
      responseId: 'agent-test-response',
    };
  });
  return { chunks };
}

/** OpenAI chat chunks (fixture openai-chat-stream-include-usage.sse): role, deltas, finish, a usage chunk; the fake adds `[DONE]`. */
function chatChunks(turn: ScriptedTurn, model: string): OpenAiBehaviour {
  const chunk = (choices: unknown[], usage: unknown = null) => ({ id: 'chatcmpl-agent-test', object: 'chat.completion.chunk', created: 1_796_000_000, model, choices, usage });
  const choice = (delta: JsonObject, finishReason: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finishReason });
  const deltas =
    'text' in turn
      ? words(turn.text).map((word) => choice({ content: word }))
      : [
          choice({ tool_calls: [{ index: 0, id: turn.call.id, type: 'function', function: { name: turn.call.name, arguments: '' } }] }),
          choice({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(turn.call.arguments) } }] }),
        ];
  const usage = { prompt_tokens: turn.usage.input, completion_tokens: turn.usage.output, total_tokens: turn.usage.input + turn.usage.output };
  return {
    chunks: [
      chunk([choice({ role: 'assistant', content: 'text' in turn ? '' : null, refusal: null })]),
      ...deltas.map((delta) => chunk([delta])),
      chunk([choice({}, 'text' in turn ? 'stop' : 'tool_calls')]),
      chunk([], usage),
    ],
  };
}

/** The Responses fake's text or function-call answer with exactly this usage. */
function responsesAnswer(turn: ScriptedTurn): OpenAiBehaviour {
  const usage = {
    input_tokens: turn.usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: turn.usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: turn.usage.input + turn.usage.output,
  };
  return 'text' in turn ? { text: turn.text, usage } : { functionCall: { name: turn.call.name, arguments: turn.call.arguments, callId: turn.call.id }, usage };
}

const body = (request: RecordedRequest): JsonObject => (isObject(request.json) ? request.json : {});
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** A gx model: the gateway calls gx's native `streamGenerateContent` (`alt=sse`). */
export const gxNative: ScriptedUpstream = {
  model: agentModels.gx,
  label: 'a gx model',
  fake: (gateway) => gateway.gx,
  answer: (turn) => gxEvents(turn, agentModels.gx),
  streamed: (request) => request.path.endsWith(':streamGenerateContent') && request.query.alt === 'sse',
  toolResult(request, call) {
    const parts = objects(body(request).contents).flatMap((content) => objects(content.parts));
    const response = parts.map((part) => part.functionResponse).find((candidate): candidate is JsonObject => isObject(candidate) && candidate.name === call.name);
    return response === undefined ? undefined : asText(response.response);
  },
};

/** A gp model on chat completions, the operation every translated format is served through. */
export const gpChat: ScriptedUpstream = {
  model: agentModels.gp,
  label: 'a gp model',
  fake: (gateway) => gateway.openAi,
  answer: (turn) => chatChunks(turn, agentModels.gp),
  streamed: (request) => request.path === '/v1/chat/completions' && body(request).stream === true,
  toolResult(request, call) {
    const message = objects(body(request).messages).find((candidate) => candidate.role === 'tool' && candidate.tool_call_id === call.id);
    return message === undefined ? undefined : asText(message.content);
  },
};

/** A gp model on its native Responses API. */
export const gpResponses: ScriptedUpstream = {
  model: agentModels.gp,
  label: 'a gp model',
  fake: (gateway) => gateway.openAi,
  answer: responsesAnswer,
  streamed: (request) => request.path === '/v1/responses' && body(request).stream === true,
  toolResult(request, call) {
    const item = objects(body(request).input).find((candidate) => candidate.type === 'function_call_output' && candidate.call_id === call.id);
    return item === undefined ? undefined : asText(item.output);
  },
};

/**
 * The quota units the gateway must bill for these answers of `model`: each request is
 * `ceil(USD × 500000)` (core/billing/cost-of-usage.ts), and USD is tokens × the price per
 * million, so units are `(input × input price + output × output price) / 2` rounded up.
 */
export function billedUnits(model: string, turns: readonly ScriptedTurn[]): number {
  const price = agentPrices[model as keyof typeof agentPrices];
  return turns.reduce((sum, turn) => sum + Math.ceil((turn.usage.input * price.input_per_mtok + turn.usage.output * price.output_per_mtok) / 2), 0);
}
