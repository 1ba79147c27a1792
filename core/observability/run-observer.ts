import type { ModelRequestSummary, SettlementSummary } from './gateway-metrics.js';

/** A model request as it ended, with when it started and its id. */
export type ObservedRequest = ModelRequestSummary & { startedAt: number; requestId: string };

/**
 * What the runner reports when a model request ends and when it settles, for metrics and
 * traces. Called after the fact and synchronously: nothing waits on an observer.
 */
export interface RunObserver {
  requestFinished(request: ObservedRequest): void;
  settled(settlement: SettlementSummary): void;
}
