import { scrubSecrets } from '../security/secret-values.js';

/** How a model request ended, for the request counter and its span. */
export interface ModelRequestSummary {
  operation: string;
  model: string;
  /** The channel that answered, or the last one tried; `none` when none was. */
  channel: string;
  /** `success`, or the failure's code. */
  outcome: string;
  status: number;
  /** Each attempt's channel, time in milliseconds, and how it ended (`success`, `failed`, `refused`, `aborted`) with its error code. */
  attempts: ReadonlyArray<{ channel: string; milliseconds: number; outcome?: string; code?: string }>;
  /** From the invocation to the answer's headers (the whole request for JSON answers). */
  milliseconds: number;
  /** True when the answer is a stream; its upstream time then runs on after the headers. */
  streamed: boolean;
}

/** What one settlement charged. */
export interface SettlementSummary {
  model: string;
  inputTokens: number;
  outputTokens: number;
  units: number;
}

/** A model request as it ended, with when it started and its id. */
export type ObservedRequest = ModelRequestSummary & { startedAt: number; requestId: string };

/**
 * What the pipeline reports when a model request ends and when it settles, for metrics and
 * traces. Called after the fact and synchronously: nothing waits on an observer.
 */
export interface RunObserver {
  requestFinished(request: ObservedRequest): void;
  settled(settlement: SettlementSummary): void;
}

/**
 * An outcome or error code as metrics labels and span attributes carry it. Some providers pass
 * the upstream's own error code on, so a code is scrubbed of the operator's secrets like a
 * message is; `success` (nearly every request) costs nothing.
 */
export function observedCode(code: string): string {
  return code === 'success' ? code : scrubSecrets(code);
}
