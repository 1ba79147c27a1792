import type { GatewayError } from '../errors/gateway-error.js';
import type { Usage } from './usage.js';

/** One server-sent event as the splitter reads it off the upstream. */
export interface SseFrame {
  /** The `event:` field, when the upstream sends one. */
  event?: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The `id:` field, when present. */
  id?: string;
}

/** Something a decoder wants the client to receive, or the core to know. */
export type StreamOutput =
  | {
      type: 'event';
      /** The event's payload, already serialized (JSON text). */
      data: string;
      /**
       * The payload as the object the gateway built it from, when it built one: `data` is its
       * JSON text, `JSON.parse(data)` deep-equals it. A translation stacked on the decoder
       * reads it instead of parsing `data` back, and without a schema, since it is the
       * gateway's own object of the served format's type (a `ChatCompletionChunk` from a chat
       * decoder). Absent where the payload is an upstream's text passed on: that text is
       * parsed, and checked, as before. Never changed once emitted: it may be shared.
       */
      value?: unknown;
      /** The SSE `event:` name, for dialects that use one. */
      event?: string;
      /**
       * True when the event carries model output. Until the first such event the core may
       * still fail over to another channel; events before it are held back.
       */
      content: boolean;
      /**
       * Characters of model output the event carries (text, reasoning, tool-call arguments).
       * When the upstream reports no usage, the output is estimated from these; an event
       * without the field counts its whole `data` when it carries content, and nothing
       * otherwise.
       */
      outputCharacters?: number;
    }
  /** A key a later request may name to come back to this channel, such as a Responses id. */
  | { type: 'affinity'; key: string }
  /** The usage so far; the last one reported wins. */
  | { type: 'usage'; usage: Usage }
  /**
   * The upstream stopped the answer for its content filter (a chat `content_filter` finish, a
   * safety finish reason, a blocked prompt): reported beside the events that say so, which the
   * client gets as usual. When the stream has had no content before its end, it is a refusal,
   * which `fallbacks_on: [content_filter]` answers with the next fallback model instead.
   */
  | { type: 'content_filter' }
  /** The upstream reported an error in-band. Before any content it is a retryable failure. */
  | { type: 'error'; error: GatewayError };

/**
 * Translates an upstream stream frame by frame. Pure and synchronous: no I/O, no timers,
 * so it is unit-tested from recorded fixtures and the stream loop stays fast.
 */
export interface StreamDecoder {
  /** Outputs for one upstream frame (possibly none). */
  push(frame: SseFrame): StreamOutput[];
  /** Outputs after the upstream ended: closing events, final usage. */
  end(): StreamOutput[];
}
