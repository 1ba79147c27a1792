import type { ScriptedBehaviour } from '../../../core/testing/index.js';

/** What Ark's safety filter can flag: the prompt, a reference image, or the image it made (upstreams.md §3.1, §3.2). */
export type ArkSensitiveKind = 'input_text' | 'input_image' | 'output_image';

/**
 * How a video task ends (upstreams.md §3.3): `succeeded` (queued → running → succeeded),
 * `failed` (→ failed, `InternalServiceError`), `moderation` (→ failed,
 * `OutputVideoSensitiveContentDetected`), `cancelled` and `expired` (queued → that state),
 * or `vanish` (the upstream forgets it at once: every GET is a 404).
 */
export type ArkTaskOutcome = 'succeeded' | 'failed' | 'moderation' | 'cancelled' | 'expired' | 'vanish';

/** The `usage` of a Seedream answer (upstreams.md §3.2). */
export interface ArkImagesUsage {
  generated_images: number;
  output_tokens: number;
  total_tokens: number;
  [field: string]: unknown;
}

/**
 * How the fake Ark upstream answers the next request instead of its default. Fields combine
 * (for example `chunkDelayMs` with a stream, `stallBeforeHeadersMs` with `error`). "Chunks"
 * are the pieces an answer is written in: one SSE event, one entry of a `rawSse` array, or the
 * whole body of a JSON answer. Fields a route does not know are ignored there.
 */
export interface ArkBehaviour extends ScriptedBehaviour {
  /** The `code` of the `error` answer instead of the status's usual one, e.g. `InvalidParameter`. */
  code?: string;
  /** The `param` of the `error` answer. Default `""`. */
  param?: string;
  /** Answer 400 with the safety filter's error for the prompt, a reference image, or the output image. */
  blocked?: ArkSensitiveKind;
  /** Make this many images instead of the request's (1, or `max_images` of a group). */
  images?: number;
  /** Positions (from 0) of images that fail the output check while the others succeed (upstreams.md §3.2). */
  failedImages?: number[];
  /** Answer 200 without any image: `data: []`, `generated_images: 0`. */
  empty?: boolean;
  /** Send this as the 200 answer: an object as compact JSON, a string as it is. */
  json?: unknown;
  /** Report this usage instead of the fake's own count. */
  usage?: ArkImagesUsage;
  /** On a `stream: true` request, send these exact bytes; a string is written one event at a time. */
  rawSse?: string | Uint8Array | Array<string | Uint8Array>;
  /** On a task create: how the task ends. Default `succeeded`. */
  taskOutcome?: ArkTaskOutcome;
  /** On a task create: the `error` its failure reports instead of the outcome's default. */
  taskError?: { code: string; message: string };
  /** On a task create: the `usage.completion_tokens` its success reports; `null` leaves `usage` out. Default: width × height × frames / 1024. */
  taskTokens?: number | null;
  /** On a task create: the `content.video_url` its success reports instead of the fake's own signed address (any URL, e.g. one the gateway must refuse). */
  taskVideoUrl?: string;
  /** On an asset-API request: answer HTTP 200 with this `ResponseMetadata.Error` (upstreams.md §3.5: errors may come with 200). */
  volcError?: { Code: string; Message: string };
  /** On `CreateAsset`: how the asset ends after processing. Default `Active`. */
  assetOutcome?: 'Active' | 'Failed';
  /** On `CreateAsset`: how many `GetAsset` reads show it `Processing` before its end. Default 1. */
  assetProcessingReads?: number;
}
