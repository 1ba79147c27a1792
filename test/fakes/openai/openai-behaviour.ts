import type { ScriptedBehaviour } from '../../../core/testing/index.js';

/** OpenAI's chat usage object (upstreams.md §2.4). */
export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: { reasoning_tokens: number; audio_tokens: number; accepted_prediction_tokens: number; rejected_prediction_tokens: number };
}

/** The usage object of a Responses API answer (upstreams.md §2.2). */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** The usage of a `speech.audio.done` event (upstreams.md §2.5). */
export interface SpeechUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** The usage of a transcription: seconds for whisper, tokens for gpt-4o models (upstreams.md §2.6). */
export type TranscriptionUsage =
  | { type: 'duration'; seconds: number }
  | { type: 'tokens'; input_tokens: number; input_token_details: { text_tokens: number; audio_tokens: number }; output_tokens: number; total_tokens: number };

/** The in-band failures of a Responses stream the fake knows by name. */
export type ResponsesStreamErrorKind = 'insufficient_quota' | 'server_error' | 'rate_limit_exceeded';

/** The `error` of a Responses stream's `error` event. */
export interface ResponsesStreamError {
  type: string;
  code: string | null;
  message: string;
  param?: string | null;
}

/** A function call the model makes on the Responses route. */
export interface ScriptedFunctionCall {
  /** Must name a function tool of the request; a model cannot call an undeclared tool. */
  name: string;
  /** The arguments; an object is sent as compact JSON. Default `{}`. */
  arguments?: string | Record<string, unknown>;
  /** The `call_id`; default a fresh `call_...`. */
  callId?: string;
}

/**
 * How the fake answers the next request instead of its default. Fields combine (for example
 * `chunkDelayMs` with `rawSse`). "Chunks" are the pieces the answer is written in: one SSE
 * event, one entry of a `rawSse` array, one piece of speech audio, or the whole body of a
 * JSON answer. Fields a route does not know are ignored there.
 */
export interface OpenAiBehaviour extends ScriptedBehaviour {
  /** The answer's text instead of the default (chat and Responses: `echo: <last user text>`; transcriptions: the transcript). */
  text?: string;
  /** The usage to report instead of the fake's own count, sent as given. */
  usage?: OpenAiUsage | ResponsesUsage | SpeechUsage | TranscriptionUsage;
  /**
   * Chat: the content filter stops the answer before any content: `finish_reason:
   * content_filter` with `content: null` (non-stream), or the role chunk and then the finish
   * chunk (stream); usage counts the prompt and no completion (upstreams.md §2.4).
   */
  contentFilter?: boolean;
  /** Send this as the non-stream answer (pretty JSON); chat and Responses. */
  json?: unknown;
  /** Chat: send these objects as the stream's events (compact JSON), followed by `[DONE]`. */
  chunks?: unknown[];
  /** Responses: send these objects as the stream's events, each as `event: <type>` + `data: <compact JSON>`, unnumbered. */
  events?: Array<{ type: string } & Record<string, unknown>>;
  /** Send these exact bytes as a stream body; a string is written one event at a time. */
  rawSse?: string | Uint8Array | Array<string | Uint8Array>;
  /** Chat: the first event of a 200 stream is `{"error": ...}` (`true` = a server_error, or the HTTP status whose error it is). */
  sseErrorBeforeContent?: boolean | number;
  /**
   * Responses: after `response.created` and `response.in_progress`, an `error` event and then
   * `response.failed`, in a 200 stream (fixture openai-responses-stream-error.sse). `true` is
   * the fixture's `insufficient_quota`.
   */
  streamErrorBeforeContent?: true | ResponsesStreamErrorKind | ResponsesStreamError;
  /** Responses: as `streamErrorBeforeContent`, but after the first half of the text deltas. */
  streamErrorAfterContent?: true | ResponsesStreamErrorKind | ResponsesStreamError;
  /** Responses: answer with these function calls instead of text, when the request declares the functions. */
  functionCall?: ScriptedFunctionCall | ScriptedFunctionCall[];
  /** Responses: end the stream with `data: [DONE]`, which OpenAI does not send there (upstreams.md §2.3). */
  doneMarker?: boolean;
  /** Speech: send these bytes as the audio instead of the fake's own; an array is written piece by piece. */
  audio?: Uint8Array | Uint8Array[];
  /** Transcriptions: the audio's length in seconds; `null` leaves duration and usage out of the answer. */
  duration?: number | null;
}
