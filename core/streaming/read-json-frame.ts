import type { SseFrame } from '../contracts/stream-decoder.js';
import type { GatewayError } from '../errors/gateway-error.js';
import { invalidUpstreamAnswer, parseUpstreamJson } from '../http/upstream-json.js';

/** What one `data:` frame of an upstream's stream of JSON events holds. */
export type JsonFrame = { kind: 'blank' } | { kind: 'done' } | { kind: 'error'; error: GatewayError } | { kind: 'json'; json: unknown };

/**
 * Reads one `data:` frame of an upstream's stream of JSON events: a blank frame, OpenAI's
 * `[DONE]`, or JSON. Text that is not JSON is `invalidUpstreamAnswer(expected)`, and JSON in
 * which `readError` finds an in-band error (an `{"error": ...}` object) is that error: both
 * are `error` frames, for the decoder to report with `streamFailure`.
 */
export function readJsonFrame(frame: SseFrame, expected: string, readError: (json: unknown) => GatewayError | undefined): JsonFrame {
  const data = frame.data.trim();
  if (data === '') return { kind: 'blank' };
  if (data === '[DONE]') return { kind: 'done' };
  let json: unknown;
  try {
    json = parseUpstreamJson(data);
  } catch (cause) {
    return { kind: 'error', error: invalidUpstreamAnswer(expected, { cause }) };
  }
  const error = readError(json);
  return error === undefined ? { kind: 'json', json } : { kind: 'error', error };
}
