import type { PiecewiseAnswer, RecordedRequest } from '../../../core/testing/index.js';
import type { ArkBehaviour } from './ark-behaviour.js';
import type { GeneratedImages } from './generated-images.js';

/** What a route of the fake Ark upstream gets for one authorised request. */
export interface ArkExchange {
  request: RecordedRequest;
  /** The groups of the route's path pattern, decoded (a task id, say). */
  params: string[];
  behaviour: ArkBehaviour;
  /** The request id of this answer, also in its `x-request-id` header and error messages. */
  requestId: string;
  /** The fake's own origin, for URLs that point back at it. */
  origin: string;
  /** The images the fake has made, which its media route serves. */
  images: GeneratedImages;
}

/** One route of the fake: turns an exchange into the answer to write. */
export type ArkRoute = (exchange: ArkExchange) => PiecewiseAnswer;

/** The headers of an Ark answer. */
export function arkHeaders(contentType: string, requestId: string): Record<string, string> {
  return { 'content-type': contentType, 'x-request-id': requestId };
}

// Compact JSON: the documented examples are pretty-printed for reading, and an Ark client
// must not depend on either (upstreams.md §3.2 gives no byte-level capture of a JSON body).
/** A whole JSON body with its length; a string body is sent as it is. */
export function arkJsonAnswer(status: number, body: unknown, requestId: string): PiecewiseAnswer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const headers = { ...arkHeaders('application/json; charset=utf-8', requestId), 'content-length': String(Buffer.byteLength(text)) };
  return { status, headers, pieces: [text], streamed: false };
}

/** A 200 event stream written in `pieces`, chunked, without a length. */
export const arkStreamAnswer = (pieces: Array<string | Uint8Array>, requestId: string): PiecewiseAnswer => ({
  status: 200,
  headers: { ...arkHeaders('text/event-stream; charset=utf-8', requestId), 'cache-control': 'no-cache' },
  pieces,
  streamed: true,
});

/** One SSE event as Ark frames it: `event: <type>` then one `data:` line (fixture ark-seedream-stream.sse). */
export const arkEvent = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/** The stream's last frame. */
export const arkDoneEvent = 'data: [DONE]\n\n';

/** A string is cut after each blank line so each event is its own chunk; bytes stay exact. */
export function rawPieces(raw: string | Uint8Array | Array<string | Uint8Array>): Array<string | Uint8Array> {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string') return [raw];
  return raw.split(/(?<=\r\n\r\n|\n\n|\r\r)/).filter((piece) => piece !== '');
}

/** The first value of a header that may repeat. */
export const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** A JSON object, not an array or null. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
