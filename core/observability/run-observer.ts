import { scrubSecrets } from '../security/secret-values.js';
import type { ModelRequestSummary, SettlementSummary } from './gateway-metrics.js';

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
