import type { StreamDecoder } from '../stream-decoder.js';
import type { Usage } from '../usage.js';
import type { OperationCall } from './operation-call.js';
import type { UpstreamBody } from './upstream-http.js';

/** A complete answer in the client's format. */
export interface JsonResult {
  kind: 'json';
  /** The client-format body. A string is sent as it is (already serialized JSON, or text of `contentType`). */
  body: unknown;
  usage: Usage;
  /** Defaults to 200. */
  status?: number;
  /** Defaults to `application/json`; a transcript in `srt` is `text/plain`, for example. */
  contentType?: string;
  /** A key a later request may name to come back to this channel, such as a Responses id. */
  affinityKey?: string;
  /**
   * True when the upstream refused: it stopped for its content filter (a chat `content_filter`
   * finish, a safety finish reason, a blocked prompt) without any content. The body is still
   * the answer the client gets, unless `fallbacks_on: [content_filter]` has the next fallback
   * model try instead. Left out on every other answer.
   */
  contentFiltered?: boolean;
}

/** An answer of raw bytes (synthesized speech) passed through to the client as they arrive. */
export interface BytesResult {
  kind: 'bytes';
  body: UpstreamBody;
  contentType: string;
  /** Known before the bytes are read (speech is billed by the input's characters). */
  usage: Usage;
}

/** A streamed answer: the unread upstream body and a decoder that translates it frame by frame. */
export interface StreamResult {
  kind: 'stream';
  body: UpstreamBody;
  decoder: StreamDecoder;
  /** How the upstream body is framed; `sse` is the only framing so far. */
  framing: 'sse';
}

/** An upstream accepted a long-running task (`video.submit`); core keeps the record and polls it. */
export interface TaskAccepted {
  kind: 'task';
  /** What the provider needs to ask about the task later (an upstream task id, an operation name…). Opaque to core. */
  handle: string;
  /** What the task will cost when it succeeds (seconds and resolution, or one call); reserved now. */
  usage: Usage;
  /** The status this family's clients expect for a finished task; `succeeded` unless set (the sdx-2 models say `completed`). */
  succeededStatus?: string;
  /** Fields of the submission to show back on the task, such as `seconds` and `size`. */
  details?: Record<string, string | number | boolean>;
}

/** The states every upstream's task states map onto. */
export type TaskStatus = 'queued' | 'in_progress' | 'succeeded' | 'failed';

/** How a task is doing upstream (`video.status`). */
export interface TaskProgress {
  kind: 'task-progress';
  status: TaskStatus;
  /** Percent done, when the upstream says. */
  progress?: number;
  /** The video's address once it succeeded. */
  url?: string;
  /** Why it failed: a numeric code (the upstream's, or an HTTP-like one), the message, and the upstream's own code name when it has one. */
  error?: { code: number; message: string; type?: string };
  /** What the finished task cost, when the upstream reports it; otherwise the usage from the submit is billed. */
  usage?: Usage;
  /** More fields to show on the task from now on, such as the address of its last frame. */
  details?: Record<string, string | number | boolean>;
}

/** Every kind of result; what one operation answers is its entry of `OperationResults` (core/contracts/operation-results.ts). */
export type OperationResult = JsonResult | StreamResult | BytesResult | TaskAccepted | TaskProgress;

/**
 * Implements one operation, answering a `Result` (the operation's entry of `OperationResults`
 * in a provider's `operations`); throws a {@link GatewayError} (retryable or not) when it fails.
 */
export type OperationHandler<Request, Options = unknown, Result extends OperationResult = OperationResult> = (call: OperationCall<Request, Options>) => Promise<Result>;
