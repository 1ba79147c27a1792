import { parseUpstreamJson, type GatewayError, type SseFrame } from '../../core/index.js';
import { gxErrorToGatewayError, invalidGxResponse, readGxError } from './gx-error.js';

/** What one upstream stream frame holds: nothing to do, an error, or a JSON chunk. */
export type GxStreamFrame = { kind: 'skip' } | { kind: 'error'; error: GatewayError } | { kind: 'chunk'; json: unknown };

/**
 * Reads one `data:` frame of a gx stream. Blank frames and a stray `[DONE]` are skipped;
 * text that is not JSON is an invalid response; an `{"error": ...}` object is the upstream's
 * in-band error, judged by its status (reference/upstreams.md §1.4).
 */
export function readGxStreamFrame(frame: SseFrame): GxStreamFrame {
  const data = frame.data.trim();
  if (data === '' || data === '[DONE]') return { kind: 'skip' };
  let json: unknown;
  try {
    json = parseUpstreamJson(data);
  } catch (cause) {
    return { kind: 'error', error: invalidGxResponse(cause) };
  }
  const upstreamError = readGxError(json);
  if (upstreamError !== undefined) return { kind: 'error', error: gxErrorToGatewayError(upstreamError) };
  return { kind: 'chunk', json };
}
