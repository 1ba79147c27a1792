import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import { countTokens, isObject, objects, recorderTurn, type RecorderScript } from './recorder-turn.js';

/**
 * The recorder's answer on `POST /v1/chat/completions`, in the shape of fixture
 * openai-chat-stream-include-usage.sse (test/fixtures/gp): `data: <JSON>` chunks, the role
 * first, then the content or one `tool_calls` delta, the finish reason, a `choices: []` usage
 * chunk when `stream_options.include_usage` is set, and `data: [DONE]`; without `stream`, one
 * `chat.completion` object.
 */
export function openAiChatAnswer(body: unknown, script: RecorderScript): PiecewiseAnswer {
  const request = isObject(body) ? body : {};
  const messages = objects(request.messages);
  const toolNames = objects(request.tools).map((tool) => String((isObject(tool.function) ? tool.function : tool).name));
  const turn = recorderTurn(script, toolNames, messages.at(-1)?.role === 'tool');
  const id = `chatcmpl-${randomBytes(15).toString('base64url')}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof request.model === 'string' ? request.model : 'unknown';
  const toolCall =
    turn.kind === 'tool' ? { id: `call_${randomBytes(12).toString('base64url')}`, type: 'function', function: { name: turn.name, arguments: JSON.stringify(turn.arguments) } } : undefined;
  const promptTokens = countTokens(JSON.stringify(messages));
  const completionTokens = countTokens(turn.kind === 'text' ? turn.text : JSON.stringify(turn.arguments));
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const finishReason = toolCall === undefined ? 'stop' : 'tool_calls';

  if (request.stream !== true) {
    const message = toolCall === undefined ? { role: 'assistant', content: turn.kind === 'text' ? turn.text : null, refusal: null } : { role: 'assistant', content: null, refusal: null, tool_calls: [toolCall] };
    const text = JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage });
    return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
  }
  const includeUsage = isObject(request.stream_options) && request.stream_options.include_usage === true;
  const chunk = (choices: unknown[], chunkUsage: unknown = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...(includeUsage ? { usage: chunkUsage } : {}) })}\n\n`;
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finish });
  const content =
    toolCall === undefined
      ? choice({ content: turn.kind === 'text' ? turn.text : '' })
      : choice({ tool_calls: [{ index: 0, ...toolCall }] });
  const pieces = [chunk([choice({ role: 'assistant', content: toolCall === undefined ? '' : null, refusal: null })]), chunk([content]), chunk([choice({}, finishReason)])];
  if (includeUsage) pieces.push(chunk([], usage));
  pieces.push('data: [DONE]\n\n');
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, pieces, streamed: true };
}
