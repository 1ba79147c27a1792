/**
 * How the fake gx upstream answers the next request instead of its default. Fields combine
 * (for example `chunkDelayMs` with `rawSse`, or `stallBeforeHeadersMs` with `error`).
 * "Chunks" are the pieces the answer is written in: one SSE event, one element of a
 * JSON-array stream, one entry of a `rawSse` array, or the whole body of a JSON answer.
 */
export interface GxBehaviour {
  /** Answer this HTTP status with gx's own error body (429 carries RetryInfo, like fixtures gemini-error-429.json). */
  error?: number;
  /** Replaces the default message of `error`. */
  message?: string;
  /** Answer this status with `body` (an object is sent as pretty JSON, a string as is). */
  status?: number;
  /** The body for `status`; without it, gx's error body for that status. */
  body?: unknown;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Wait this long before sending the status line. */
  stallBeforeHeadersMs?: number;
  /** Send this many chunks, then go silent for `stallMs` (default: until the client or the fake closes), then go on. */
  stallAfterChunks?: number;
  /** How long `stallAfterChunks` stays silent. */
  stallMs?: number;
  /** Send this many chunks, then destroy the socket without ending the response. */
  resetAfterChunks?: number;
  /** Destroy the socket before any response byte. */
  resetBeforeHeaders?: boolean;
  /** Wait this long between chunks. */
  chunkDelayMs?: number;
  /**
   * Send these exact bytes as the body of a streamGenerateContent answer. A string is written
   * one event at a time (cut after each blank line); an array is written piece by piece.
   */
  rawSse?: string | Uint8Array | Array<string | Uint8Array>;
  /** Send this as the non-stream answer (pretty JSON); on a stream request, as its one event. */
  json?: unknown;
  /** Send these objects as the stream's events (in gx's compact JSON style). */
  chunks?: unknown[];
  /** The first event of a 200 stream is an error object (`true` = 503 UNAVAILABLE, or the HTTP code). */
  sseErrorBeforeContent?: boolean | number;
  /** Answer 200 with a body that is not JSON (in an SSE stream: an event whose data is not JSON). */
  garbage?: boolean;
  /** Cut the last chunk of a stream answer in the middle and end the response cleanly. */
  truncateSse?: boolean;
}
