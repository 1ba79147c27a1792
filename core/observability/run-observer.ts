import { errorCodeRegistry } from '../errors/error-code-registry.js';
import { scrubSecrets } from '../security/secret-values.js';

/** How a model request ended, for the request counter and its span. */
export interface ModelRequestSummary {
  operation: string;
  /** The config's entry that matched (`gx-8*`), or `unknown`: a label from a closed set. */
  model: string;
  /** The model as the client named it, clipped: for spans, never for metric labels. */
  requestedModel?: string;
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
  /** The translator that served the answer in the client's format (a config entry's name: a closed set); absent when the provider served it itself. */
  translator?: string;
  /** The soft budgets the request was served past, as scope and period (`token` `daily`); absent or empty for none. */
  overBudget?: ReadonlyArray<{ scope: string; period: string }>;
}

/** What one settlement charged. */
export interface SettlementSummary {
  /** As {@link ModelRequestSummary.model}: the config's entry, never the client's text. */
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

/** The outcome label of a code outside the registry: an upstream's own code passed through, one value for all of them. */
export const upstreamCodeLabel = 'upstream_code';

/**
 * An outcome or error code as a metrics label: `success` or a code of the registry as it is,
 * any other (an upstream's own code passed through, which the upstream, or a client through
 * it, can vary without end) as {@link upstreamCodeLabel}, so the label's values are a closed set.
 */
export function outcomeLabel(code: string): string {
  return code === 'success' || Object.hasOwn(errorCodeRegistry, code) ? code : upstreamCodeLabel;
}

/** One observer that tells each of `observers`, in order. */
export function observeAll(observers: readonly RunObserver[]): RunObserver {
  return {
    requestFinished: (request) => {
      for (const observer of observers) observer.requestFinished(request);
    },
    settled: (settlement) => {
      for (const observer of observers) observer.settled(settlement);
    },
  };
}
