import type { ScriptedBehaviour } from '../../../core/testing/index.js';
import type { GxRefusal } from './generate-answer.js';

/**
 * How the fake gx upstream answers the next request instead of its default. Fields combine
 * (for example `chunkDelayMs` with `rawSse`, or `stallBeforeHeadersMs` with `error`).
 * "Chunks" are the pieces the answer is written in: one SSE event, one element of a
 * JSON-array stream, one entry of a `rawSse` array, or the whole body of a JSON answer.
 * The {@link GxRefusal} fields (`blockPrompt`, `withholdImage`, `noCandidates`, `stopForSafety`) shape the
 * default generate answer, streamed or not.
 */
export interface GxBehaviour extends ScriptedBehaviour, GxRefusal {
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
}
