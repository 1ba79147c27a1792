import type { UpstreamBody } from '../contracts/provider/upstream-http.js';
import { GatewayError } from '../errors/gateway-error.js';
import { malformedUpstreamAnswer } from '../errors/error-codes.js';
import { exceedsJsonDepth, maxJsonDepthCeiling } from '../validation/json-depth.js';

/**
 * An upstream body read as JSON, for provider code: `JSON.parse`, except that JSON nesting
 * deeper than the gateway's translations can walk (`JSON.stringify` among them) throws a
 * `SyntaxError` too. Whatever an upstream sends then fails where its body is read, as the
 * channel's fault ({@link invalidUpstreamAnswer}), never later in a translation as a bug.
 */
export function parseUpstreamJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // Each level takes two characters at least (`[` and `]`), so a text this short cannot nest
  // too deep: most upstream frames and answers skip the walk.
  if (text.length > 2 * maxJsonDepthCeiling && exceedsJsonDepth(value, maxJsonDepthCeiling)) throw new SyntaxError(`the JSON nests more than ${maxJsonDepthCeiling} levels deep`);
  return value;
}

/**
 * `text` read as JSON of `schema`'s shape, or undefined for text that is not JSON or of another
 * shape: for an error body, which may be anything (an HTML page from a proxy).
 */
export function readUpstreamJsonAs<Output>(text: string, schema: { safeParse(value: unknown): { success: true; data: Output } | { success: false } }): Output | undefined {
  try {
    const parsed = schema.safeParse(parseUpstreamJson(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * 502 `upstream_invalid_response`: the upstream answered something that is not `expected`
 * (not JSON, too deep, or of another shape). The channel's fault, so retryable on another
 * channel by default; `retryable: false` where a retry could repeat a side effect (a task the
 * upstream may have started). The one way provider code reports a malformed upstream answer.
 */
export function invalidUpstreamAnswer(expected: string, options: { cause?: unknown; retryable?: boolean } = {}): GatewayError {
  return malformedUpstreamAnswer(`the upstream answered with something that is not ${expected}`, options);
}

/**
 * A 2xx answer's body read whole: its text (to pass on byte for byte) and its JSON (to read
 * usage and errors from).
 * @throws the upstream client's own GatewayError for a body that broke off, stalled or was
 *   aborted; {@link invalidUpstreamAnswer}`(expected)` for text that is not JSON.
 */
export async function readUpstreamJsonBody(body: UpstreamBody, expected: string, options: { retryable?: boolean } = {}): Promise<{ text: string; json: unknown }> {
  try {
    const text = await body.text();
    return { text, json: parseUpstreamJson(text) };
  } catch (error) {
    throw GatewayError.is(error) ? error : invalidUpstreamAnswer(expected, { ...options, cause: error });
  }
}

/**
 * A 2xx answer's body read as JSON, for an answer the gateway reads and never passes on: any
 * failure of the reading (a body that broke off, stalled or was aborted, or is not JSON) is
 * the upstream's. With `schema`, the JSON is read by it too (see {@link parseUpstreamAnswer}).
 * @throws {@link invalidUpstreamAnswer}`(expected)`, retryable unless `retryable: false` says
 *   another channel must not be asked (an upstream that may have started a task); 502
 *   `upstream_response_too_large`, retryable on the same terms, for an answer past the channel's limit.
 */
export async function readUpstreamAnswer(body: UpstreamBody, expected: string, options?: { retryable?: boolean }): Promise<unknown>;
export async function readUpstreamAnswer<Output>(body: UpstreamBody, expected: string, options: { retryable?: boolean }, schema: UpstreamSchema<Output>): Promise<Output>;
export async function readUpstreamAnswer<Output>(body: UpstreamBody, expected: string, options: { retryable?: boolean } = {}, schema?: UpstreamSchema<Output>): Promise<unknown> {
  let json: unknown;
  try {
    json = await body.json();
  } catch (error) {
    // An answer past max_response_mb keeps its own code, so the operator can tell which limit it met.
    if (GatewayError.is(error) && error.code === 'upstream_response_too_large') {
      throw options.retryable === false ? new GatewayError(502, error.code, error.message, { cause: error, retryable: false }) : error;
    }
    throw invalidUpstreamAnswer(expected, { ...options, cause: error });
  }
  return schema === undefined ? json : parseUpstreamAnswer(json, schema, expected, options);
}

/** A lenient zod schema, or anything that reads a value the same way. */
type UpstreamSchema<Output> = { safeParse(value: unknown): { success: true; data: Output } | { success: false; error: unknown } };

/**
 * `json` read by a lenient `schema`.
 * @throws {@link invalidUpstreamAnswer}`(expected)` for a value of another shape.
 */
export function parseUpstreamAnswer<Output>(json: unknown, schema: UpstreamSchema<Output>, expected: string, options: { retryable?: boolean } = {}): Output {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw invalidUpstreamAnswer(expected, { ...options, cause: parsed.error });
}
