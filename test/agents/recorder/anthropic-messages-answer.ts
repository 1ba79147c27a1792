import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import { countTokens, isObject, objects, recorderTurn, type RecorderScript } from './recorder-turn.js';

/**
 * The recorder's answer on `POST /v1/messages`, in the Anthropic Messages wire format: a
 * `message` object, or with `stream: true` the event sequence `message_start`,
 * `content_block_start`, `ping`, `content_block_delta` (text or `input_json_delta`),
 * `content_block_stop`, `message_delta` (stop reason and output usage), `message_stop`, each
 * framed as `event: <type>` + `data: <JSON>`. A test tool for recording what Claude Code
 * sends, not a fake of a gateway upstream (no family is served in this format).
 */
export function anthropicMessagesAnswer(body: unknown, script: RecorderScript): PiecewiseAnswer {
  const request = isObject(body) ? body : {};
  const messages = objects(request.messages);
  const lastContent = objects(messages.at(-1)?.content);
  const turn = recorderTurn(
    script,
    objects(request.tools).map((tool) => String(tool.name)),
    lastContent.some((block) => block.type === 'tool_result'),
  );
  const id = `msg_${randomBytes(12).toString('hex')}`;
  const model = typeof request.model === 'string' ? request.model : 'unknown';
  const inputTokens = countTokens(JSON.stringify(request.system ?? '') + JSON.stringify(messages));
  const block =
    turn.kind === 'text'
      ? { type: 'text', text: turn.text }
      : { type: 'tool_use', id: `toolu_${randomBytes(12).toString('hex')}`, name: turn.name, input: turn.arguments };
  const outputTokens = countTokens(JSON.stringify(block));
  const stopReason = turn.kind === 'text' ? 'end_turn' : 'tool_use';
  const usage = { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens };

  if (request.stream !== true) {
    const message = { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage };
    const text = JSON.stringify(message);
    return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
  }
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const opening = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
  const delta =
    turn.kind === 'text' ? { type: 'text_delta', text: turn.text } : { type: 'input_json_delta', partial_json: JSON.stringify(turn.arguments) };
  const pieces = [
    event('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
    event('content_block_start', { index: 0, content_block: opening }),
    event('ping', {}),
    event('content_block_delta', { index: 0, delta }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }),
    event('message_stop', {}),
  ];
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }, pieces, streamed: true };
}

/** `POST /v1/messages/count_tokens`: `{ input_tokens }`, counted as the answers count. */
export function anthropicCountTokensAnswer(body: unknown): PiecewiseAnswer {
  const request = isObject(body) ? body : {};
  const text = JSON.stringify({ input_tokens: countTokens(JSON.stringify(request.system ?? '') + JSON.stringify(request.messages ?? [])) });
  return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
}
